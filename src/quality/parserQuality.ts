/**
 * The parser as an adapter of the quality port, for code: every AVAP block of
 * the answer goes to the parser (through the ParserPort: the gRPC service
 * behind the circuit breaker, or any other implementation). Score = share of
 * blocks that are valid; it passes only when all are. An unreachable parser
 * is a failure, never a score.
 */
import { type ParserOutcome, extractCode, stripThinking } from '../core';
import { renderEntry } from '../parser';
import type { QualityInput, QualityValidator, QualityVerdict } from './port';

export type ParserValidateFn = (source: string, filename: string, signal?: AbortSignal) => Promise<ParserOutcome>;

export const NO_CODE_HINT = 'Give the answer as AVAP code in a fenced ```avap block.';

export function createParserQualityValidator(validate: ParserValidateFn, filename = 'answer.avap'): QualityValidator {
  return {
    name: 'parser',
    async assess(input: QualityInput, signal?: AbortSignal): Promise<QualityVerdict> {
      const blocks = extractCode(stripThinking(input.answer));
      if (blocks.length === 0) {
        return {
          ok: true,
          assessment: {
            validator: 'parser', composite: 0, threshold: 1, passed: false,
            dimensions: [{ name: 'syntax', score: 0, weight: 1, reason: 'no AVAP code in the answer' }],
            findings: ['no AVAP code in the answer'],
            hint: NO_CODE_HINT,
          },
        };
      }
      const findings: string[] = [];
      let valid = 0;
      for (const block of blocks) {
        let outcome: ParserOutcome;
        try {
          outcome = await validate(block.code, filename, signal);
        } catch (err) {
          outcome = { kind: 'unavailable', reason: 'transport', detail: err instanceof Error ? err.message : String(err) };
        }
        if (outcome.kind === 'unavailable') {
          return {
            ok: false,
            failure: {
              validator: 'parser',
              code: outcome.reason === 'cancelled' ? 'cancelled' : 'parser-unavailable',
              message: `the parser could not validate the code (${outcome.reason})`,
              detail: outcome.detail,
            },
          };
        }
        if (outcome.result.valid) valid += 1;
        for (const entry of outcome.result.trace) {
          if (entry.severity !== 'error') continue;
          // Lines of the answer, not of the block.
          findings.push(renderEntry({ ...entry, line: entry.line + block.startLine - 1 }));
        }
      }
      const score = Math.round((valid / blocks.length) * 1000) / 1000;
      const passed = valid === blocks.length;
      return {
        ok: true,
        assessment: {
          validator: 'parser',
          composite: score,
          threshold: 1,
          passed,
          dimensions: [{ name: 'syntax', score, weight: 1, reason: `${valid}/${blocks.length} code block${blocks.length === 1 ? '' : 's'} valid` }],
          findings,
          ...(passed ? {} : { hint: `Correct these parser findings: ${findings.slice(0, 5).join('; ')}` }),
        },
      };
    },
  };
}

/**
 * Validates every code block of one answer through the ParserPort and maps
 * the trace back: onto the candidate program (the blocks joined) and onto
 * the lines of the response text.
 *
 * What is delivered is both: each block as the text shows it, and the blocks
 * joined (`avap_code`). So each block is validated, and — when there are
 * several and each passed — the joined program too: two blocks that each
 * define `function double(a)` are each valid, but the program they are
 * delivered as defines it twice, and that is invalid.
 */
import type { ParserOutcome, ParserPort } from '../types';
import type { TraceEntry, ValidationResult } from '../../parser';
import { combineChecks, type CodeCheck } from '../validation/status';
import { entryOnResponse, joinBlocks, type CodeBlock } from './extract';

type BlockVerdict =
  | { kind: 'valid'; trace: TraceEntry[]; responseTrace: TraceEntry[]; parserVersion: string }
  | { kind: 'invalid'; trace: TraceEntry[]; responseTrace: TraceEntry[]; parserVersion: string }
  | { kind: 'unavailable'; outcome: Extract<ParserOutcome, { kind: 'unavailable' }>; calls: number }
  | { kind: 'no-code' };

export interface AnswerValidation {
  verdict: BlockVerdict;
  /** The candidate program (blocks joined). */
  code: string;
  /** The combined outcome as a ParserOutcome (types.ts), trace lines relative to `code`. */
  outcome: ParserOutcome;
  /** Parser calls that reached the transport or were skipped by the breaker. */
  calls: number;
  /** The verdict on each block, in order (`unavailable` for a block the parser was not asked about). */
  blocks: ('valid' | 'invalid' | 'unavailable')[];
}

/** Entries (and their fixes' edits) moved down by `offset` lines. */
function shift(trace: readonly TraceEntry[], offset: number): TraceEntry[] {
  return trace.map((e) => {
    const moved: TraceEntry = { ...e, line: e.line + offset };
    if (e.fix)
      moved.fix = {
        ...e.fix,
        edits: e.fix.edits.map((x) => ({ ...x, line: x.line + offset, endLine: x.endLine + offset })),
      };
    return moved;
  });
}

/** The block a line of the joined program belongs to, and the line within it (1-based). */
function blockOfLine(blocks: readonly CodeBlock[], offsets: readonly number[], line: number) {
  for (let i = blocks.length - 1; i >= 0; i -= 1) {
    const offset = offsets[i] ?? 0;
    if (line > offset) return { index: i, line: line - offset };
  }
  return { index: 0, line };
}

/** An entry of the joined program moved onto the response (through the block its line is in). */
function joinedOnResponse(blocks: readonly CodeBlock[], offsets: readonly number[], entry: TraceEntry): TraceEntry {
  const { index } = blockOfLine(blocks, offsets, entry.line);
  const block = blocks[index] as CodeBlock;
  return entryOnResponse(block, shift([entry], -(offsets[index] ?? 0))[0] as TraceEntry);
}

export async function validateAnswer(
  parser: ParserPort,
  blocks: readonly CodeBlock[],
  filename: string,
  signal?: AbortSignal,
): Promise<AnswerValidation> {
  const { code, offsets } = joinBlocks(blocks);
  if (blocks.length === 0) {
    return {
      verdict: { kind: 'no-code' },
      code: '',
      outcome: { kind: 'validated', result: { valid: false, trace: [], truncated: false, parserVersion: '' } },
      calls: 0,
      blocks: [],
    };
  }
  let trace: TraceEntry[] = [];
  let responseTrace: TraceEntry[] = [];
  const checks: CodeCheck[] = [];
  let truncated = false;
  let parserVersion = '';
  let unavailable: Extract<ParserOutcome, { kind: 'unavailable' }> | undefined;
  let calls = 0;
  for (const [index, block] of blocks.entries()) {
    const outcome = await parser.validate(
      block.code,
      blocks.length > 1 ? `${filename}#${index + 1}` : filename,
      signal,
    );
    calls += 1;
    if (outcome.kind === 'unavailable') {
      checks.push('unavailable');
      unavailable ??= outcome;
      // No point asking again while the parser is down or the caller has gone.
      if (outcome.reason !== 'rejected') break;
      continue;
    }
    const result: ValidationResult = outcome.result;
    parserVersion = result.parserVersion;
    checks.push(result.valid ? 'valid' : 'invalid');
    truncated ||= result.truncated;
    trace.push(...shift(result.trace, offsets[index] ?? 0));
    responseTrace.push(...result.trace.map((e) => entryOnResponse(block, e)));
  }
  const perBlock: AnswerValidation['blocks'] = blocks.map((_, i) => {
    const check = checks[i];
    return check === 'valid' || check === 'invalid' ? check : 'unavailable';
  });
  // Several blocks, each valid: the program they are delivered as (avap_code) must be valid too.
  if (blocks.length > 1 && !perBlock.some((c) => c !== 'valid')) {
    const outcome = await parser.validate(code, filename, signal);
    calls += 1;
    if (outcome.kind === 'unavailable') {
      checks.push('unavailable');
      unavailable ??= outcome;
    } else if (!outcome.result.valid) {
      // The joined program's findings replace the blocks' (each block's own findings are in it too).
      checks.push('invalid');
      parserVersion = outcome.result.parserVersion;
      truncated ||= outcome.result.truncated;
      trace = outcome.result.trace;
      responseTrace = trace.map((e) => joinedOnResponse(blocks, offsets, e));
      for (const entry of trace)
        if (entry.severity === 'error') perBlock[blockOfLine(blocks, offsets, entry.line).index] = 'invalid';
    }
  }
  // Evidence of invalid code wins; then a block without a verdict; "valid" only when every block was validated.
  const check = combineChecks(checks);
  if (check === 'invalid') {
    return {
      verdict: { kind: 'invalid', trace, responseTrace, parserVersion },
      code,
      outcome: { kind: 'validated', result: { valid: false, trace, truncated, parserVersion } },
      calls,
      blocks: perBlock,
    };
  }
  if (check === 'unavailable' && unavailable)
    return {
      verdict: { kind: 'unavailable', outcome: unavailable, calls },
      code,
      outcome: unavailable,
      calls,
      blocks: perBlock,
    };
  return {
    verdict: { kind: 'valid', trace, responseTrace, parserVersion },
    code,
    outcome: { kind: 'validated', result: { valid: true, trace, truncated, parserVersion } },
    calls,
    blocks: perBlock,
  };
}

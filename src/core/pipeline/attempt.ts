/**
 * One attempt: the model's answer streamed as drafts (watched line by line for
 * a hard error when a retry could follow it: code/streamCheck.ts), then every
 * code block the answer shows validated by the parser; and `adopt`, which
 * makes an attempt's answer the run's answer and records what the parser
 * said about it.
 */
import { PARSER_VERSION } from '../../parser';
import { stripThinking } from '../code/extract';
import { isAvapFinding } from '../code/notAvap';
import { StreamCheck, type HardFinding } from '../code/streamCheck';
import { validateAnswer, type AnswerValidation } from '../code/validateBlocks';
import type { ChatMessage } from '../llm/port';
import type { CodeCheck } from '../validation/status';
import { err, ok, type Result } from '../../result';
import { asFailure, cancelledError, type RunFailure } from './failure';
import type { RunContext } from './run';
import type { AnswerSpec } from './spec';

/**
 * The design's line when the parser cannot answer (a message: the logger adds `[ptvl]`; tests compare `prefixed(…)`).
 * @internal
 */
export const LOG_PARSER_UNAVAILABLE = 'parser unavailable — returning unvalidated';

export interface AttemptAnswer {
  text: string;
  validation: AnswerValidation;
  /** Set when the stream was stopped on a hard error: the answer is what had arrived. */
  aborted?: HardFinding;
}

export interface AttemptCall {
  attempt: number;
  messages: ChatMessage[];
  /** The graph node the generation is timed as. */
  node: string;
  /** Watch the stream for a hard error and stop the model on it. */
  watch?: boolean;
}

export async function generateAttempt(
  run: RunContext,
  spec: AnswerSpec,
  call: AttemptCall,
): Promise<Result<AttemptAnswer, RunFailure>> {
  const { llm, parser } = run.deps;
  const { attempt, messages, node } = call;
  run.lastAttempt = attempt;
  // Early abort: complete code lines are checked as they stream; a hard error stops the model (see code/streamCheck.ts).
  const check = call.watch ? new StreamCheck() : undefined;
  const stop = new AbortController();
  const signal = check ? (run.signal ? AbortSignal.any([run.signal, stop.signal]) : stop.signal) : run.signal;
  const forward = run.streamTo(attempt);
  let streamed = '';
  const onToken = (piece: string) => {
    if (stop.signal.aborted) return; // what still arrives after the stop is not part of the answer
    forward(piece);
    if (!check) return;
    streamed += piece;
    if (check.push(piece) && isAvapFinding(check.finding)) stop.abort();
  };
  const reply = await run.timed(node, () => llm.chat({ model: spec.model, messages, signal, onToken }));
  const hard = isAvapFinding(check?.finding) ? check?.finding : undefined;
  // Decided by the content alone (a reply that finished before the abort landed is treated the same), so runs are reproducible.
  if (hard && !run.cancelled) return ok({ ...abortedAnswer(streamed, hard), aborted: hard });
  if (!reply.ok) return err(asFailure(reply.error));
  if (run.cancelled) return err(cancelledError());
  const text = stripThinking(reply.value.text);
  const blocks = spec.blocks(text);
  const validation = await run.timed('validate_code', () => validateAnswer(parser, blocks, run.filename, run.signal));
  const verdict = validation.verdict;
  if (run.cancelled || (verdict.kind === 'unavailable' && verdict.outcome.reason === 'cancelled')) {
    // Kept as a record of what happened; the run itself ends without an answer or a status.
    if (blocks.length) run.attemptLog.cancelled(attempt, text, validation);
    return err(cancelledError());
  }
  return ok({ text, validation });
}

/**
 * What a stopped stream leaves: the text that arrived (up to the line with
 * the hard error) and the library's hard findings on it, as an invalid
 * verdict of the parser library — evidence enough to retry, never a status.
 */
function abortedAnswer(streamed: string, hard: HardFinding): { text: string; validation: AnswerValidation } {
  // The lines up to the one whose completion stopped the stream (the fence left open, as a cut stream leaves it).
  const text = stripThinking(streamed.split('\n').slice(0, hard.lastLine).join('\n'));
  const offset = hard.responseLine - hard.entry.line;
  const trace = hard.entries;
  const responseTrace = trace.map((e) => ({ ...e, line: e.line + offset }));
  return {
    text,
    validation: {
      verdict: { kind: 'invalid', trace, responseTrace, parserVersion: PARSER_VERSION },
      code: hard.code,
      outcome: {
        kind: 'validated',
        result: { valid: false, trace, truncated: false, parserVersion: PARSER_VERSION },
      },
      // The cut answer's one (open) block holds the hard findings; it was not sent to the service.
      blocks: ['invalid'],
      calls: 0,
    },
  };
}

/** The answer of `attempt` becomes the run's answer; what the parser said about it is kept. */
export function adopt(run: RunContext, spec: AnswerSpec, attempt: number, answer: AttemptAnswer): CodeCheck {
  const { text, validation } = answer;
  const verdict = validation.verdict;
  run.result.text = text;
  run.result.code = validation.code;
  if (verdict.kind !== 'no-code' || spec.codeRequired) run.attemptLog.answered(attempt, text, validation);
  if (verdict.kind === 'unavailable')
    run.deps.logger.warn(`${LOG_PARSER_UNAVAILABLE} (${verdict.outcome.reason}: ${verdict.outcome.detail})`);
  // A code request answered with no code at all is a failed attempt (E009), not a valid one.
  return verdict.kind === 'no-code' && spec.codeRequired ? 'invalid' : verdict.kind;
}

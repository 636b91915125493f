/**
 * The state fields of docs/design.md D1 that describe a finished run, read off the result:
 *
 * - `parser_trace`: the raw trace of the first validation (CODE_GENERATION,
 *   and any other route whose answer showed code), one `Line N: message` per error; empty when the first attempt was valid
 *   or got no verdict (the parser was unavailable: the status says so). A
 *   first answer without any code gets the line the retry was given.
 * - `context_relevant`: the relevance check's verdict on the first retrieval
 *   (RETRIEVAL).
 *
 * Pure; the pipeline sets both on its result, the CLI and the REST server put
 * them on the final message.
 */
import { renderTrace } from '../../parser';
import type { PipelineResult } from '../types';

const NO_CODE_TRACE = 'Line 1: the answer contained no AVAP code';

/** The first attempt's trace as text; undefined for answers of other routes that showed no code. */
function firstAttemptTrace(result: PipelineResult): string | undefined {
  const first = result.attempts[0];
  const outcome = first?.outcome;
  // Every route validates the code it shows; another route has a trace only when its first answer showed code.
  if (result.queryType !== 'CODE_GENERATION' && (outcome?.kind !== 'validated' || first?.attempt !== 1))
    return undefined;
  if (!outcome || outcome.kind !== 'validated' || outcome.result.valid) return '';
  const text = renderTrace(outcome.result.trace, { includeWarnings: false, truncated: outcome.result.truncated });
  return text || NO_CODE_TRACE;
}

/** The result with `parserTrace` (code generation) and `contextRelevant` (retrieval) set. */
export function withFirstAttempt(result: PipelineResult): PipelineResult {
  const trace = firstAttemptTrace(result);
  if (trace !== undefined) result.parserTrace = trace;
  if (result.queryType === 'RETRIEVAL' && result.relevance) result.contextRelevant = result.relevance.relevant;
  return result;
}

/** The final message's fields for them (absent when they do not apply). */
export function firstAttemptFields(result: PipelineResult): { parser_trace?: string; context_relevant?: boolean } {
  return {
    ...(result.parserTrace !== undefined ? { parser_trace: result.parserTrace } : {}),
    ...(result.contextRelevant !== undefined ? { context_relevant: result.contextRelevant } : {}),
  };
}

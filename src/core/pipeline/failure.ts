/** How a run that ends without an answer says why: the pipeline's own error codes (types.ts, RunErrorCode). */
import type { LlmError } from '../llm/port';
import type { RunErrorCode } from '../types';

export interface RunFailure {
  code: RunErrorCode;
  message: string;
}

export const cancelledError = (): RunFailure => ({ code: 'cancelled', message: 'the request was cancelled' });

/** An LLM port's error as the run's failure; a code the pipeline does not know is `llm-failed`. */
export function asFailure(error: LlmError | { code: string; message: string }): RunFailure {
  const known = ['llm-unreachable', 'model-missing', 'llm-timeout', 'cancelled', 'llm-failed'];
  return known.includes(error.code) ? (error as RunFailure) : { code: 'llm-failed', message: error.message };
}

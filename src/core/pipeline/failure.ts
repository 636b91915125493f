/** How a run that ends without an answer says why: the pipeline's own error codes (types.ts, RunErrorCode). */
import type { LlmError } from '../llm/port';
import type { PipelineRequest, PipelineResult, RunErrorCode } from '../types';

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

/**
 * The result of a request that no run answered (the assistant was not set up, or a bug escaped the graph): no
 * answer, no attempts and no status — it claims nothing — with why as its error.
 */
export function resultWithoutRun(
  request: PipelineRequest,
  why: Pick<PipelineResult, 'generationId'> & Required<Pick<PipelineResult, 'error'>>,
): PipelineResult {
  return {
    queryType: request.forceType ?? 'CODE_GENERATION',
    text: '',
    code: '',
    attempts: [],
    sources: [],
    relevanceRetry: false,
    generationId: why.generationId,
    error: why.error,
  };
}

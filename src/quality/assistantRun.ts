/**
 * The quality gate around the pipeline: runs a request through the core's
 * assistant and, for RETRIEVAL answers, has the validator (the LLM judge)
 * score the answer against the retrieved documentation; a failing answer gets
 * one retry with the weakest dimension's hint, generated from the pipeline's
 * own answer prompt. Best effort: the answer is returned either way with its
 * scores; a judge failure is reported, never scored.
 *
 * Streaming: the pipeline's pieces pass through at once; the final message is
 * held until the gate is done. Retry pieces carry `attempt: 2`, so a client
 * that shows the stream starts afresh (the contract of ResponseMessage).
 */
import { extractCode, stripThinking } from '../core/code/extract';
import type { PipelineRequest, PipelineResult, ResponseMessage, RetrievedSource } from '../core/contracts';
import type { LlmError, LlmPort } from '../core/llm/port';
import { generateMessages } from '../core/routing/prompts';
import { llmRegenerator, qualityGate, type GateAttempt } from './gate';
import type { ContextPassage, QualityFailure, QualityValidator, QualityVerdict } from './port';

export interface AssistantLike {
  run(request: PipelineRequest, options?: { signal?: AbortSignal; onMessage?: (message: ResponseMessage) => void }): Promise<PipelineResult>;
}

export interface QualityRunDeps {
  assistant: AssistantLike;
  validator: QualityValidator;
  /** Generates the hinted retry. */
  llm: LlmPort;
  model: string;
  /** The texts of the retrieved sources (by id); sources it cannot resolve are left out. */
  passages: (sources: readonly RetrievedSource[]) => ContextPassage[];
}

export interface QualityReport {
  validator: string;
  passed: boolean;
  retried: boolean;
  /** Every verdict, in attempt order (1 = the pipeline's answer, 2 = the hinted retry). */
  attempts: { attempt: number; verdict: QualityVerdict; hint?: string }[];
  /** The last attempt's failure, when the validator could not assess. */
  failure?: QualityFailure;
  /** The retry could not be generated (the first answer is returned). */
  retryError?: LlmError;
}

export interface QualityRunResult {
  result: PipelineResult;
  /** Absent when the gate did not apply (not RETRIEVAL, or the run failed). */
  quality?: QualityReport;
}

function report(validator: string, attempts: readonly GateAttempt[], passed: boolean, retryError?: LlmError): QualityReport {
  const last = attempts[attempts.length - 1]?.verdict;
  return {
    validator,
    passed,
    retried: attempts.length > 1,
    attempts: attempts.map((a, i) => ({ attempt: i + 1, verdict: a.verdict, ...(a.hint ? { hint: a.hint } : {}) })),
    ...(last && !last.ok ? { failure: last.failure } : {}),
    ...(retryError ? { retryError } : {}),
  };
}

export async function runWithQuality(
  deps: QualityRunDeps,
  request: PipelineRequest,
  options: { signal?: AbortSignal; onMessage?: (message: ResponseMessage) => void } = {},
): Promise<QualityRunResult> {
  const emit = (message: ResponseMessage) => {
    try {
      options.onMessage?.(message);
    } catch {
      // a consumer's failure must not break the run
    }
  };
  let held: ResponseMessage | undefined;
  const result = await deps.assistant.run(request, {
    ...(options.signal ? { signal: options.signal } : {}),
    onMessage: (message) => {
      if (message.is_final) held = message;
      else emit(message);
    },
  });
  const final = (): ResponseMessage => held ?? { text: '', avap_code: result.code, is_final: true, validation_status: result.validationStatus };
  if (result.error || result.queryType !== 'RETRIEVAL' || !result.text.trim()) {
    emit(final());
    return { result };
  }

  const context = deps.passages(result.sources);
  const input = { question: request.query, answer: result.text, context, queryType: result.queryType };
  const regenerate = llmRegenerator(deps.llm, deps.model, input, {
    baseMessages: generateMessages(request.query, context, request.history ?? []),
    onToken: (piece) => emit({ text: piece, avap_code: '', is_final: false, validation_status: '', attempt: 2 }),
  });
  const gate = await qualityGate(deps.validator, input, regenerate, options.signal);
  if (gate.answer !== result.text) {
    result.text = stripThinking(gate.answer);
    result.code = extractCode(result.text).filter((b) => b.fenced).map((b) => b.code).join('\n');
  }
  emit({ ...final(), avap_code: result.code });
  return { result, quality: report(deps.validator.name, gate.attempts, gate.passed, gate.retryError) };
}

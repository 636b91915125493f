/**
 * One assistant run as every front end does it: through the quality gate when
 * a judge is configured (RETRIEVAL answers are scored, one hinted retry), then
 * recorded as a training signal when a store is configured. Shared by the REST
 * server and the editor so both record the same facts. A store that cannot be
 * written is logged, never fails the answer.
 */
import type { PipelineRequest, PipelineResult, ResponseMessage } from '../core';
import {
  runWithQuality,
  type AssistantLike,
  type QualityReport,
  type ContextPassage,
  type QualityValidator,
} from '../quality';
import { isAnswered, signalFromPipeline, type SignalContext } from './fromPipeline';
import type { SignalStore } from './store';

export interface RecordedRunDeps {
  assistant: AssistantLike;
  /** Set when the judge is on (the pipeline writes its hinted retry, within the request's one retry cycle). */
  quality?: { validator: QualityValidator };
  /** Resolves the texts of retrieved sources (for the judge and for signals). */
  passages: (sources: readonly { id: string; title: string }[]) => ContextPassage[];
  /** Set when training signals are recorded. */
  signals?: SignalStore;
  /** Who records and with which versions (everything of a signal that is not in the result). */
  signal: Omit<SignalContext, 'quality' | 'contextTexts'>;
  log: (line: string) => void;
}

export interface RecordedRun {
  result: PipelineResult;
  /** Absent when the gate did not apply (judge off, not RETRIEVAL, or the run failed). */
  quality?: QualityReport;
  /** The signal's id (the generation id) when one was recorded. */
  signalId?: string;
}

export async function runRecorded(
  deps: RecordedRunDeps,
  request: PipelineRequest,
  options: { signal?: AbortSignal; onMessage?: (message: ResponseMessage) => void } = {},
): Promise<RecordedRun> {
  const run: RecordedRun = deps.quality
    ? await runWithQuality(
        { assistant: deps.assistant, validator: deps.quality.validator, passages: deps.passages },
        request,
        options,
      )
    : { result: await deps.assistant.run(request, options) };
  // A run without an answer (failed, cancelled) is no training signal: it claims nothing.
  if (!deps.signals || !isAnswered(run.result)) return run;
  const passages = deps.passages(run.result.sources);
  const recorded = await deps.signals.recordSignal(
    signalFromPipeline(request, run.result, {
      ...deps.signal,
      quality: run.quality?.attempts.map((a) => a.verdict) ?? [],
      contextTexts: new Map(passages.map((p) => [p.id ?? '', p.text])),
    }),
  );
  if (recorded.ok) run.signalId = recorded.value;
  else deps.log(`training signal not recorded: ${recorded.error.message}`);
  return run;
}

/**
 * The assistant stack: the core's assistant, the quality judge and the
 * training-signal store (and the telemetry log, as the core writes it),
 * assembled from one configuration. Every front end that answers requests —
 * the editor, the REST server, the evaluation — builds its assistant here,
 * so a judge or a signal store is set up one way. A run through the stack
 * (`run`, `runThroughStack`) goes through the judge when it is on and is
 * recorded as a training signal when a store is configured.
 */
import {
  createAssistant,
  createOllamaLlm,
  jsonlTelemetry,
  silentLogger,
  type Assistant,
  type AssistantConfig,
  type AssistantDeps,
  type JsonlTelemetrySink,
  type LlmPort,
  type PipelineRequest,
  type ResponseMessage,
} from '../core';
import { loadKnowledgeBase } from '../knowledge';
import { PARSER_VERSION } from '../parser';
import type { BadParserUrl } from '../protocol';
import {
  createLlmJudge,
  type AssistantLike,
  type ContextPassage,
  type QualityConfig,
  type QualityValidator,
} from '../quality';
import { err, ok, type Result } from '../result';
import { runRecorded, SignalStore, type NewSignal, type RecordedRun } from '../signals';

/** Everything a stack is built from. */
export interface StackConfig {
  /** The core: parser, Ollama, retrieval, relevance, pipeline, telemetry. */
  core: AssistantConfig;
  /** The judge: off unless `judge.enabled`; its model defaults to the core's main model. */
  quality: QualityConfig;
  /** Training signals are recorded to this JSONL file when it is set. */
  signalsFile?: string;
}

/** Who runs requests through the stack: recorded on every training signal. */
export interface StackCaller {
  source: NewSignal['source'];
  assistantVersion?: string;
  /** Receives a line when a training signal could not be written. */
  log: (line: string) => void;
}

export interface StackDeps extends AssistantDeps {
  caller: StackCaller;
  /** Receives the signal store's warnings (a torn last line found and left behind). */
  signalWarn?: (line: string) => void;
}

/** The judge as the stack runs it. */
interface StackQuality {
  validator: QualityValidator;
  threshold: number;
}

/** What a run through the stack needs; a stack has them, and a front end's tests may hand their own. */
export interface StackParts {
  assistant: AssistantLike;
  /** Set when the judge is on. */
  quality?: StackQuality;
  /** Set when training signals are recorded. */
  signals?: SignalStore;
  /** The texts of retrieved sources (for the judge and for signals); sources it cannot resolve get no text. */
  passages: (sources: readonly { id: string; title: string }[]) => ContextPassage[];
  /** The models in use: `judge` only when the judge is on. */
  models: { main: string; host: string; judge?: string };
}

export interface AssistantStack extends StackParts {
  readonly assistant: Assistant;
  /** The one Ollama client of the stack: the pipeline's and the judge's. */
  readonly llm: LlmPort;
  /** The telemetry log the stack writes, when the configuration names one (a server asks whether it is writable). */
  readonly telemetry?: JsonlTelemetrySink;
  /** Why the shipped knowledge base could not be loaded (the judge then sees only titles). */
  readonly knowledgeProblem?: string;
  /** One request through the judge and the signal store. Never rejects. */
  run(
    request: PipelineRequest,
    options?: { signal?: AbortSignal; onMessage?: (message: ResponseMessage) => void },
  ): Promise<RecordedRun>;
  /** Disposes of the assistant (its parser connection when the stack opened it, telemetry flushed). */
  dispose(): Promise<void>;
}

/** One run: through the judge when it is on, then recorded as a training signal when a store is set. */
export function runThroughStack(
  parts: StackParts,
  caller: StackCaller,
  request: PipelineRequest,
  options: { signal?: AbortSignal; onMessage?: (message: ResponseMessage) => void } = {},
): Promise<RecordedRun> {
  return runRecorded(
    {
      assistant: parts.assistant,
      ...(parts.quality ? { quality: { validator: parts.quality.validator } } : {}),
      passages: parts.passages,
      ...(parts.signals ? { signals: parts.signals } : {}),
      signal: {
        source: caller.source,
        model: parts.models.main,
        ...(parts.models.judge ? { judgeModel: parts.models.judge } : {}),
        parserVersion: PARSER_VERSION,
        ...(caller.assistantVersion !== undefined ? { assistantVersion: caller.assistantVersion } : {}),
      },
      log: caller.log,
    },
    request,
    options,
  );
}

/**
 * Builds the stack. What `deps` does not inject is built from the config: one
 * Ollama client for the pipeline and the judge, the shipped knowledge base
 * (loaded once, for retrieval, few-shot examples and the judge's passages),
 * the telemetry log, the signal store. Fails only as the core does: an
 * unreadable parser URL (nothing is started then).
 */
export async function createAssistantStack(
  config: StackConfig,
  deps: StackDeps,
): Promise<Result<AssistantStack, BadParserUrl>> {
  const { caller, signalWarn, ...assistantDeps } = deps;
  const core = config.core;
  const logger = deps.logger ?? silentLogger;
  const llm = deps.llm ?? createOllamaLlm(core.ollama);
  let knowledge = deps.knowledge;
  let knowledgeProblem: string | undefined;
  if (knowledge === undefined) {
    // Loaded once here; when it fails the assistant is left to load it (and report it as its retrieval's problem).
    const loaded = loadKnowledgeBase();
    if (loaded.ok) knowledge = loaded.value;
    else knowledgeProblem = loaded.error.message;
  }
  // An injected sink is the caller's; otherwise the stack writes the configured log and keeps it (its health).
  const telemetry = !deps.telemetry && core.telemetry.file ? jsonlTelemetry(core.telemetry.file, logger) : undefined;
  const created = await createAssistant(core, {
    ...assistantDeps,
    llm,
    ...(knowledge !== undefined ? { knowledge } : {}),
    ...(telemetry ? { telemetry } : {}),
  });
  if (!created.ok) return err(created.error);
  const assistant = created.value;

  const judge = config.quality.judge;
  const judgeModel = judge.model ?? core.ollama.model;
  const quality: StackQuality | undefined = judge.enabled
    ? { validator: createLlmJudge({ llm, model: judgeModel, threshold: judge.threshold }), threshold: judge.threshold }
    : undefined;
  const signals = config.signalsFile
    ? new SignalStore(config.signalsFile, signalWarn ? { warn: signalWarn } : {})
    : undefined;
  const passages = (sources: readonly { id: string; title: string }[]): ContextPassage[] =>
    sources.map((s) => {
      const chunk = knowledge?.chunk(s.id);
      return { id: s.id, title: chunk?.title ?? s.title, text: chunk?.text ?? '' };
    });
  const parts: StackParts = {
    assistant,
    ...(quality ? { quality } : {}),
    ...(signals ? { signals } : {}),
    passages,
    models: { main: core.ollama.model, host: core.ollama.host, ...(quality ? { judge: judgeModel } : {}) },
  };
  return ok({
    ...parts,
    assistant,
    llm,
    ...(telemetry ? { telemetry } : {}),
    ...(knowledgeProblem !== undefined ? { knowledgeProblem } : {}),
    run: (request, options) => runThroughStack(parts, caller, request, options),
    dispose: () => assistant.dispose(),
  });
}

/** What a run of the pipeline is given: its adapters and configuration, and the caller's options. */
import type { AssistantConfig } from '../config';
import type { FewShotSelection } from '../fewShot/selector';
import type { LlmPort } from '../llm/port';
import type { Logger } from '../ports';
import type { RelevancePort } from '../relevance/port';
import type { RetrievalPort } from '../retrieval/port';
import type { FewShotExample } from '../routing/prompts';
import type { TelemetrySink } from '../telemetry/events';
import type { AnswerReviewer, ParserPort, ResponseMessage } from '../types';

/** Few-shot examples as a list, or as a selection that says how it was made. */
type FewShotChoice = FewShotExample[] | FewShotSelection;

export interface PipelineDeps {
  config: AssistantConfig;
  llm: LlmPort;
  parser: ParserPort;
  retrieval: RetrievalPort;
  relevance: RelevancePort;
  /**
   * Few-shot examples for code generation (the knowledge base's pool): a list,
   * or a selection that says how it was made (by embedding similarity, or the
   * flagged lexical fallback).
   */
  examples?: (request: string, k: number, signal?: AbortSignal) => FewShotChoice | Promise<FewShotChoice>;
  telemetry: TelemetrySink;
  logger: Logger;
  /** The parser version for telemetry (last seen verdict). */
  parserVersion?: () => string | undefined;
  newId?: () => string;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Receives every response message: drafts, then one final message. A throwing listener is ignored. */
  onMessage?: (message: ResponseMessage) => void;
  /** Reviews documentation (RETRIEVAL) answers before the final message; may ask for the one hinted retry. */
  review?: AnswerReviewer;
}

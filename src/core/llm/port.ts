/**
 * The LLM port: what the pipeline needs from a model server. The real adapter
 * is Ollama (`ollamaLlm.ts`); unit tests use the shared fakes in
 * test/support/fakes/llm.ts. Failures are data with distinct, actionable codes.
 */
import type { Result } from '../../result';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

type LlmErrorCode = 'llm-unreachable' | 'model-missing' | 'llm-timeout' | 'cancelled' | 'llm-failed';

export interface LlmError {
  code: LlmErrorCode;
  message: string;
}

export type LlmResult<T> = Result<T, LlmError>;

export interface ChatCall {
  model: string;
  messages: ChatMessage[];
  /** A JSON schema the answer must follow (Ollama's structured outputs). */
  format?: Record<string, unknown>;
  /** Streams the answer and reports each piece as it arrives. */
  onToken?: (piece: string) => void;
  signal?: AbortSignal;
  /** Caps the answer length (small for YES/NO checks). */
  maxTokens?: number;
}

export interface LlmPort {
  chat(call: ChatCall): Promise<LlmResult<{ text: string }>>;
  embed(model: string, texts: string[], signal?: AbortSignal): Promise<LlmResult<number[][]>>;
  /** Names of the models the server has pulled. */
  models(signal?: AbortSignal): Promise<LlmResult<string[]>>;
}

/**
 * The relevance check (check_context_relevance) behind a port with two
 * interchangeable adapters, chosen by setting: the LLM YES/NO judge and the
 * cosine check.
 */
import type { Result } from '../../result';
import type { LlmError } from '../llm/port';
import type { RetrievedContext } from '../retrieval/port';

interface RelevanceVerdict {
  relevant: boolean;
  /** cosine value, for the cosine adapter. */
  score?: number;
  /** What decided it, for logs ("LLM said NO", "cosine 0.31 < 0.5"). */
  detail: string;
}

export type RelevanceOutcome = Result<RelevanceVerdict, LlmError>;

export interface RelevancePort {
  readonly mode: 'llm' | 'cosine';
  judge(query: string, retrieved: RetrievedContext, signal?: AbortSignal): Promise<RelevanceOutcome>;
}

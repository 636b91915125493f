/**
 * reformulate → retrieve: the query rewritten for search (one line), then the
 * documentation it finds. A failed retrieval is not a failed run: the answer
 * goes on without documentation context, marked `degraded` with the reason,
 * and its retrieval mode is `none` — on the result, in telemetry and for the
 * relevance check alike.
 */
import { stripThinking } from '../code/extract';
import type { RetrievedContext } from '../retrieval/port';
import { reformulateMessages, reformulateWithHintMessages } from '../routing/prompts';
import { err, ok, type Result } from '../../result';
import { asFailure, cancelledError, type RunFailure } from './failure';
import type { RunContext } from './run';

/**
 * Logged when retrieval fails and the answer goes on without documentation context.
 * @internal
 */
export const logRetrievalFailed = (source: string, message: string): string =>
  `retrieval failed (${source}: ${message}) — answering without documentation context`;

/**
 * First meaningful line of a reformulation; the original query when the model gave nothing usable. Pure.
 * @internal
 */
export function cleanSearchQuery(text: string, fallback: string): string {
  const line =
    stripThinking(text)
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? '';
  const cleaned = line
    .replace(/^(search query|query)\s*:\s*/i, '')
    .replace(/^["'`]+|["'`]+$/g, '')
    .trim()
    .slice(0, 300);
  return cleaned || fallback;
}

/** The graph nodes one pass is timed as. */
export interface RetrievalPass {
  reformulate: string;
  retrieve: string;
  /** The relevance check found the first context insufficient: reformulate with that hint. */
  withHint: boolean;
}

export const FIRST_PASS: RetrievalPass = { reformulate: 'reformulate', retrieve: 'retrieve', withHint: false };
export const HINTED_PASS: RetrievalPass = {
  reformulate: 'reformulate_with_hint',
  retrieve: 'retrieve_retry',
  withHint: true,
};

/** One reformulation and retrieval of the request's query; sets the result's sources, retrieval state and mode. */
export async function reformulateAndRetrieve(
  run: RunContext,
  pass: RetrievalPass,
): Promise<Result<RetrievedContext, RunFailure>> {
  const { config, llm, logger, retrieval } = run.deps;
  const { result } = run;
  const query = run.request.query;
  const messages = pass.withHint ? reformulateWithHintMessages(query) : reformulateMessages(query);
  const rewritten = await run.timed(pass.reformulate, () =>
    llm.chat({ model: config.ollama.model, messages, signal: run.signal, maxTokens: 96 }),
  );
  if (!rewritten.ok) return err(asFailure(rewritten.error));
  const searchQuery = cleanSearchQuery(rewritten.value.text, query);
  (result.searchQueries ??= []).push(searchQuery);
  const found = await run.timed(pass.retrieve, () =>
    retrieval.retrieve(searchQuery, { topK: config.retrieval.topK, signal: run.signal }),
  );
  if (run.cancelled) return err(cancelledError());
  if (!found.ok) {
    if (found.error.code === 'cancelled') return err(cancelledError());
    logger.warn(logRetrievalFailed(retrieval.name, found.error.message));
    result.retrievalMode = 'none';
    result.retrieval = {
      status: 'degraded',
      reason: `retrieval failed (${retrieval.name}): ${found.error.message}`,
    };
    result.sources = [];
    return ok({ chunks: [], mode: 'none' });
  }
  result.retrievalMode = found.value.mode;
  result.retrieval = { status: 'ok' };
  if (found.value.fallback) result.retrievalFallback = found.value.fallback;
  result.sources = found.value.chunks.map((c) => ({ id: c.id, title: c.title, score: c.score }));
  return found;
}

/**
 * Few-shot selection for code generation (docs/design.md D2: the top K by similarity):
 * the K validated pool examples whose embeddings are closest (cosine) to the
 * request's, ties by id — deterministic for a given model. The pool's vectors
 * are computed once per corpus fingerprint and embedding model and cached in
 * a file under the cache directory; a different fingerprint or model is a
 * different file, and a file that does not match what it claims is ignored
 * and rewritten.
 *
 * Without a working embedding model (none configured, the model missing, a
 * failed call) the selection falls back to the lexical selector (BM25) and
 * says so: `selection: 'lexical'` with the reason. Never throws.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FewShotSelectionKind } from '../types';
import { silentLogger, type Logger } from '../ports';
import type { EmbedFn } from '../retrieval/embedded';
import { cosine } from '../retrieval/rrf';
import type { FewShotExample } from '../routing/prompts';
import { fail, ok, type Failure, type Result } from '../../result';

/** What selection needs of a pool example (the knowledge library's PoolExample satisfies it). */
export interface PoolExampleLike {
  id: string;
  description: string;
  code: string;
  commands?: readonly string[];
  /** The divergences from AVAP Lite the example depends on (shown with it in the prompt). */
  divergences?: readonly string[];
}

export interface FewShotSelection {
  examples: FewShotExample[];
  selection: FewShotSelectionKind;
  /** Why the selection is lexical. */
  detail?: string;
}

export type FewShotSelector = (request: string, k: number, signal?: AbortSignal) => Promise<FewShotSelection>;

export interface FewShotSelectorOptions {
  pool: readonly PoolExampleLike[];
  /** The lexical selector (BM25 over description, commands and code): the fallback. */
  lexical: (
    request: string,
    k: number,
  ) => readonly { description: string; code: string; divergences?: readonly string[] }[];
  /** Absent: no embedding model, every selection is lexical. */
  embed?: EmbedFn;
  /** The embedding model (part of the cache key). */
  model: string;
  /** Content version of the corpus the pool belongs to (part of the cache key). */
  fingerprint: string;
  /** Directory for the vector cache; absent = vectors are kept in memory only. */
  cacheDir?: string;
  /** Texts per embedding request. Default 32. */
  batchSize?: number;
  logger?: Logger;
}

const FEW_SHOT_CACHE_VERSION = 1;
/** Sub-directory of the cache directory that holds the pool vectors. */
const FEW_SHOT_CACHE_SUBDIR = 'few-shot';

interface CacheFile {
  cacheVersion: number;
  fingerprint: string;
  model: string;
  ids: string[];
  vectors: number[][];
}

/** A pool example as the prompt shows it. */
function fewShotExample(e: { description: string; code: string; divergences?: readonly string[] }): FewShotExample {
  return { request: e.description, code: e.code, ...(e.divergences?.length ? { divergences: e.divergences } : {}) };
}

/**
 * The text embedded for a pool example: what it does and the commands it uses (requests are prose).
 * @internal
 */
export function exampleEmbeddingText(example: PoolExampleLike): string {
  return example.commands?.length
    ? `${example.description}\nCommands: ${example.commands.join(', ')}`
    : example.description;
}

/**
 * The cache file of a fingerprint and model: both in the name (the model made file-safe, plus a hash of it).
 * @internal
 */
export function fewShotCacheFile(cacheDir: string, fingerprint: string, model: string): string {
  const safe = model.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60);
  const hash = createHash('sha256').update(model).digest('hex').slice(0, 8);
  return path.join(
    cacheDir,
    FEW_SHOT_CACHE_SUBDIR,
    `pool-${fingerprint.replace(/[^A-Za-z0-9]/g, '')}-${safe}-${hash}.json`,
  );
}

/**
 * The cached vectors when the file is for this fingerprint, model and pool; undefined otherwise. Pure.
 * @internal
 */
export function readCache(
  text: string,
  fingerprint: string,
  model: string,
  ids: readonly string[],
): number[][] | undefined {
  let data: Partial<CacheFile>;
  try {
    data = JSON.parse(text) as Partial<CacheFile>;
  } catch {
    return undefined;
  }
  if (data.cacheVersion !== FEW_SHOT_CACHE_VERSION || data.fingerprint !== fingerprint || data.model !== model)
    return undefined;
  if (!Array.isArray(data.ids) || data.ids.length !== ids.length || data.ids.some((id, i) => id !== ids[i]))
    return undefined;
  const vectors = data.vectors;
  if (!Array.isArray(vectors) || vectors.length !== ids.length) return undefined;
  const dims = Array.isArray(vectors[0]) ? vectors[0].length : 0;
  const sound =
    dims > 0 &&
    vectors.every(
      (v) => Array.isArray(v) && v.length === dims && v.every((x) => typeof x === 'number' && Number.isFinite(x)),
    );
  return sound ? vectors : undefined;
}

/**
 * The top-`k` ids by cosine similarity to `query`, ties by id. Pure.
 * @internal
 */
export function nearest(
  query: readonly number[],
  ids: readonly string[],
  vectors: readonly (readonly number[])[],
  k: number,
): string[] {
  const n = Math.max(0, Math.trunc(k));
  return ids
    .map((id, i) => ({ id, s: cosine(query, vectors[i] ?? []) }))
    .sort((a, b) => b.s - a.s || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, n)
    .map((x) => x.id);
}

/** The pool's vectors, or why the selection falls back to lexical (the message is the flagged reason). */
type PoolVectors = Result<number[][], Failure<'embedding-failed'>>;

export function createFewShotSelector(options: FewShotSelectorOptions): FewShotSelector {
  const logger = options.logger ?? silentLogger;
  const byId = new Map<string, PoolExampleLike>();
  for (const e of options.pool) if (!byId.has(e.id)) byId.set(e.id, e);
  const ids = [...byId.keys()];
  const file = options.cacheDir ? fewShotCacheFile(options.cacheDir, options.fingerprint, options.model) : undefined;
  let loading: Promise<PoolVectors> | undefined;
  /** A reason that will not change (no model configured, model missing): no point asking again. */
  let permanent: string | undefined = !options.embed
    ? 'no embedding model is configured'
    : ids.length === 0
      ? 'there is no example pool to embed'
      : undefined;

  const lexical = (request: string, k: number, detail: string): FewShotSelection => ({
    examples: options.lexical(request, k).map(fewShotExample),
    selection: 'lexical',
    detail,
  });

  async function fromCache(): Promise<number[][] | undefined> {
    if (!file) return undefined;
    try {
      return readCache(await readFile(file, 'utf8'), options.fingerprint, options.model, ids);
    } catch {
      return undefined; // absent or unreadable: computed again
    }
  }

  async function toCache(vectors: number[][]): Promise<void> {
    if (!file) return;
    const dir = path.dirname(file);
    try {
      await mkdir(dir, { recursive: true });
      // Vectors of another corpus can never match again: remove them.
      for (const name of await readdir(dir)) {
        if (name.startsWith('pool-') && !name.startsWith(`pool-${options.fingerprint.replace(/[^A-Za-z0-9]/g, '')}-`))
          await rm(path.join(dir, name), { force: true });
      }
      const body: CacheFile = {
        cacheVersion: FEW_SHOT_CACHE_VERSION,
        fingerprint: options.fingerprint,
        model: options.model,
        ids,
        vectors,
      };
      const tmp = `${file}.tmp-${process.pid}`;
      await writeFile(tmp, `${JSON.stringify(body)}\n`);
      await rename(tmp, file);
    } catch (err) {
      logger.warn(`few-shot: cannot cache the pool vectors in ${file} (${(err as Error).message}) — kept in memory`);
    }
  }

  async function computeVectors(embed: EmbedFn, signal?: AbortSignal): Promise<PoolVectors> {
    const cached = await fromCache();
    if (cached) {
      logger.info(`few-shot: ${ids.length} pool vectors (${options.model}) read from ${file}`);
      return ok(cached);
    }
    const vectors: number[][] = [];
    const size = options.batchSize ?? 32;
    for (let i = 0; i < ids.length; i += size) {
      const batch = ids.slice(i, i + size).map((id) => exampleEmbeddingText(byId.get(id) as PoolExampleLike));
      const result = await embed(batch, signal);
      if (!result.ok) {
        const reason = `the embedding model ${options.model} failed on the example pool (${result.error.code}: ${result.error.message})`;
        if (result.error.code === 'model-missing') permanent = reason;
        return fail('embedding-failed', reason);
      }
      if (result.value.length !== batch.length)
        return fail(
          'embedding-failed',
          `the embedding model ${options.model} returned ${result.value.length} vectors for ${batch.length} examples`,
        );
      vectors.push(...result.value);
    }
    await toCache(vectors);
    logger.info(
      `few-shot: ${ids.length} pool vectors computed with ${options.model}${file ? ` and cached in ${file}` : ''}`,
    );
    return ok(vectors);
  }

  function poolVectors(embed: EmbedFn, signal?: AbortSignal): Promise<PoolVectors> {
    const current = loading ?? computeVectors(embed, signal);
    loading = current;
    // A failure is not kept: the next request tries again (unless the reason is permanent).
    void current.then((v) => {
      if (!v.ok && loading === current) loading = undefined;
    });
    return current;
  }

  return async (request, k, signal) => {
    const embed = options.embed;
    if (permanent || !embed) return lexical(request, k, permanent ?? 'no embedding model is configured');
    const pool = await poolVectors(embed, signal);
    if (!pool.ok) return lexical(request, k, pool.error.message);
    const query = await embed([request], signal);
    if (!query.ok || !query.value[0]) {
      return lexical(
        request,
        k,
        query.ok
          ? 'the embedding model returned no vector for the request'
          : `the embedding model ${options.model} could not embed the request (${query.error.code}: ${query.error.message})`,
      );
    }
    const chosen = nearest(query.value[0], ids, pool.value, k);
    return {
      examples: chosen.map((id) => byId.get(id) as PoolExampleLike).map(fewShotExample),
      selection: 'embedding',
    };
  };
}

/**
 * Where the shipped knowledge base lives. The `knowledge/` folder sits at the
 * repository (and extension package) root, so it is found next to the bundles
 * (`dist/*.js` → `dist/../knowledge`) or from the TypeScript sources
 * (`src/knowledge` → `src/knowledge/../../knowledge`).
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fail, ok, type LoadResult } from './types';

/** A file every knowledge directory holds; used to recognise one. */
const KNOWLEDGE_MARKER = path.join('examples', 'pool.json');

/**
 * Directories tried, in order, when no explicit directory is given.
 * @internal
 */
export function knowledgeCandidates(baseDir: string = __dirname): string[] {
  return [
    path.join(baseDir, 'knowledge'),
    path.join(baseDir, '..', 'knowledge'),
    path.join(baseDir, '..', '..', 'knowledge'),
  ];
}

function isKnowledgeDir(dir: string): boolean {
  try {
    return statSync(dir).isDirectory() && existsSync(path.join(dir, KNOWLEDGE_MARKER));
  } catch {
    return false;
  }
}

/**
 * Resolves the knowledge directory. An explicit `dir` (e.g. from a setting or
 * the `AVAP_KNOWLEDGE_DIR` environment variable, which the caller reads) is
 * checked and used as is; otherwise the candidates relative to this module are
 * tried. Never throws.
 */
export function knowledgeDirectory(dir?: string, baseDir: string = __dirname): LoadResult<string> {
  if (dir !== undefined && dir !== '') {
    const resolved = path.resolve(dir);
    if (isKnowledgeDir(resolved)) return ok(resolved);
    return fail('not-found', `not a knowledge directory (no ${KNOWLEDGE_MARKER}): ${resolved}`, resolved);
  }
  const candidates = knowledgeCandidates(baseDir);
  for (const candidate of candidates) {
    if (isKnowledgeDir(candidate)) return ok(path.resolve(candidate));
  }
  return fail(
    'not-found',
    `knowledge directory not found (looked in ${candidates.map((c) => path.resolve(c)).join(', ')})`,
    path.resolve(baseDir),
  );
}

import assert from 'node:assert/strict';
import { renderTrace, validateAvap } from '../../../src/parser';
import { knowledgeDirectory, type LoadResult } from '../../../src/knowledge';

/** The repository's knowledge directory (fails the test when it cannot be found). */
export function repoKnowledgeDir(): string {
  const dir = knowledgeDirectory();
  assert.ok(dir.ok, dir.ok ? '' : dir.error.message);
  return dir.value;
}

export function unwrap<T>(result: LoadResult<T>): T {
  if (!result.ok) assert.fail(`${result.error.message}\n${(result.error.details ?? []).join('\n')}`);
  return result.value;
}

/** Asserts that AVAP code is valid and has no findings at all (not even warnings). */
export function assertCleanAvap(code: string, where: string): void {
  const result = validateAvap(code);
  assert.ok(result.valid, `${where} is not VALID:\n${renderTrace(result.trace)}\n---\n${code}`);
  assert.equal(result.trace.length, 0, `${where} has warnings:\n${renderTrace(result.trace)}\n---\n${code}`);
}

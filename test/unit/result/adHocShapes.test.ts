/**
 * Keeps new ad-hoc `{ ok: true; … } | { ok: false; … }` result shapes out of
 * src/: results that cross a module boundary are `Result<T, E>` from
 * src/result (ARCHITECTURE.md, "Errors as data"). The scan looks for an `ok`
 * member declared in a type (`ok: true;`, `ok: false }`, `ok: boolean;` …),
 * not for values built with literals. The shapes that remain are listed with
 * why each is not the Result type; a new one fails here until it is converted
 * or listed with its reason.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(__dirname, '..', '..', '..', 'src');

/** An `ok` member in a type: followed by `;`, or the last member of a type literal before `|` or `>`. */
const DECLARED_OK = /\bok\??:\s*(?:true|false|boolean)\s*(?:;|\}\s*[|>])/g;

/** File → how many `ok` members (one per branch of a union) it may declare, and why they are not the Result type. */
const ALLOWED: Record<string, { count: number; why: string }> = {
  'quality/port.ts': { count: 2, why: 'QualityVerdictRecord: the verdict as written out (REST quality.attempts[].verdict, training signals) — a wire format kept as it was' },
  'core/pipeline/graph.ts': { count: 4, why: 'private methods of the pipeline run' },
  'core/assistant.ts': { count: 2, why: 'a private helper of the assistant factory' },
  'core/retrieval/embedded.ts': { count: 2, why: 'VectorTable: private to the embedded index' },
  'core/fewShot/selector.ts': { count: 2, why: 'PoolVectors: private to the few-shot selector' },
  'cli/commands/validate.ts': { count: 2, why: "Validator: private to the validate command (in-process or the service's answer)" },
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return sources(full);
    return d.name.endsWith('.ts') ? [full] : [];
  });
}

describe('result: no ad-hoc ok/error shapes outside src/result', () => {
  const found = new Map<string, number>();
  for (const file of sources(SRC)) {
    const relative = path.relative(SRC, file).split(path.sep).join('/');
    if (relative.startsWith('result/')) continue;
    const count = readFileSync(file, 'utf8').match(DECLARED_OK)?.length ?? 0;
    if (count) found.set(relative, count);
  }

  it('declares no new { ok: … } result shape (use Result<T, E> from src/result, or list it here with its reason)', () => {
    const unexpected = [...found].filter(([file, count]) => count > (ALLOWED[file]?.count ?? 0)).map(([file, count]) => `${file}: ${count}`);
    assert.deepEqual(unexpected, [], `ad-hoc result shapes: ${unexpected.join(', ')}`);
  });

  it('lists only shapes that still exist (a converted one leaves the list)', () => {
    const stale = Object.entries(ALLOWED).filter(([file, { count }]) => (found.get(file) ?? 0) < count).map(([file]) => file);
    assert.deepEqual(stale, []);
  });

  it('recognises a declared shape and ignores a Result built with literals', () => {
    const scan = (text: string) => text.match(DECLARED_OK)?.length ?? 0;
    assert.equal(scan('type X = { ok: true; value: T } | { ok: false; error: string };'), 2);
    assert.equal(scan('function f(): { ok: true } | { ok: false; bad: string } {'), 2);
    assert.equal(scan('export type R = { ok: boolean; reason?: string };'), 1);
    assert.equal(scan("return { ok: false, error: { code: 'cancelled', message } };"), 0);
    assert.equal(scan('const done = { ok: true };'), 0);
  });
});

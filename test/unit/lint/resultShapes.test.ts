/**
 * One result type across module boundaries: `Result<T, E>` from src/result. A
 * success/failure shape spelled by hand — `{ ok: true; … } | { ok: false; … }`
 * in a type, or the same keyed on `valid:` — is a second way to do the same
 * thing; this test finds every one in src/ and fails on any that is not listed
 * below with the reason it is not the Result type.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(__dirname, '..', '..', '..', 'src');

/** Hand-written `ok:` shapes that stay, by file, with why. */
const ALLOWED: Record<string, string> = {
  // A hinted retry has three outcomes, not two: made, not made because the request's one retry cycle is spent
  // (D1 RC-08: a budget decision, not an error), or failed. Folding `skipped` into the error would make callers tell
  // a rule from a failure by looking inside the error.
  'core/types.ts': 'AnswerRetryOutcome: made | skipped (D1 RC-08) | failed',
  'quality/gate.ts': 'Regenerate: the same three outcomes as AnswerRetryOutcome',
  // The record written out (REST's quality.attempts[].verdict, the training signal): a wire shape clients read;
  // in-process code uses QualityVerdict (a Result) and maps it with verdictRecord().
  'quality/port.ts': 'QualityVerdictRecord: the JSON shape of a verdict',
  // Keyed on `valid:`. A parser verdict is not a success or a failure: invalid code is a validation that succeeded.
  'parser/types.ts': 'ValidationResult.valid: the verdict on the code (the trace says why), not whether it ran',
  // The same verdict on the wire: the JSON of `validate --json` and REST, and the gRPC message.
  'protocol/validationJson.ts': 'ValidationJson.valid: the JSON form of a verdict clients read',
  'protocol/parserProto.ts': 'WireValidateResponse.valid: the gRPC message as the .proto defines it',
  // Input that breaks its contract is answered {valid: false, error, suggestions}, handed verbatim to the model or
  // HTTP client that sent it (docs/design.md D5); preValidate returns that shape so no caller can compact it into
  // something success-shaped. The language-model tools answer with the same type (tools/execute.ts, InvalidInput).
  'inputContract/inputContract.ts': 'PreValidation / InvalidInput: the invalid-input answer sent verbatim',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/**
 * `ok: true;`, `ok: false;` or `ok: boolean;` — and the same keyed on `valid:` — a member of a type literal (a value
 * is followed by `,` or `}`).
 */
const HAND_WRITTEN = /\b(?:ok|valid):\s*(?:true|false|boolean)\s*;/;

describe('lint: one result type', () => {
  it('src/ spells no success/failure shape of its own outside src/result, except the listed ones', () => {
    const found = new Map<string, number[]>();
    for (const file of sourceFiles(SRC)) {
      const relative = path.relative(SRC, file).split(path.sep).join('/');
      if (relative.startsWith('result/')) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (HAND_WRITTEN.test(line)) found.set(relative, [...(found.get(relative) ?? []), i + 1]);
        });
    }
    const unexpected = [...found]
      .filter(([file]) => !(file in ALLOWED))
      .map(([file, lines]) => `src/${file}:${lines.join(',')}`);
    assert.deepEqual(unexpected, [], 'use Result<T, E> from src/result (or list the shape here with its reason)');
    const stale = Object.keys(ALLOWED).filter((file) => !found.has(file));
    assert.deepEqual(stale, [], 'these allowed shapes are gone: remove them from the list');
  });

  it('the check sees a hand-written shape, and not a value', () => {
    assert.ok(HAND_WRITTEN.test('type R = { ok: true; value: T } | { ok: false; error: string };'));
    assert.ok(HAND_WRITTEN.test('  ok: boolean;'));
    assert.ok(!HAND_WRITTEN.test('return { ok: true, value };'));
    assert.ok(!HAND_WRITTEN.test("const r = { ok: false, error: 'x' }"));
    assert.ok(HAND_WRITTEN.test('type V<T> = { valid: true; value: T } | { valid: false; error: string };'));
    assert.ok(HAND_WRITTEN.test('  valid: boolean;'));
    assert.ok(!HAND_WRITTEN.test('return { valid: false, error, suggestions };'));
  });
});

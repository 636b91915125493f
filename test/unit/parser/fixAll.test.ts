import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fixAll, hasAutoFixes, minimalEdit, validateAvap, type OffsetEdit } from '../../../src/parser';

const apply = (text: string, edit: OffsetEdit | undefined) =>
  edit ? text.slice(0, edit.start) + edit.newText + text.slice(edit.end) : text;

/** Three errors with proven fixes (an invented command, a Python loop, a statement terminator) and a line no fix touches. */
const FIXABLE =
  'addParam(password, p)\ngetSHA256(p, h)\nfor i in range(1, 6):\n    addResult(h)\naddVar(x, 1);\naddResult(x)\n';

describe('parser: Fix All as one edit', () => {
  it('applies every proven fix in one replacement, and the result is re-validated', async () => {
    const before = validateAvap(FIXABLE);
    assert.equal(before.valid, false);
    assert.ok(hasAutoFixes(before));
    let calls = 0;
    const fixed = await fixAll(
      FIXABLE,
      (text) => {
        calls++;
        return validateAvap(text);
      },
      { initial: before },
    );
    assert.ok(calls >= 1, 'the fixed text was validated again');
    assert.ok(fixed.edit);
    const after = apply(FIXABLE, fixed.edit);
    assert.equal(fixed.stop, 'valid');
    assert.equal(fixed.result?.valid, true);
    assert.equal(validateAvap(after).valid, true, after);
    assert.match(after, /encodeSHA256\(p, h\)/);
    assert.match(after, /startLoop\(i, 1, 5\)/);
    assert.doesNotMatch(after, /;/);
    assert.deepEqual(fixed.applied.map((a) => a.code).sort(), [...new Set(fixed.applied.map((a) => a.code))].sort());
    assert.ok(fixed.applied.length >= 3, JSON.stringify(fixed.applied));
    // The untouched first line is outside the edit.
    assert.ok(fixed.edit.start >= 'addParam(password, p)\n'.length);
  });

  it('no edit for valid code, for code without fixes, and when the parser gives no verdict', async () => {
    const valid = await fixAll('addParam(a, p)\naddResult(p)\n', (t) => validateAvap(t));
    assert.equal(valid.edit, undefined);
    assert.equal(valid.stop, 'valid');
    const noFix = 'addParam(x, p)\nconfirmPassword(p, h, ok)\n';
    assert.equal(hasAutoFixes(validateAvap(noFix)), false);
    const none = await fixAll(noFix, (t) => validateAvap(t));
    assert.equal(none.edit, undefined);
    assert.equal(none.stop, 'no-fixes');
    const down = await fixAll(FIXABLE, () => undefined);
    assert.equal(down.edit, undefined);
    assert.equal(down.stop, 'unavailable');
  });

  it('minimalEdit turns one text into the other and keeps the common ends', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), fc.string(), (prefix, a, b, suffix) => {
        const before = prefix + a + suffix;
        const after = prefix + b + suffix;
        const edit = minimalEdit(before, after);
        assert.equal(apply(before, edit), after);
        if (edit) assert.ok(edit.end - edit.start <= before.length);
      }),
      { numRuns: 300, seed: 13 },
    );
    assert.deepEqual(minimalEdit('a\r\nb', 'a\nb'), { start: 1, end: 3, newText: '\n' });
    assert.equal(minimalEdit('same', 'same'), undefined);
  });
});

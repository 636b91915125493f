import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { renderTrace, validateAvap } from '../../../src/parser';
import { catalogue } from '../../../src/parser';
import { INVALID_CASES } from './cases';
import { assertFollowsItsRule } from './ruleChecks';

const VALID_DIR = path.join(__dirname, '..', '..', 'corpus', 'valid');
const validFiles = readdirSync(VALID_DIR)
  .filter((f) => f.endsWith('.avap'))
  .sort();
const INVALID_DIR = path.join(__dirname, '..', '..', 'corpus', 'invalid');
const invalidFiles = readdirSync(INVALID_DIR)
  .filter((f) => f.endsWith('.avap'))
  .sort();

/** Files whose point is an accepted-with-warning construct (ruling 4). */
const EXPECTED_WARNINGS: Record<string, number> = { 'loop-closed-with-end.avap': 1 };

describe('parser: valid corpus', () => {
  it('has programs to check', () => assert.ok(validFiles.length >= 10));

  for (const file of validFiles) {
    it(`${file} is VALID`, () => {
      const result = validateAvap(readFileSync(path.join(VALID_DIR, file), 'utf8'));
      assert.equal(result.valid, true, renderTrace(result.trace));
      assert.equal(
        result.trace.filter((e) => e.severity === 'warning').length,
        EXPECTED_WARNINGS[file] ?? 0,
        renderTrace(result.trace),
      );
    });
  }

  it('uses every command of the catalogue at least once', () => {
    const text = validFiles.map((f) => readFileSync(path.join(VALID_DIR, f), 'utf8')).join('\n');
    const missing = catalogue.COMMANDS.map((c) => c.name).filter((name) => !new RegExp(`\\b${name}\\(`).test(text));
    assert.deepEqual(missing, []);
  });
});

describe('parser: failure programs', () => {
  for (const c of INVALID_CASES) {
    it(`${c.name}: INVALID on line ${c.line} as ${c.category}${c.suggestion ? ` → ${c.suggestion}` : ''}`, () => {
      const result = validateAvap(c.source);
      assert.equal(result.valid, false, `expected INVALID:\n${c.source}`);
      const errors = result.trace.filter((e) => e.severity === 'error');
      const hit = errors.find((e) => e.line === c.line && e.category === c.category);
      assert.ok(hit, `no ${c.category} error on line ${c.line}; got:\n${renderTrace(result.trace)}`);
      if (c.suggestion !== undefined) assert.equal(hit.suggestion, c.suggestion);
      if (c.message !== undefined) assert.ok(hit.message.includes(c.message), hit.message);
      for (const entry of result.trace) assertFollowsItsRule(entry);
      const sourceLine = c.source.split('\n')[c.line - 1] ?? '';
      assert.ok(
        hit.column >= 1 && hit.endColumn > hit.column && hit.endColumn <= sourceLine.length + 1,
        `range ${hit.column}-${hit.endColumn} outside "${sourceLine}"`,
      );
    });
  }

  it("names every hallucinated name's real equivalent; as the replacement only where the arguments keep their meaning", () => {
    const withEquivalent = catalogue.HALLUCINATIONS.filter((h) => h.equivalent && !h.structuralAs);
    assert.ok(withEquivalent.length >= 10);
    let replaced = 0;
    for (const h of withEquivalent) {
      const result = validateAvap(`addVar(a, 1)\n${h.name}(a, b)\n`);
      const hit = result.trace.find((e) => e.line === 2 && e.token === h.name);
      assert.ok(hit, `${h.name}: ${renderTrace(result.trace)}`);
      assert.equal(result.valid, false);
      assert.ok(hit.message.includes(`did you mean '${h.equivalent}'?`), hit.message);
      // Renaming keeps (a, b) meaning what they meant only when the catalogue says they are the equivalent's
      // first two parameters (generateToken(user, tok) is not randomString(length, target)).
      const params = catalogue.findCommand(h.equivalent ?? '')?.params.map((p) => p.name) ?? [];
      const kept = h.args !== undefined && h.args.length >= 2 && h.args[0] === params[0] && h.args[1] === params[1];
      if (kept || (h.args !== undefined && params.length === 2)) {
        assert.equal(hit.suggestion, h.equivalent, `${h.name}: ${hit.message}`);
        replaced++;
      } else {
        assert.equal(hit.suggestion, undefined, `${h.name}: a rename would be a guess — ${hit.message}`);
        // A rewrite is offered only where the catalogue maps the arguments (httpGet(a, b) → RequestGet(a, , , b)).
        if (h.args === undefined) assert.equal(hit.fix, undefined, `${h.name}: ${hit.fix?.title ?? ''}`);
        assert.ok(hit.message.includes(`it takes ${h.equivalent}(`), `${h.name}: ${hit.message}`);
      }
    }
    assert.ok(replaced >= 8, `only ${replaced} renames`);
  });

  it('reports every failing line of a program in one call', () => {
    const source = 'getSHA256(a, b)\nlet x = 1\nreturnResult(x)\nprint(x)\n';
    const lines = validateAvap(source)
      .trace.filter((e) => e.severity === 'error')
      .map((e) => e.line);
    assert.deepEqual([...new Set(lines)].sort(), [1, 2, 3, 4]);
  });
});

describe('parser: failure corpus', () => {
  it('has programs to check', () => assert.ok(invalidFiles.length >= 8));

  for (const file of invalidFiles) {
    it(`${file} is INVALID, every entry carries its rule's code, and the codes are the ones it expects`, () => {
      const source = readFileSync(path.join(INVALID_DIR, file), 'utf8');
      const result = validateAvap(source);
      assert.equal(result.valid, false);
      for (const entry of result.trace) assertFollowsItsRule(entry);
      const expected = /^\/\/ expect: (.+)$/m.exec(source)?.[1]?.split(' ') ?? [];
      assert.ok(expected.length > 0, `${file} needs a '// expect: code …' line`);
      assert.deepEqual(
        [...new Set(result.trace.map((e) => e.code))].sort(),
        expected.sort(),
        renderTrace(result.trace),
      );
    });
  }
});

/**
 * A proven fix must
 * not change what the program means. A rewrite whose arguments do not map
 * one-to-one, or that changes precedence, or that changes nothing at run time,
 * is advice in the message, never a fix.
 */
import assert from 'node:assert/strict';
import { applyTextEdits, renderTrace, validateAvap, type TraceEntry } from '../../../src/parser';

function only(source: string, code: string): TraceEntry {
  const hits = validateAvap(source).trace.filter((e) => e.code === code);
  assert.equal(hits.length, 1, `${code} in\n${source}\n${renderTrace(validateAvap(source).trace)}`);
  return hits[0] as TraceEntry;
}

function fixed(source: string, entry: TraceEntry): string {
  assert.ok(entry.fix, `no fix: ${entry.message}`);
  const after = applyTextEdits(source, entry.fix.edits);
  assert.ok(after !== undefined);
  return after;
}

describe('parser: proven fixes keep the meaning', () => {
  it("JavaScript's `!` before a comparison keeps its operand apart: (not a) == b, never not a == b", () => {
    const source = 'addVar(a, 1)\naddVar(b, 2)\nx = !a == b\naddResult(x)\n';
    const entry = only(source, 'foreign-operator');
    assert.equal(entry.suggestion, undefined, 'not a == b would mean not (a == b)');
    assert.equal(fixed(source, entry), 'addVar(a, 1)\naddVar(b, 2)\nx = (not a) == b\naddResult(x)\n');
    assert.match(entry.message, /keep the operand apart: \(not a\)/);
    const sum = 'addVar(a, 1)\nx = !a + 1\naddResult(x)\n';
    assert.equal(fixed(sum, only(sum, 'foreign-operator')), 'addVar(a, 1)\nx = (not a) + 1\naddResult(x)\n');
  });

  it('where nothing binds tighter after the operand, `!` is simply `not`', () => {
    for (const [source, expect] of [
      ['addVar(a, 1)\nx = !a\naddResult(x)\n', 'addVar(a, 1)\nx = not a\naddResult(x)\n'],
      ['addVar(a, 1)\nx = !a.ok\naddResult(x)\n', 'addVar(a, 1)\nx = not a.ok\naddResult(x)\n'],
    ] as const) {
      const entry = only(source, 'foreign-operator');
      assert.equal(entry.suggestion, 'not ');
      assert.equal(fixed(source, entry), expect);
    }
  });

  it('tok = generateToken(u) is not rewritten to randomString(u, tok): the equivalent is advice, with its signature', () => {
    const source = 'addParam(user, u)\ntok = generateToken(u)\naddResult(tok)\n';
    const entry = only(source, 'unknown-command');
    assert.equal(entry.fix, undefined, entry.fix?.title);
    assert.equal(entry.suggestion, undefined, 'renaming alone would make the user name the length');
    assert.match(entry.message, /did you mean 'randomString'\? — it takes randomString\(/);
  });

  it('invented names the catalogue maps one-to-one are still rewritten or renamed', () => {
    const hash = 'addParam(pwd, p)\nhashed = getSHA256(p)\naddResult(hashed)\n';
    assert.equal(
      fixed(hash, only(hash, 'unknown-command')),
      'addParam(pwd, p)\nencodeSHA256(p, hashed)\naddResult(hashed)\n',
    );
    const get = 'addVar(url, "https://a.example")\nr = httpGet(url)\naddResult(r)\n';
    assert.equal(
      fixed(get, only(get, 'unknown-command')),
      'addVar(url, "https://a.example")\nRequestGet(url, , , r)\naddResult(r)\n',
    );
    const rename = 'addVar(a, 1)\nsetVar(b, a)\naddResult(b)\n';
    assert.equal(only(rename, 'unknown-command').suggestion, 'addVar');
  });

  it('if (a + 1 > b) becomes the expression form: if(a, b, >) compares a name or a literal, not an expression', () => {
    const source = 'addVar(a, 1)\naddVar(b, 1)\nif(a + 1 > b)\n  addVar(c, 1)\nend()\naddResult(c)\n';
    const entry = only(source, 'if-expression');
    assert.equal(entry.suggestion, 'None, None, "a + 1 > b"');
    const plain = 'addVar(a, 1)\nif(a > 5)\n  addVar(c, 1)\nend()\naddResult(c)\n';
    assert.equal(only(plain, 'if-expression').suggestion, 'a, 5, >');
  });

  it('except ValueError is not a handler for every error: no fix; except / except Exception are', () => {
    const narrow = 'try:\n  addVar(a, 1)\nexcept ValueError:\n  addVar(a, 2)\naddResult(a)\n';
    assert.equal(only(narrow, 'foreign-try').fix, undefined);
    const broad = 'try:\n  addVar(a, 1)\nexcept:\n  addVar(a, 2)\naddResult(a)\n';
    assert.equal(
      fixed(broad, only(broad, 'foreign-try')),
      'try()\n  addVar(a, 1)\nexception()\n  addVar(a, 2)\nend()\naddResult(a)\n',
    );
  });

  it('addVar(ok, true) is fixed as ok = True: `ok = true` would keep the text "true" as well', () => {
    const source = 'addVar(ok, true)\naddResult(ok)\n';
    assert.equal(fixed(source, only(source, 'literal-stored-as-text')), 'ok = True\naddResult(ok)\n');
    const list = 'addVar(flags, [true, false])\naddResult(flags)\n';
    assert.equal(fixed(list, only(list, 'literal-stored-as-text')), 'flags = [True, False]\naddResult(flags)\n');
  });

  it('a key that names a variable is warned about with advice true under both sources, and no quoting "fix"', () => {
    const source = 'addParam(city, city)\nAddvariableToJSON(city, city, reply)\naddResult(reply)\n';
    const entry = only(source, 'key-names-variable');
    assert.equal(entry.fix, undefined);
    assert.match(entry.message, /the specification resolves it to that value; quoting the key does not change this/);
    assert.match(entry.message, /give the variable a name other than 'city'/);
    const param = 'addVar(field, "email")\naddParam(field, value)\naddResult(value)\n';
    assert.match(
      only(param, 'key-names-variable').message,
      /the reference implementation reads the parameter named 'field' as written: the two differ/,
    );
  });
});

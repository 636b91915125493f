/**
 * The semantic warnings: programs that parse and run but do
 * something other than what they say. Each rule has programs that must draw it
 * (on the right line, the program still valid, with a proven fix that removes
 * it — except the key rules, whose quoting "fix" changed nothing at run time
 * and is no longer offered: fact quoted-word-names-variable) and programs that must draw
 * nothing at all. Typographic quotes are the one error here: they change what
 * the program does.
 */
import assert from 'node:assert/strict';
import { applyTextEdits, renderTrace, validateAvap, type RuleCode } from '../../../src/parser';
import { assertFollowsItsRule } from './ruleChecks';

interface Trap {
  name: string;
  source: string;
  line: number;
  /** The flagged text on that line. */
  token: string;
  /** The program after the entry's fix. */
  fixed?: string;
}

/**
 * Rules with no fix: quoting a key changes nothing, because the reference
 * implementation strips quotes before a command sees its argument; the
 * message gives the advice true under both sources instead.
 */
const ADVICE_ONLY: ReadonlySet<RuleCode> = new Set<RuleCode>(['key-names-variable', 'key-overwritten-in-loop']);

function checkTrap(code: RuleCode, trap: Trap): void {
  const result = validateAvap(trap.source);
  const where = `${trap.name}:\n${trap.source}\n${renderTrace(result.trace)}`;
  const hits = result.trace.filter((e) => e.code === code);
  assert.equal(hits.length, 1, `one ${code} expected — ${where}`);
  const hit = hits[0] as NonNullable<(typeof hits)[number]>;
  assert.equal(hit.line, trap.line, where);
  const text = trap.source.split('\n')[hit.line - 1] ?? '';
  assert.equal(text.slice(hit.column - 1, hit.endColumn - 1), trap.token, where);
  for (const entry of result.trace) assertFollowsItsRule(entry);
  if (hit.severity === 'warning') {
    assert.equal(result.valid, true, `a warning never makes code invalid — ${where}`);
    assert.deepEqual(
      result.trace.filter((e) => e !== hit),
      [],
      `nothing else is reported — ${where}`,
    );
  } else {
    assert.equal(result.valid, false, where);
  }
  if (ADVICE_ONLY.has(code)) {
    assert.equal(hit.fix, undefined, `a fix that changes nothing at run time — ${where}`);
    assert.match(
      hit.message,
      /quoting the (key|parameter name) does not change this — give the variable a name other than/,
      where,
    );
    return;
  }
  assert.ok(hit.fix, `no fix — ${where}`);
  const after = applyTextEdits(trap.source, hit.fix.edits);
  assert.ok(after !== undefined, where);
  if (trap.fixed !== undefined) assert.equal(after, trap.fixed, where);
  const again = validateAvap(after);
  assert.equal(again.valid, true, `the fixed program is valid — ${after}\n${renderTrace(again.trace)}`);
  assert.deepEqual(again.trace, [], `the fixed program is silent — ${after}\n${renderTrace(again.trace)}`);
}

function checkSilent(source: string): void {
  const result = validateAvap(source);
  assert.equal(result.valid, true, `${source}\n${renderTrace(result.trace)}`);
  assert.deepEqual(
    result.trace.map((e) => `${e.line}: ${e.code}`),
    [],
    `${source}\n${renderTrace(result.trace)}`,
  );
}

const RULES: { code: RuleCode; traps: Trap[]; fine: string[] }[] = [
  {
    code: 'key-names-variable',
    traps: [
      {
        name: 'a JSON key that names the parameter just read',
        source: 'addParam(address, address)\nAddvariableToJSON(address, address, company)\naddResult(company)\n',
        line: 2,
        token: 'address',
      },
      {
        name: 'a lookup key that names a counter set by addVar',
        source:
          'addVar(count, 3)\normDirect("SELECT 1", rows)\nitemFromList(rows, 0, row)\nvariableFromJSON(row, count, n)\naddResult(n)\n',
        line: 4,
        token: 'count',
      },
      {
        name: 'a request parameter name that names a variable (addParam resolves it)',
        source: 'addVar(field, "email")\naddParam(field, value)\naddResult(value)\n',
        line: 2,
        token: 'field',
      },
      {
        name: 'a key that names the rows of a query (the orders summary trap)',
        source:
          'ormDirect("SELECT id FROM orders", orders)\ngetListLen(orders, count)\nAddvariableToJSON(orders, count, summary)\naddResult(summary)\n',
        line: 3,
        token: 'orders',
      },
      {
        name: 'a key that names a variable assigned by an expression, inside a function',
        source:
          'function tag(row) {\n  label = "x"\n  variableFromJSON(row, label, out)\n  return(out)\n}\nt = tag(1)\naddResult(t)\n',
        line: 3,
        token: 'label',
      },
      {
        name: 'a key that names the error variable of an earlier handler, in an if() body',
        source:
          'try()\n  RequestGet("https://a.example", , , r)\nexception(error)\n  addVar(failed, 1)\nend()\nif(failed, 1, =)\n  AddvariableToJSON(error, error, reply)\nend()\naddResult(reply)\n',
        line: 7,
        token: 'error',
      },
      {
        name: 'a key that names a variable whose target was quoted',
        source: 'addVar("status", 1)\nAddvariableToJSON(status, 2, reply)\naddResult(reply)\n',
        line: 2,
        token: 'status',
      },
    ],
    fine: [
      'addParam(address, address)\nAddvariableToJSON("address", address, company)\naddResult(company)\n',
      "addParam(address, address)\nAddvariableToJSON('address', address, company)\naddResult(company)\n",
      'addParam(field, field)\nAddvariableToJSON(`${field}`, 1, counts)\naddResult(counts)\n',
      // Assigned only after the key is used, outside any loop: the key is still the text.
      'AddvariableToJSON(total, 1, reply)\naddVar(total, 2)\naddResult(reply)\n',
      // The statement's own target is written after its key is read.
      'ormDirect("SELECT 1", rows)\nitemFromList(rows, 0, row)\nvariableFromJSON(row, email, email)\naddResult(email)\n',
      // A function parameter used as a key means its value.
      'function field(obj, key) {\n  variableFromJSON(obj, key, value)\n  return(value)\n}\nv = field(1, "a")\naddResult(v)\n',
      // Scopes: a top-level variable is not a bare name inside a function body, nor a function's local at the top level.
      'addVar(k, 1)\nfunction f(o) {\n  variableFromJSON(o, k, v)\n  return(v)\n}\nr = f(1)\naddResult(r)\n',
      'function g(o) {\n  name = 1\n  return(o)\n}\nAddvariableToJSON(name, 1, reply)\naddResult(reply)\n',
      // Values (not keys) that name variables are meant as variables.
      'addVar(a, 1)\naddVar(b, a)\nAddvariableToJSON("a", a, reply)\naddResult(reply)\n',
      // None is not a variable name.
      'x = None\nAddvariableToJSON(None, 1, r)\naddResult(r)\n',
    ],
  },
  {
    code: 'key-overwritten-in-loop',
    traps: [
      {
        name: 'variableFromJSON(row, email, email) inside startLoop',
        source:
          'ormDirect("SELECT email FROM users", rows)\ngetListLen(rows, n)\nlast = n - 1\nstartLoop(i, 0, last)\n  itemFromList(rows, i, row)\n' +
          '  variableFromJSON(row, email, email)\n  variableToList(email, emails)\nendLoop()\naddResult(emails)\n',
        line: 6,
        token: 'email',
      },
      {
        name: 'a key assigned later in the same loop body',
        source: 'startLoop(i, 1, 3)\n  AddvariableToJSON(sku, i, stock)\n  sku = i * 10\nendLoop()\naddResult(stock)\n',
        line: 2,
        token: 'sku',
      },
      {
        name: "an inner loop's key assigned by the outer loop after the inner one",
        source:
          'startLoop(i, 1, 2)\n  startLoop(j, 1, 2)\n    variableFromJSON(row, id, found)\n  endLoop()\n  id = found\nendLoop()\naddResult(found)\n',
        line: 3,
        token: 'id',
      },
      {
        name: 'a loop inside a function',
        source:
          'function walk(rows) {\n  startLoop(i, 0, 1)\n    itemFromList(rows, i, row)\n    variableFromJSON(row, code, code)\n  endLoop()\n  return(code)\n}\nc = walk(1)\naddResult(c)\n',
        line: 4,
        token: 'code',
      },
    ],
    fine: [
      'startLoop(i, 0, 1)\n  variableFromJSON(row, "email", email)\nendLoop()\naddResult(email)\n',
      // Assigned only after the loop has ended.
      'startLoop(i, 0, 1)\n  variableFromJSON(row, email, found)\nendLoop()\naddVar(email, 1)\naddResult(found)\n',
      // A loop closed with end() is still a loop, but this one reads a quoted key (only the end() warning would show).
      'startLoop(i, 0, 1)\n  AddvariableToJSON("n", i, out)\nendLoop()\naddResult(out)\n',
    ],
  },
  {
    code: 'literal-stored-as-text',
    traps: [
      {
        name: 'an empty list',
        source: 'addVar(rows, [])\naddResult(rows)\n',
        line: 1,
        token: '[]',
        fixed: 'rows = []\naddResult(rows)\n',
      },
      {
        name: 'an empty dict, indented',
        source: 'try()\n  addVar(cfg, {})\nexception(e)\n  addVar(cfg, 1)\nend()\naddResult(cfg)\n',
        line: 2,
        token: '{}',
        fixed: 'try()\n  cfg = {}\nexception(e)\n  addVar(cfg, 1)\nend()\naddResult(cfg)\n',
      },
      {
        name: 'None',
        source: 'addVar(result, None)\naddResult(result)\n',
        line: 1,
        token: 'None',
        fixed: 'result = None\naddResult(result)\n',
      },
      {
        name: 'True',
        source: 'addVar(done, True)\naddResult(done)\n',
        line: 1,
        token: 'True',
        fixed: 'done = True\naddResult(done)\n',
      },
      {
        name: 'false',
        source: 'addVar(ok, false)\naddResult(ok)\n',
        line: 1,
        token: 'false',
        // `ok = false` would store the text "false" as well (the reference's assignment keeps an unknown name as text).
        fixed: 'ok = False\naddResult(ok)\n',
      },
      {
        name: "another language's null (assigned as None)",
        source: 'addVar(owner, null)\naddResult(owner)\n',
        line: 1,
        token: 'null',
        fixed: 'owner = None\naddResult(owner)\n',
      },
      {
        name: 'a list of literals',
        source: 'addVar(ids, [1, 2, "x"])\naddResult(ids)\n',
        line: 1,
        token: '[1, 2, "x"]',
      },
      {
        name: 'a nested dict literal, quoted target',
        source: 'addVar("payload", {"user": "ana", "tags": ["a", None]})\naddResult(payload)\n',
        line: 1,
        token: '{"user": "ana", "tags": ["a", None]}',
        fixed: 'payload = {"user": "ana", "tags": ["a", None]}\naddResult(payload)\n',
      },
    ],
    fine: [
      'rows = []\ncfg = {}\nnothing = None\nflag = True\naddResult(rows)\n',
      'addVar(label, "[]")\naddVar(word, "None")\naddVar(n, 0)\naddVar(f, 1.5)\naddResult(label)\n',
      // Text by intent: a regex class, a bracketed word, a dict with bare keys, an expression around a list.
      'addVar(alphabet, [A-Za-z0-9])\naddVar(tag, [draft])\naddVar(d, {a: 1})\naddResult(alphabet)\n',
      'addVar(a, 1)\naddVar(b, a)\naddResult(b)\n',
    ],
  },
  {
    code: 'typographic-quote',
    traps: [
      {
        name: 'a chat model’s “…” around a parameter name',
        source: 'addParam(\u201Cpassword\u201D, pwd)\naddResult(pwd)\n',
        line: 1,
        token: '\u201Cpassword\u201D',
        fixed: 'addParam("password", pwd)\naddResult(pwd)\n',
      },
      {
        name: '‘…’ around a value',
        source: 'addVar(msg, \u2018hello\u2019)\naddResult(msg)\n',
        line: 1,
        token: '\u2018hello\u2019',
        fixed: "addVar(msg, 'hello')\naddResult(msg)\n",
      },
      {
        name: 'a “…” closed by an ASCII quote, in an assignment',
        source: 'addVar(a, 1)\nx = \u201Cok"\naddResult(x)\n',
        line: 2,
        token: '\u201Cok"',
        fixed: 'addVar(a, 1)\nx = "ok"\naddResult(x)\n',
      },
      {
        name: '“…” holding a double quote: straightened to single quotes',
        source: 'addVar(msg, \u201Csay "hi"\u201D)\naddResult(msg)\n',
        line: 1,
        token: '\u201Csay "hi"\u201D',
        fixed: 'addVar(msg, \'say "hi"\')\naddResult(msg)\n',
      },
    ],
    fine: [
      'addVar(msg, "It\u2019s \u201Cfine\u201D")\n// \u201Ccomment\u201D\naddResult(msg)\n',
      'addVar(msg, It\u2019s done)\naddVar(size, 5\u201D)\naddResult(msg)\n',
      'addVar(t, `x \u201Cy\u201D`)\naddResult(t)\n',
    ],
  },
];

describe('parser: semantic warnings and typographic quotes', () => {
  for (const { code, traps, fine } of RULES) {
    describe(code, () => {
      const outcome = ADVICE_ONLY.has(code) ? 'with advice, no fix' : 'with a proven fix';
      for (const trap of traps) it(`reports ${trap.name}, on its line, ${outcome}`, () => checkTrap(code, trap));
      it('stays silent on programs that do what they say', () => {
        for (const source of fine) checkSilent(source);
      });
    });
  }

  it('warns on every trap in one program, each on its own line, and the program stays valid', () => {
    const source =
      'addParam(city, city)\naddVar(rows, [])\nAddvariableToJSON(city, city, reply)\nstartLoop(i, 0, 1)\n  variableFromJSON(reply, code, code)\nendLoop()\naddResult(reply)\n';
    const result = validateAvap(source);
    assert.equal(result.valid, true);
    assert.deepEqual(
      result.trace.map((e) => [e.line, e.code, e.severity, e.fix !== undefined]),
      [
        [2, 'literal-stored-as-text', 'warning', true],
        [3, 'key-names-variable', 'warning', false],
        [5, 'key-overwritten-in-loop', 'warning', false],
      ],
    );
  });
});

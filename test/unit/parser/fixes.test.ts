import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import {
  applyTextEdits,
  catalogue,
  DEFAULT_MAX_FIX_PROOFS,
  renderTrace,
  repairWithFixes,
  validateAvap,
  type TraceEntry,
  type ValidationResult,
} from '../../../src/parser';

const CORPUS = path.join(__dirname, '..', '..', 'corpus');
const read = (dir: string) =>
  readdirSync(path.join(CORPUS, dir))
    .filter((f) => f.endsWith('.avap'))
    .sort()
    .map((f) => ({ name: `${dir}/${f}`, source: readFileSync(path.join(CORPUS, dir, f), 'utf8') }));

const errors = (r: ValidationResult) => r.trace.filter((e) => e.severity === 'error').length;

/**
 * What a proven fix promises, checked from the outside: its edits fit the text
 * and do not overlap, and the fixed program has at least one finding fewer and
 * no error more (one fewer when the finding was an error).
 */
function assertProven(source: string, before: ValidationResult, entry: TraceEntry): string {
  const where = `${entry.code} on line ${entry.line} (${entry.fix?.title}) in:\n${source}`;
  assert.ok(entry.fix && entry.fix.edits.length > 0, where);
  for (const [a, b] of entry.fix.edits.slice(1).map((e, i) => [entry.fix?.edits[i], e] as const)) {
    assert.ok(
      a && (b.line > a.endLine || (b.line === a.endLine && b.column >= a.endColumn)),
      `edits in order, not overlapping: ${where}`,
    );
  }
  const fixed = applyTextEdits(source, entry.fix.edits);
  assert.ok(fixed !== undefined, `edits fit the text: ${where}`);
  const after = validateAvap(fixed, { maxFixProofs: 0 });
  assert.ok(
    after.trace.length < before.trace.length,
    `a finding fewer: ${where}\n→\n${fixed}\n${renderTrace(after.trace)}`,
  );
  assert.ok(
    errors(after) <= errors(before) - (entry.severity === 'error' ? 1 : 0),
    `no new error: ${where}\n→\n${fixed}\n${renderTrace(after.trace)}`,
  );
  return fixed;
}

function assertEveryFixProven(source: string): ValidationResult {
  const result = validateAvap(source);
  for (const entry of result.trace) if (entry.fix) assertProven(source, result, entry);
  return result;
}

/** The one fix of the entry with `code` on `line`, applied. */
function fixed(source: string, code: string, line?: number): { text: string; title: string } {
  const result = validateAvap(source);
  const entry = result.trace.find((e) => e.code === code && (line === undefined || e.line === line));
  assert.ok(entry, `no ${code}${line ? ` on line ${line}` : ''}:\n${renderTrace(result.trace)}`);
  assert.ok(entry.fix, `${code} has no fix:\n${renderTrace(result.trace)}`);
  return { text: assertProven(source, result, entry), title: entry.fix.title };
}

describe('parser: proven fixes, case by case', () => {
  const cases: { name: string; source: string; code: string; line?: number; expect: string; title?: RegExp }[] = [
    {
      name: 'an invented reader with no target: readParam("name")',
      source: 'readParam("name")\naddResult(name)\n',
      code: 'unknown-command',
      expect: 'addParam("name", name)\naddResult(name)\n',
      title: /^Rewrite as 'addParam\("name", name\)'$/,
    },
    {
      name: 'an invented hash assigned: hashed = getSHA256(pwd)',
      source: 'addParam(pwd, pwd)\nhashed = getSHA256(pwd)\naddResult(hashed)\n',
      code: 'unknown-command',
      expect: 'addParam(pwd, pwd)\nencodeSHA256(pwd, hashed)\naddResult(hashed)\n',
    },
    {
      name: 'an invented GET: r = httpGet(url)',
      source: 'addVar(url, "https://a.example")\nr = httpGet(url)\naddResult(r)\n',
      code: 'unknown-command',
      expect: 'addVar(url, "https://a.example")\nRequestGet(url, , , r)\naddResult(r)\n',
    },
    {
      name: 'an invented POST with a body: httpPost(url, body) assigned',
      source: 'addVar(u, x)\naddVar(b, 1)\nr = httpPost(u, b)\naddResult(r)\n',
      code: 'unknown-command',
      expect: 'addVar(u, x)\naddVar(b, 1)\nRequestPost(u, , , b, r)\naddResult(r)\n',
    },
    {
      name: 'a rename where the arguments already fit: getSHA256(p, h)',
      source: 'addVar(p, 1)\ngetSHA256(p, h)\naddResult(h)\n',
      code: 'unknown-command',
      expect: 'addVar(p, 1)\nencodeSHA256(p, h)\naddResult(h)\n',
      title: /^Replace 'getSHA256' with 'encodeSHA256'$/,
    },
    {
      name: 'a real command missing its middle arguments: r = RequestGet(url)',
      source: 'addVar(url, x)\nr = RequestGet(url)\naddResult(r)\n',
      code: 'arity',
      expect: 'addVar(url, x)\nRequestGet(url, , , r)\naddResult(r)\n',
    },
    {
      name: 'addParam("page") without its target',
      source: 'addParam("page")\naddResult(page)\n',
      code: 'arity',
      expect: 'addParam("page", page)\naddResult(page)\n',
    },
    {
      name: 'a trailing ;',
      source: 'addVar(a, 1) ;\naddResult(a)\n',
      code: 'statement-terminator',
      expect: 'addVar(a, 1)\naddResult(a)\n',
    },
    {
      name: 'a ; between two statements',
      source: '  addVar(a, 1); addResult(a)\n',
      code: 'statement-terminator',
      expect: '  addVar(a, 1)\n  addResult(a)\n',
    },
    {
      name: 'if() never closed: end() where its indentation ends, after its else()',
      source: 'addVar(a, 1)\nif(a, 1, =)\n  addVar(b, 1)\nelse()\n  addVar(b, 2)\naddResult(b)\n',
      code: 'unclosed-block',
      expect: 'addVar(a, 1)\nif(a, 1, =)\n  addVar(b, 1)\nelse()\n  addVar(b, 2)\nend()\naddResult(b)\n',
    },
    {
      name: 'startLoop() never closed, at the end of the file without a final line break',
      source: 'startLoop(i, 1, 3)\n    addVar(x, i)',
      code: 'unclosed-block',
      expect: 'startLoop(i, 1, 3)\n    addVar(x, i)\nendLoop()',
    },
    {
      name: 'try() not closed before the loop around it ends',
      source:
        'startLoop(i, 1, 2)\n  try()\n    addVar(a, 1)\n  exception(e)\n    addVar(a, 2)\nendLoop()\naddResult(a)\n',
      code: 'unclosed-block',
      expect:
        'startLoop(i, 1, 2)\n  try()\n    addVar(a, 1)\n  exception(e)\n    addVar(a, 2)\n  end()\nendLoop()\naddResult(a)\n',
    },
    {
      name: 'a function body never closed',
      source: 'function f(a) {\n  return(a)\n\nx = f(1)\naddResult(x)\n',
      code: 'unclosed-block',
      expect: 'function f(a) {\n  return(a)\n}\n\nx = f(1)\naddResult(x)\n',
    },
    {
      name: 'if(…) { … } else { … }: braces dropped, else(), end()',
      source: 'addVar(a, 1)\nif(a, 1, =) {\n  addVar(b, 1)\n} else {\n  addVar(b, 2)\n}\naddResult(b)\n',
      code: 'brace-body',
      expect: 'addVar(a, 1)\nif(a, 1, =)\n  addVar(b, 1)\nelse()\n  addVar(b, 2)\nend()\naddResult(b)\n',
    },
    {
      name: 'startLoop(…) { … }: closed with endLoop()',
      source: 'startLoop(i, 1, 3) {\n  addVar(x, i)\n}\naddResult(x)\n',
      code: 'brace-body',
      expect: 'startLoop(i, 1, 3)\n  addVar(x, i)\nendLoop()\naddResult(x)\n',
    },
    {
      name: 'a one-line function split into lines',
      source: 'function double(x){ return x * 2 }\ny = double(2)\naddResult(y)\n',
      code: 'function-body-inline',
      expect: 'function double(x){\n  return x * 2\n}\ny = double(2)\naddResult(y)\n',
    },
    {
      name: 'for i in range(a, b): → startLoop(i, a, b - 1) … endLoop()',
      source: 'for i in range(1, 6):\n    addVar(x, i)\naddResult(x)\n',
      code: 'foreign-loop',
      expect: 'startLoop(i, 1, 5)\n    addVar(x, i)\nendLoop()\naddResult(x)\n',
      title: /startLoop\(i, 1, 5\)/,
    },
    {
      name: 'for i in range(n): → the last index computed first',
      source: 'addParam(n, n)\nfor i in range(n):\n  variableToList(i, xs)\naddResult(xs)\n',
      code: 'foreign-loop',
      expect:
        'addParam(n, n)\nlast = n - 1\nstartLoop(i, 0, last)\n  variableToList(i, xs)\nendLoop()\naddResult(xs)\n',
    },
    {
      name: 'for item in items: → walked by index',
      source: 'addParam(items, items)\nfor item in items:\n  variableToList(item, copy)\naddResult(copy)\n',
      code: 'foreign-loop',
      expect:
        'addParam(items, items)\ngetListLen(items, items_len)\nitems_last = items_len - 1\nstartLoop(i, 0, items_last)\n  itemFromList(items, i, item)\n  variableToList(item, copy)\nendLoop()\naddResult(copy)\n',
    },
    {
      name: 'a counted JavaScript loop',
      source: 'for (let i = 0; i < 3; i++) {\n  addVar(x, i)\n}\naddResult(x)\n',
      code: 'foreign-keyword',
      expect: 'startLoop(i, 0, 2)\n  addVar(x, i)\nendLoop()\naddResult(x)\n',
    },
    {
      name: 'nested loops get helper variables of their own (fixes are applied together)',
      source:
        'addParam(xs, xs)\nfor x in xs:\n  for k in range(x):\n    variableToList(k, ks)\n  addVar(done, x)\naddResult(ks)\n',
      code: 'foreign-loop',
      line: 3,
      expect:
        'addParam(xs, xs)\nfor x in xs:\n  k_last = x - 1\n  startLoop(k, 0, k_last)\n    variableToList(k, ks)\n  endLoop()\n  addVar(done, x)\naddResult(ks)\n',
    },
    {
      name: 'a JavaScript for … of over a list',
      source: 'addParam(xs, xs)\nfor (const x of xs) {\n    variableToList(x, ys)\n}\naddResult(ys)\n',
      code: 'foreign-keyword',
      expect:
        'addParam(xs, xs)\ngetListLen(xs, xs_len)\nxs_last = xs_len - 1\nstartLoop(i, 0, xs_last)\n    itemFromList(xs, i, x)\n    variableToList(x, ys)\nendLoop()\naddResult(ys)\n',
    },
    {
      name: 'a Go range loop with its index',
      source: 'addParam(xs, xs)\nfor k, x := range xs {\n  variableToList(x, ys)\n}\naddResult(ys)\n',
      code: 'foreign-keyword',
      expect:
        'addParam(xs, xs)\ngetListLen(xs, xs_len)\nxs_last = xs_len - 1\nstartLoop(k, 0, xs_last)\n  itemFromList(xs, k, x)\n  variableToList(x, ys)\nendLoop()\naddResult(ys)\n',
    },
    {
      name: 'a Go counted loop',
      source: 'addParam(n, n)\nfor i := 1; i <= n; i++ {\n  addVar(x, i)\n}\naddResult(x)\n',
      code: 'foreign-keyword',
      expect: 'addParam(n, n)\nstartLoop(i, 1, n)\n  addVar(x, i)\nendLoop()\naddResult(x)\n',
    },
    {
      name: 'Python if/elif/else: nested, one end() per test',
      source:
        'addVar(a, 1)\nif a > 1:\n  addVar(b, 1)\nelif a == 1:\n  addVar(b, 2)\nelse:\n  addVar(b, 3)\naddResult(b)\n',
      code: 'foreign-if',
      expect:
        'addVar(a, 1)\nif(a, 1, >)\n  addVar(b, 1)\nelse()\nif(a, 1, ==)\n  addVar(b, 2)\nelse()\n  addVar(b, 3)\nend()\nend()\naddResult(b)\n',
    },
    {
      name: 'a Python f-string',
      source: 'addVar(name, "ana")\ng = f"Hi {name}!"\naddResult(g)\n',
      code: 'invalid-expression',
      expect: 'addVar(name, "ana")\ng = `Hi ${name}!`\naddResult(g)\n',
    },
    {
      name: 'list.push(x)',
      source: 'addVar(x, 1)\nxs.push(x)\naddResult(xs)\n',
      code: 'foreign-method',
      expect: 'addVar(x, 1)\nvariableToList(x, xs)\naddResult(xs)\n',
    },
    {
      name: 'let x = v',
      source: 'let total = 0\naddResult(total)\n',
      code: 'foreign-keyword',
      expect: 'total = 0\naddResult(total)\n',
    },
    {
      name: 'const x = v',
      source: 'const total = 0\naddResult(total)\n',
      code: 'foreign-keyword',
      expect: 'total = 0\naddResult(total)\n',
    },
    {
      name: 'a Go package line',
      source: 'package main\naddVar(a, 1)\n',
      code: 'foreign-keyword',
      expect: 'addVar(a, 1)\n',
    },
    { name: 'a Go import line', source: 'addVar(a, 1)\nimport "fmt"', code: 'foreign-keyword', expect: 'addVar(a, 1)' },
    {
      name: 'a Go import block',
      source: 'import (\n  "fmt"\n  "os"\n)\naddVar(a, 1)\n',
      code: 'foreign-keyword',
      line: 1,
      expect: 'addVar(a, 1)\n',
    },
    { name: 'a # comment', source: '# note\naddVar(a, 1)\n', code: 'hash-comment', expect: '// note\naddVar(a, 1)\n' },
    {
      name: 'Go func main() unwrapped',
      source: 'func main() {\n  addVar(a, 1)\n  addResult(a)\n}\n',
      code: 'foreign-keyword',
      expect: '  addVar(a, 1)\n  addResult(a)\n',
    },
    {
      name: 'Python def with an indented body',
      source: 'def f(a):\n    return a\nx = f(1)\naddResult(x)\n',
      code: 'foreign-keyword',
      expect: 'function f(a) {\n    return a\n}\nx = f(1)\naddResult(x)\n',
    },
    {
      name: 'Python if/else by indentation',
      source: 'addVar(a, 1)\nif a > 0:\n  addVar(b, 1)\nelse:\n  addVar(b, 2)\naddResult(b)\n',
      code: 'foreign-if',
      expect: 'addVar(a, 1)\nif(a, 0, >)\n  addVar(b, 1)\nelse()\n  addVar(b, 2)\nend()\naddResult(b)\n',
    },
    {
      name: 'JavaScript try/catch',
      source: 'try {\n  addVar(a, 1)\n} catch (e) {\n  addVar(a, 2)\n}\naddResult(a)\n',
      code: 'foreign-try',
      expect: 'try()\n  addVar(a, 1)\nexception(e)\n  addVar(a, 2)\nend()\naddResult(a)\n',
    },
    {
      // A handler for every error, as exception() is (`except ValueError` would widen: see the no-fix cases).
      name: 'Python try/except … as',
      source: 'try:\n  addVar(a, 1)\nexcept Exception as err:\n  addVar(a, 2)\naddResult(a)\n',
      code: 'foreign-try',
      expect: 'try()\n  addVar(a, 1)\nexception(err)\n  addVar(a, 2)\nend()\naddResult(a)\n',
    },
    {
      name: 'else if nested into else()',
      source: 'addVar(a, 1)\nif(a, 2, >)\n  addVar(b, 1)\nelse if(a, 1, =)\n  addVar(b, 2)\nend()\naddResult(b)\n',
      code: 'else-if',
      expect:
        'addVar(a, 1)\nif(a, 2, >)\n  addVar(b, 1)\nelse()\nif(a, 1, =)\n  addVar(b, 2)\nend()\nend()\naddResult(b)\n',
    },
    {
      name: 'x += v',
      source: 'addVar(x, 1)\nx += 2 * 3\naddResult(x)\n',
      code: 'foreign-operator',
      expect: 'addVar(x, 1)\nx = x + (2 * 3)\naddResult(x)\n',
    },
    {
      name: 'i++',
      source: 'addVar(i, 1)\ni++\naddResult(i)\n',
      code: 'foreign-operator',
      expect: 'addVar(i, 1)\ni = i + 1\naddResult(i)\n',
    },
    { name: 'x := v', source: 'x := 1\naddResult(x)\n', code: 'foreign-operator', expect: 'x = 1\naddResult(x)\n' },
    {
      name: '.length → len()',
      source: 'addVar(s, "ab")\nn = s.length\naddResult(n)\n',
      code: 'foreign-method',
      expect: 'addVar(s, "ab")\nn = len(s)\naddResult(n)\n',
    },
    {
      name: 'await removed',
      source: 'addVar(a, 1)\nb = await a\naddResult(b)\n',
      code: 'foreign-keyword',
      expect: 'addVar(a, 1)\nb = a\naddResult(b)\n',
    },
    {
      name: 'a top-level return of a name',
      source: 'addVar(a, 1)\nreturn a\n',
      code: 'return-outside-function',
      expect: 'addVar(a, 1)\naddResult(a)\n',
    },
    {
      name: 'addVar with the value first',
      source: 'addVar(1, total)\naddResult(total)\n',
      code: 'invalid-target',
      expect: 'addVar(total, 1)\naddResult(total)\n',
    },
    {
      name: 'addResult of two names',
      source: 'addVar(a, 1)\naddVar(b, 2)\naddResult(a, b)\n',
      code: 'arity',
      expect: 'addVar(a, 1)\naddVar(b, 2)\naddResult(a)\naddResult(b)\n',
    },
    {
      name: 'a command nested in an argument',
      source: 'addVar(a, 1)\naddVar(x, encodeSHA256(a, h))\naddResult(x)\n',
      code: 'nested-command',
      expect: 'addVar(a, 1)\nencodeSHA256(a, h)\naddVar(x, h)\naddResult(x)\n',
    },
    {
      name: 'an expression where a loop bound goes',
      source: 'addVar(n, 3)\nstartLoop(i, 0, n - 1)\n  addVar(x, i)\nendLoop()\n',
      code: 'invalid-number',
      expect: 'addVar(n, 3)\nlast = n - 1\nstartLoop(i, 0, last)\n  addVar(x, i)\nendLoop()\n',
    },
    {
      name: 'a missing )',
      source: 'addVar(a, 1\naddResult(a)\n',
      code: 'unclosed-call',
      expect: 'addVar(a, 1)\naddResult(a)\n',
    },
    {
      name: 'a case slip: addvar',
      source: 'addvar(a, 1)\naddResult(a)\n',
      code: 'unknown-command',
      expect: 'addVar(a, 1)\naddResult(a)\n',
    },
    {
      name: 'an invented closer in another case: endif()',
      source: 'addVar(a, 1)\nif(a, 1, =)\n  addVar(b, 1)\nendif()\n',
      code: 'unknown-command',
      expect: 'addVar(a, 1)\nif(a, 1, =)\n  addVar(b, 1)\nend()\n',
    },
    {
      name: 'print in a program with no addResult is its answer',
      source: 'addVar(a, 1)\nprint(a)\n',
      code: 'foreign-keyword',
      expect: 'addVar(a, 1)\naddResult(a)\n',
    },
    {
      name: 'CRLF kept in inserted lines',
      source: 'if(a, 1, =)\r\n  addVar(b, 1)\r\naddResult(b)\r\n',
      code: 'unclosed-block',
      expect: 'if(a, 1, =)\r\n  addVar(b, 1)\r\nend()\r\naddResult(b)\r\n',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { text, title } = fixed(c.source, c.code, c.line);
      assert.equal(text, c.expect);
      if (c.title) assert.match(title, c.title);
    });
  }

  const noFix: { name: string; source: string; code: string }[] = [
    {
      name: 'while has no counted equivalent',
      source: 'addVar(n, 3)\nwhile n > 0:\n  n = n - 1\naddResult(n)\n',
      code: 'foreign-keyword',
    },
    // print(a) in a program that answers with addResult is not its answer (a guess: no fix); in a program
    // with no addResult at all it is (the cases above).
    {
      name: 'print of a name the response does not carry is not a response',
      source: 'addVar(a, 1)\naddVar(b, 2)\naddResult(b)\nprint(a)\n',
      code: 'foreign-keyword',
    },
    { name: 'an invented name with no equivalent', source: 'confirmPassword(a, b, ok)\n', code: 'unknown-command' },
    {
      name: 'an invented name whose arguments would be a guess',
      source: 'today = getCurrentDate()\naddResult(today)\n',
      code: 'unknown-command',
    },
    {
      name: 'a block whose body is not indented (its end would be a guess)',
      source: 'if(a, 1, =)\naddVar(b, 1)\naddResult(b)\n',
      code: 'unclosed-block',
    },
    { name: 'try() without a handler', source: 'try()\n  addVar(a, 1)\n', code: 'unclosed-block' },
    { name: 'range with a step', source: 'for i in range(0, 10, 2):\n  addVar(x, i)\n', code: 'foreign-loop' },
    {
      name: 'elif after else (not Python)',
      source: 'if a > 1:\n  addVar(b, 1)\nelse:\n  addVar(b, 2)\nelif a > 0:\n  addVar(b, 3)\n',
      code: 'foreign-if',
    },
    { name: 'an f-string with an expression inside', source: 'g = f"{a + b}"\n', code: 'invalid-expression' },
    { name: 'push of an expression (AVAP would store its text)', source: 'xs.push(a + 1)\n', code: 'foreign-method' },
    { name: 'for … in over an object', source: 'for (k in obj) {\n  addVar(x, k)\n}\n', code: 'foreign-keyword' },
    // Rewrites that would change what the program does.
    {
      name: 'except ValueError (exception() would catch every error, not only that one)',
      source: 'try:\n  addVar(a, 1)\nexcept ValueError as err:\n  addVar(a, 2)\naddResult(a)\n',
      code: 'foreign-try',
    },
    {
      name: 'an invented name whose arguments the catalogue does not map (the user name is no length)',
      source: 'addParam(u, u)\ntok = generateToken(u)\naddResult(tok)\n',
      code: 'unknown-command',
    },
    {
      name: 'an invented list append whose argument order is a guess',
      source: 'items = []\nappendToList(items, 1)\naddResult(items)\n',
      code: 'unknown-command',
    },
  ];
  for (const c of noFix) {
    it(`no fix: ${c.name}`, () => {
      const entry = validateAvap(c.source).trace.find((e) => e.code === c.code);
      assert.ok(entry, renderTrace(validateAvap(c.source).trace));
      assert.equal(entry.fix, undefined, entry.fix?.title);
    });
  }

  it('the catalogue data behind argument rewrites names real parameters', () => {
    for (const h of catalogue.HALLUCINATIONS) {
      const spec = h.equivalent ? catalogue.findCommand(h.equivalent) : undefined;
      const names = spec ? spec.params.map((p) => p.name) : [];
      for (const name of [...(h.args ?? []), ...(h.targetFrom ? [h.targetFrom] : [])])
        assert.ok(names.includes(name), `${h.name}: ${name} is not a parameter of ${h.equivalent}`);
    }
    for (const spec of catalogue.COMMANDS) {
      if (spec.targetFrom)
        assert.ok(
          spec.params.some((p) => p.name === spec.targetFrom),
          spec.name,
        );
    }
  });

  it('keeps the suggestion next to the fix for single-name replacements', () => {
    const [entry] = validateAvap('returnResult(a)\n').trace;
    assert.equal(entry?.suggestion, 'addResult');
    assert.deepEqual(entry?.fix?.edits, [{ line: 1, column: 1, endLine: 1, endColumn: 13, newText: 'addResult' }]);
  });
});

describe('parser: every fix is proven (corpus and generated programs)', function () {
  this.timeout(120_000);

  it('holds for every program of the corpus', () => {
    let fixes = 0;
    for (const { source } of [...read('failures'), ...read('invalid'), ...read('valid')]) {
      fixes += assertEveryFixProven(source).trace.filter((e) => e.fix).length;
    }
    assert.ok(fixes >= 60, `only ${fixes} fixes in the corpus`);
  });

  it('offers no fix on the valid corpus (it has no semantic trap)', () => {
    for (const { name, source } of read('valid'))
      assert.deepEqual(
        validateAvap(source).trace.filter((e) => e.fix),
        [],
        name,
      );
  });

  const VALID = [
    'addVar(a, 1)',
    'addParam("q", q)',
    'addResult(a)',
    'b = a + 1',
    'encodeSHA256(a, h)',
    'RequestGet(url, , , r)',
    '// note',
    '',
  ];
  const indent = fc.constantFrom('', '  ', '    ', '\t');
  const line = (text: string) => fc.tuple(indent, fc.constant(text)).map(([i, t]) => `${i}${t}`);
  const SLIPS = [
    'getSHA256(a, h)',
    'h = getSHA256(a)',
    'readParam("q")',
    'r = httpGet("https://a.example")',
    'addVar(a, 1);',
    'let x = 1',
    'const y = 2;',
    '# note',
    'package main',
    'import "fmt"',
    'x := 1',
    'x += 1',
    'i++',
    'if(a, 1, =)',
    'startLoop(i, 1, 3)',
    'try()',
    'exception(e)',
    'else()',
    'end()',
    'endLoop()',
    'if (a > 1) {',
    '} else {',
    '}',
    'for i in range(1, 4):',
    'for item in items:',
    'function f(x) { return x }',
    'def g(x):',
    'try {',
    '} catch (e) {',
    'print(a)',
    'while a > 1:',
    'else if(a, 2, =)',
    'addResult(a, b)',
    'n = s.length',
    'return a',
    'addVar(x, encodeSHA256(a, h))',
    'startLoop(i, 0, n - 1)',
    'addVar(1, t)',
    'r = RequestGet(url)',
    'addVar(a, 1',
    'IF(a, 1, =)',
    'ELSE()',
    'END()',
    'for (const x of items) {',
    'for i := 0; i < n; i++ {',
    'if a > 1:',
    'elif a > 0:',
    'else:',
    'except Exception as e:',
    'g = f"Hi {a}"',
    'items.push(a)',
  ];
  const program = fc
    .array(
      fc.oneof(
        { arbitrary: fc.constantFrom(...VALID).chain(line), weight: 2 },
        { arbitrary: fc.constantFrom(...SLIPS).chain(line), weight: 3 },
      ),
      { minLength: 1, maxLength: 14 },
    )
    .map((lines) => `${lines.join('\n')}\n`);

  it('holds for generated programs full of model-style slips', () => {
    fc.assert(
      fc.property(program, (source) => {
        assertEveryFixProven(source);
      }),
      { numRuns: 250, seed: 1616 },
    );
  });

  it('the repair loop never makes a program worse, and what it calls repaired is valid', async () => {
    await fc.assert(
      fc.asyncProperty(program, async (source) => {
        const before = validateAvap(source);
        const outcome = await repairWithFixes(source, (text) => validateAvap(text));
        assert.ok(outcome.result);
        assert.ok(errors(outcome.result) <= errors(before), `worse:\n${source}\n→\n${outcome.source}`);
        assert.equal(outcome.repaired, outcome.result.valid);
        assert.ok(outcome.rounds <= 3);
        if (outcome.repaired) assert.equal(validateAvap(outcome.source).valid, true);
      }),
      { numRuns: 150, seed: 16 },
    );
  });
});

describe('parser: fix proofs stay bounded', () => {
  it('proves at most DEFAULT_MAX_FIX_PROOFS candidates per call', () => {
    const result = validateAvap('addVar(a, 1);\n'.repeat(150));
    assert.equal(result.trace.length, 150);
    const fixes = result.trace.filter((e) => e.fix).length;
    assert.ok(fixes > 0 && fixes <= DEFAULT_MAX_FIX_PROOFS, `${fixes} fixes`);
  });

  it('gives a large program fewer proofs (a byte budget), and none past it', () => {
    const line = 'addVar(a, 1);\n';
    const big = `${'addVar(b, 2)\n'.repeat(Math.ceil((400 * 1024) / 13))}${line.repeat(10)}`;
    const result = validateAvap(big);
    assert.equal(result.trace.filter((e) => e.fix).length, 2, 'a 400 KiB program gets two proofs of the 1 MiB budget');
    const huge = `${'addVar(b, 2)\n'.repeat(Math.ceil((1.2 * 1024 * 1024) / 13))}${line}`;
    assert.equal(validateAvap(huge, { maxBytes: 2 * 1024 * 1024 }).trace.filter((e) => e.fix).length, 0);
  });

  it('proves nothing on valid code but its semantic warnings (other warnings keep their suggestion)', () => {
    const result = validateAvap('startLoop(i, 1, 2)\n  addVar(a, i)\nend()\n');
    assert.equal(result.valid, true);
    assert.deepEqual(
      result.trace.map((e) => [e.code, e.suggestion, e.fix]),
      [['loop-closed-by-end', 'endLoop', undefined]],
    );
    const trap = 'startLoop(i, 1, 2)\n  addVar(a, [])\nend()\n';
    const both = validateAvap(trap);
    assert.equal(both.valid, true);
    assert.deepEqual(
      both.trace.map((e) => [e.code, e.fix?.title]),
      [
        ['literal-stored-as-text', 'Assign the value: a = []'],
        ['loop-closed-by-end', undefined],
      ],
    );
    assert.equal(fixed(trap, 'literal-stored-as-text').text, 'startLoop(i, 1, 2)\n  a = []\nend()\n');
  });

  it('offers none when asked for none, and the verdict is the same', () => {
    const source = 'readParam("q")\nx = getSHA256(q);\n';
    const without = validateAvap(source, { maxFixProofs: 0 });
    assert.ok(without.trace.every((e) => e.fix === undefined));
    assert.deepEqual(
      validateAvap(source).trace.map(({ fix: _fix, ...rest }) => rest),
      without.trace,
    );
  });
});

/**
 * The fixes for the slips models make (print for addResult, loops of other
 * languages, closers left open, …; src/parser/fixes/), case by case: each is
 * proven (the finding goes, no finding appears) and the fixed program answers
 * a request as the program that was meant does, both run by src/runtime; and
 * where the meaning is a guess, no fix is offered.
 */
import assert from 'node:assert/strict';
import { applyTextEdits, renderTrace, validateAvap, type TraceEntry } from '../../../src/parser';
import { run } from '../runtime/fakes';

function entry(source: string, code: string, line?: number): TraceEntry {
  const hits = validateAvap(source).trace.filter((e) => e.code === code && (line === undefined || e.line === line));
  assert.equal(hits.length, 1, `one ${code} in\n${source}\n${renderTrace(validateAvap(source).trace)}`);
  return hits[0] as TraceEntry;
}

function fixedBy(source: string, code: string, line?: number): string {
  const e = entry(source, code, line);
  assert.ok(e.fix, `a fix for ${code}:\n${source}\n${renderTrace(validateAvap(source).trace)}`);
  const after = applyTextEdits(source, e.fix.edits);
  assert.ok(after !== undefined);
  assert.equal(
    validateAvap(after, { maxFixProofs: 0 }).trace.filter((x) => x.code === code && x.line === e.line).length,
    0,
    after,
  );
  return after;
}

interface Case {
  name: string;
  source: string;
  code: string;
  line?: number;
  expect: string;
  /** A request both the fixed and the intended program (`expect`) answer alike. */
  request?: { query?: Record<string, string>; body?: unknown };
}

const cases: Case[] = [
  {
    name: 'an endLoop() too many is deleted',
    source: 'startLoop(i, 1, 3)\n  variableToList(i, xs)\nendLoop()\nendLoop()\naddResult(xs)\n',
    code: 'unmatched-closer',
    expect: 'startLoop(i, 1, 3)\n  variableToList(i, xs)\nendLoop()\naddResult(xs)\n',
  },
  {
    name: 'the closer written twice inside a block is the one deleted (its indentation says so)',
    source:
      'addParam(a, a)\nif(a, 1, ==)\n  addVar(b, 1)\nelse()\n  try()\n    addVar(b, 2)\n  exception(e)\n  end()\n  end()\n  addVar(c, 3)\nend()\naddResult(c)\n',
    code: 'unmatched-closer',
    expect:
      'addParam(a, a)\nif(a, 1, ==)\n  addVar(b, 1)\nelse()\n  try()\n    addVar(b, 2)\n  exception(e)\n  end()\n  addVar(c, 3)\nend()\naddResult(c)\n',
    request: { query: { a: '2' } },
  },
  {
    name: 'else() after the end() that closed its if: that end() goes',
    source: 'addParam(n, n)\nif(n, 0, >)\n  addVar(s, "pos")\nend()\nelse()\n  addVar(s, "neg")\nend()\naddResult(s)\n',
    code: 'branch-outside-block',
    expect: 'addParam(n, n)\nif(n, 0, >)\n  addVar(s, "pos")\nelse()\n  addVar(s, "neg")\nend()\naddResult(s)\n',
    request: { query: { n: '-1' } },
  },
  {
    name: 'a string left open before the call closer',
    source: 'addVar(msg, "Hello there)\naddResult(msg)\n',
    code: 'unterminated-string',
    expect: 'addVar(msg, "Hello there")\naddResult(msg)\n',
  },
  {
    name: 'a string left open at the end of an assignment',
    source: 'x = "a" + "b\naddResult(x)\n',
    code: 'unterminated-string',
    expect: 'x = "a" + "b"\naddResult(x)\n',
  },
  {
    name: 'a counted Python while',
    source: 'addParam(n, n)\ns = 0\ni = 1\nwhile i <= n:\n    s = s + i\n    i = i + 1\naddResult(s)\n',
    code: 'foreign-keyword',
    expect: 'addParam(n, n)\ns = 0\ni = 1\nstartLoop(i, 1, n)\n    s = s + i\nendLoop()\naddResult(s)\n',
    request: { query: { n: '4' } },
  },
  {
    name: 'a counted JavaScript while with braces and an exclusive bound',
    source: 'addParam(n, n)\ni = 0\nwhile (i < n) {\n  variableToList(i, xs)\n  i++\n}\naddResult(xs)\n',
    code: 'foreign-keyword',
    expect:
      'addParam(n, n)\ni = 0\nlast = n - 1\nstartLoop(i, 0, last)\n  variableToList(i, xs)\nendLoop()\naddResult(xs)\n',
    request: { query: { n: '3' } },
  },
  {
    name: 'foreach … end() walks the list',
    source: 'xs = [1, 2, 3]\nt = 0\nforeach x in xs\n  t = t + x\nend()\naddResult(t)\n',
    code: 'foreign-keyword',
    expect:
      'xs = [1, 2, 3]\nt = 0\ngetListLen(xs, xs_len)\nxs_last = xs_len - 1\nstartLoop(i, 0, xs_last)\n  itemFromList(xs, i, x)\n  t = t + x\nendLoop()\naddResult(t)\n',
  },
  {
    name: 'startLoop(x, xs) walks the list',
    source:
      'scores = [3, 9, 4]\nbest = 0\nstartLoop(score, scores)\n  if(score, best, >)\n    best = score\n  end()\nendLoop()\naddResult(best)\n',
    code: 'arity',
    expect:
      'scores = [3, 9, 4]\nbest = 0\ngetListLen(scores, scores_len)\nscores_last = scores_len - 1\nstartLoop(i, 0, scores_last)\n  itemFromList(scores, i, score)\n  if(score, best, >)\n    best = score\n  end()\nendLoop()\naddResult(best)\n',
  },
  {
    name: 'xs.forEach(x => { … }) walks the list',
    source: 'xs = ["a", "b"]\nxs.forEach(x => {\n  y = x + "!"\n  variableToList(y, ys)\n})\naddResult(ys)\n',
    code: 'foreign-method',
    expect:
      'xs = ["a", "b"]\ngetListLen(xs, xs_len)\nxs_last = xs_len - 1\nstartLoop(i, 0, xs_last)\n  itemFromList(xs, i, x)\n  y = x + "!"\n  variableToList(y, ys)\nendLoop()\naddResult(ys)\n',
  },
  {
    name: 'fmt.Println of the only output is the answer',
    source: 'addParam(city, city)\nmsg = "Hi " + city\nfmt.Println(msg)\n',
    code: 'foreign-call',
    expect: 'addParam(city, city)\nmsg = "Hi " + city\naddResult(msg)\n',
    request: { query: { city: 'Oslo' } },
  },
  {
    name: 'print in the branch that sets the status is that branch’s answer',
    source:
      'addParam(id, id)\nif(id, None, ==)\n  _status = 400\n  addVar(error, "no id")\n  print(error)\nelse()\n  addResult(id)\nend()\n',
    code: 'foreign-keyword',
    expect:
      'addParam(id, id)\nif(id, None, ==)\n  _status = 400\n  addVar(error, "no id")\n  addResult(error)\nelse()\n  addResult(id)\nend()\n',
  },
  {
    name: 'setStatus(404) is the status',
    source: 'setStatus(404)\naddVar(m, "missing")\naddResult(m)\n',
    code: 'unknown-command',
    expect: '_status = 404\naddVar(m, "missing")\naddResult(m)\n',
  },
  {
    name: 'n = size(xs) is a length',
    source: 'xs = [1, 2]\nn = size(xs)\naddResult(n)\n',
    code: 'unknown-command',
    expect: 'xs = [1, 2]\nn = len(xs)\naddResult(n)\n',
  },
  {
    name: 'h = sha256Hex(p) is encodeSHA256',
    source: 'addParam(p, p)\nh = sha256Hex(p)\naddResult(h)\n',
    code: 'unknown-command',
    expect: 'addParam(p, p)\nencodeSHA256(p, h)\naddResult(h)\n',
    request: { query: { p: 'secret' } },
  },
  {
    name: 'RequestGet(url, r) gets its empty query string and headers',
    source: 'addVar(u, "https://a.example/x")\nRequestGet(u, r)\naddResult(r)\n',
    code: 'arity',
    expect: 'addVar(u, "https://a.example/x")\nRequestGet(u, , , r)\naddResult(r)\n',
  },
  {
    name: 'variableFromJSON(o, "city") reads into the name read further down',
    source: 'o = {"city": "Oslo"}\nvariableFromJSON(o, "city")\naddResult(city)\n',
    code: 'arity',
    expect: 'o = {"city": "Oslo"}\nvariableFromJSON(o, "city", city)\naddResult(city)\n',
  },
  {
    name: 'd["k"] = v sets the key',
    source: 'd = {}\nn = 2\nd["total"] = n\naddResult(d)\n',
    code: 'invalid-assignment-target',
    expect: 'd = {}\nn = 2\nAddvariableToJSON("total", n, d)\naddResult(d)\n',
  },
  {
    name: 'a ternary is the conditional expression',
    source: 'addParam(n, n)\nw = n > 3 ? "many" : "few"\naddResult(w)\n',
    code: 'foreign-operator',
    expect: 'addParam(n, n)\nw = "many" if n > 3 else "few"\naddResult(w)\n',
    request: { query: { n: '5' } },
  },
  {
    name: 'a docstring is a comment',
    source: '// task\n"""Doubles n."""\naddParam(n, n)\nd = n * 2\naddResult(d)\n',
    code: 'not-a-statement',
    expect: '// task\n// Doubles n.\naddParam(n, n)\nd = n * 2\naddResult(d)\n',
  },
  {
    name: 'endfor closes the loop',
    source: 'startLoop(i, 1, 2)\n  variableToList(i, xs)\nendfor\naddResult(xs)\n',
    code: 'not-a-statement',
    expect: 'startLoop(i, 1, 2)\n  variableToList(i, xs)\nendLoop()\naddResult(xs)\n',
  },
  {
    name: 'x == null compares with None',
    source: 'addParam(t, t)\nif t == null {\n  _status = 401\n}\naddResult(t)\n',
    code: 'foreign-if',
    expect: 'addParam(t, t)\nif(t, None, ==)\n  _status = 401\nend()\naddResult(t)\n',
  },
  {
    name: 'xs.append(x) is variableToList',
    source: 'xs = []\nxs.append(4)\naddResult(xs)\n',
    code: 'foreign-method',
    expect: 'xs = []\nvariableToList(4, xs)\naddResult(xs)\n',
  },
];

describe("parser: the fixes for models' slips, proven and keeping the meaning", () => {
  for (const c of cases) {
    it(c.name, async () => {
      const after = fixedBy(c.source, c.code, c.line);
      assert.equal(after, c.expect);
      if (validateAvap(after).valid) {
        const request = {
          ...(c.request?.query ? { query: c.request.query } : {}),
          ...(c.request?.body ? { body: c.request.body, method: 'POST' } : {}),
        };
        const [got, meant] = [await run(after, { request }), await run(c.expect, { request })];
        assert.deepEqual([got.status, got.result], [meant.status, meant.result]);
      }
    });
  }

  const noFix: { name: string; source: string; code: string }[] = [
    {
      name: 'a countdown while',
      source: 'addParam(n, n)\nwhile n > 0:\n  variableToList(n, xs)\n  n = n - 1\naddResult(xs)\n',
      code: 'foreign-keyword',
    },
    {
      name: 'a while whose counter is read after it',
      source: 'i = 0\nwhile i < 3:\n  variableToList(i, xs)\n  i = i + 1\naddResult(i)\n',
      code: 'foreign-keyword',
    },
    {
      name: 'a while with a break',
      source: 'i = 0\nwhile i < 3:\n  if(i, 1, ==)\n    break\n  end()\n  i = i + 1\naddResult(i)\n',
      code: 'foreign-keyword',
    },
    { name: 'print of a message', source: 'print("done")\n', code: 'foreign-keyword' },
    { name: 'print of a name the program never sets', source: 'print(x)\n', code: 'foreign-keyword' },
    {
      name: 'print beside another answer',
      source: 'addVar(a, 1)\naddVar(b, 2)\naddResult(b)\nprint(a)\n',
      code: 'foreign-keyword',
    },
    { name: 'print inside a loop', source: 'startLoop(i, 1, 2)\n  print(i)\nendLoop()\n', code: 'foreign-keyword' },
    {
      name: 'a two-argument statement whose order is a guess',
      source: 'addParam(p, p)\nsha256Encode(p, h)\naddResult(h)\n',
      code: 'unknown-command',
    },
    { name: 'an invented name with no meaning', source: 'id = uuid()\naddResult(id)\n', code: 'unknown-command' },
    {
      name: 'a key that names a variable',
      source: 'addParam(name, name)\nu = {}\nu["name"] = name\naddResult(u)\n',
      code: 'invalid-assignment-target',
    },
    { name: 'a value left out', source: 'addVar(total)\naddResult(total)\n', code: 'arity' },
    { name: 'a target named after an unquoted key', source: 'addParam(amount)\naddResult(amount)\n', code: 'arity' },
    {
      name: 'a string whose end is elsewhere',
      source: 'RequestGet("https://a.example/users, , , users)\naddResult(users)\n',
      code: 'unterminated-string',
    },
    {
      name: 'a stray closer under a foreign loop',
      source: 'while x:\n  addVar(a, 1)\nend()\n',
      code: 'unmatched-closer',
    },
    {
      name: 'startLoop(i, n): a count, not a list',
      source: 'addParam(n, n)\nstartLoop(i, n)\n  variableToList(i, xs)\nendLoop()\naddResult(xs)\n',
      code: 'arity',
    },
  ];
  for (const c of noFix) {
    it(`no fix: ${c.name}`, () => {
      const e = entry(c.source, c.code);
      assert.equal(e.fix, undefined, e.fix?.title);
    });
  }

  it('on a program still arriving (partial), the fixes that need later lines to lack something wait', () => {
    const source = 'addParam(p, p)\nprint(p)\n';
    assert.ok(entry(source, 'foreign-keyword').fix);
    const partial = validateAvap(source, { partial: true }).trace.find((e) => e.code === 'foreign-keyword');
    assert.equal(partial?.fix, undefined);
  });
});

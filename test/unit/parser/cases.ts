import type { TraceCategory } from '../../../src/parser';

/** A failure program and what the parser must say about it. */
export interface InvalidCase {
  name: string;
  source: string;
  /** Expected error: line, category, and (when the parser can fix it mechanically) the replacement. */
  line: number;
  category: TraceCategory;
  suggestion?: string;
  /** A fragment the message must contain. */
  message?: string;
}

const wrap = (body: string) => `addParam("q", q)\n${body}\naddResult(q)\n`;

/** Every mistake the facts list, one program each. Line numbers count from 1. */
export const INVALID_CASES: InvalidCase[] = [
  // Invented command names, with the real equivalent as suggestion.
  {
    name: 'getSHA256',
    source: wrap('getSHA256(q, h)'),
    line: 2,
    category: 'unknown_token',
    suggestion: 'encodeSHA256',
    message: "did you mean 'encodeSHA256'",
  },
  {
    name: 'generateSHA256Hash',
    source: wrap('generateSHA256Hash(q, h)'),
    line: 2,
    category: 'unknown_token',
    suggestion: 'encodeSHA256',
  },
  {
    name: 'returnResult',
    source: wrap('returnResult(q)'),
    line: 2,
    category: 'unknown_token',
    suggestion: 'addResult',
    message: "'returnResult' not defined — did you mean 'addResult'?",
  },
  {
    name: 'httpGet',
    source: wrap('httpGet("https://a.example", , , r)'),
    line: 2,
    category: 'unknown_token',
    suggestion: 'RequestGet',
  },
  { name: 'readParam', source: wrap('readParam("x", x)'), line: 2, category: 'unknown_token', suggestion: 'addParam' },
  { name: 'getMD5', source: wrap('getMD5(q, h)'), line: 2, category: 'unknown_token', suggestion: 'encodeMD5' },
  {
    name: 'case mismatch addvar',
    source: wrap('addvar(x, 1)'),
    line: 2,
    category: 'unknown_token',
    suggestion: 'addVar',
  },
  {
    name: 'upper-case IF',
    source: 'addVar(a, 1)\nIF(a, 1, "=")\nend()\n',
    line: 2,
    category: 'unknown_token',
    suggestion: 'if',
  },
  {
    name: 'typo by edit distance',
    source: wrap('encodeSHA265(q, h)'),
    line: 2,
    category: 'unknown_token',
    suggestion: 'encodeSHA256',
  },
  // Arity and argument kinds.
  { name: 'addVar with one argument', source: wrap('addVar(x)'), line: 2, category: 'syntax_error' },
  {
    name: 'encodeSHA256 with three arguments',
    source: wrap('encodeSHA256(q, h, extra)'),
    line: 2,
    category: 'syntax_error',
  },
  {
    name: 'startLoop bound is a string',
    source: 'startLoop(i, "a", 3)\nendLoop()\n',
    line: 1,
    category: 'syntax_error',
  },
  { name: 'unknown comparator', source: 'addVar(a, 1)\nif(a, 1, "===")\nend()\n', line: 2, category: 'syntax_error' },
  // Go.
  { name: 'Go package', source: 'package main\naddVar(a, 1)\n', line: 1, category: 'foreign_keyword' },
  { name: 'Go import', source: 'import "fmt"\naddVar(a, 1)\n', line: 1, category: 'foreign_keyword' },
  { name: 'Go func main', source: 'func main() {\n  addVar(a, 1)\n}\n', line: 1, category: 'foreign_keyword' },
  { name: 'Go short declaration', source: wrap('x := 1'), line: 2, category: 'foreign_keyword' },
  // Python.
  { name: 'Python def', source: 'def handler(x):\n  addVar(a, 1)\n', line: 1, category: 'foreign_keyword' },
  {
    name: 'Python for range',
    source: wrap('for i in range(1, 6):'),
    line: 2,
    category: 'unexpected_construct',
    message: "unexpected construct 'for i in range(...)' — AVAP loop syntax required",
  },
  { name: 'Python print', source: wrap('print(q)'), line: 2, category: 'foreign_keyword' },
  { name: 'Python comment', source: wrap('# read the parameter'), line: 2, category: 'foreign_keyword', message: '//' },
  {
    name: 'Python except',
    source: 'try()\n  addVar(a, 1)\nexcept(e)\nend()\n',
    line: 3,
    category: 'unknown_token',
    suggestion: 'exception',
  },
  // JavaScript.
  { name: 'JS let', source: wrap('let x = 1'), line: 2, category: 'foreign_keyword' },
  { name: 'JS var', source: wrap('var x = 1'), line: 2, category: 'foreign_keyword' },
  { name: 'JS const', source: wrap('const x = 1'), line: 2, category: 'foreign_keyword' },
  { name: 'JS arrow function', source: wrap('f = (a) => a + 1'), line: 2, category: 'foreign_keyword' },
  { name: 'JS console.log', source: wrap('console.log(q)'), line: 2, category: 'foreign_keyword' },
  { name: 'JS includes', source: wrap('ok = q.includes("a")'), line: 2, category: 'foreign_keyword' },
  {
    name: 'while loop',
    source: 'addVar(i, 0)\nwhile (i < 3) {\n  i = i + 1\n}\n',
    line: 2,
    category: 'foreign_keyword',
  },
  {
    name: 'foreach loop',
    source: 'addVar(items, [1])\nforeach (items as item) {\n}\n',
    line: 2,
    category: 'foreign_keyword',
  },
  {
    name: 'curly-brace if body',
    source: 'addVar(a, 1)\nif (a == 1) {\n  addVar(b, 2)\n}\n',
    line: 2,
    category: 'unexpected_construct',
  },
  {
    name: 'statement terminator',
    source: wrap('addVar(x, 1);'),
    line: 2,
    category: 'unexpected_construct',
    message: "';'",
  },
  // Blocks.
  {
    name: 'if without end',
    source: 'addVar(a, 1)\nif(a, 1, "=")\n  addVar(b, 2)\n',
    line: 2,
    category: 'syntax_error',
  },
  {
    name: 'startLoop without endLoop',
    source: 'startLoop(i, 0, 3)\n  addVar(x, i)\n',
    line: 1,
    category: 'syntax_error',
  },
  { name: 'else outside if', source: 'addVar(a, 1)\nelse()\n', line: 2, category: 'syntax_error' },
  { name: 'exception outside try', source: 'addVar(a, 1)\nexception(e)\n', line: 2, category: 'syntax_error' },
  {
    name: 'try without end',
    source: 'try()\n  addVar(a, 1)\nexception(e)\n  addResult(e)\n',
    line: 1,
    category: 'syntax_error',
  },
  { name: 'closer without opener', source: 'addVar(a, 1)\nendLoop()\n', line: 2, category: 'syntax_error' },
  { name: 'unclosed function brace', source: 'function f(a) {\n  return(a)\n', line: 1, category: 'syntax_error' },
  // Lexical.
  { name: 'unterminated string', source: wrap('addVar(x, "open)'), line: 2, category: 'syntax_error' },
  { name: 'stray character', source: wrap('addVar(x, 1) @'), line: 2, category: 'syntax_error' },
  { name: 'unbalanced parenthesis', source: wrap('addVar(x, (1 + 2)'), line: 2, category: 'syntax_error' },
  // Names.
  { name: 'undefined function call', source: wrap('y = computeTotal(q)'), line: 2, category: 'unknown_token' },
];

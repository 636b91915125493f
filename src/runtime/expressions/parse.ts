/**
 * Expressions (the right side of `x = …`, `return …`, loop bounds and the
 * condition of `if(None, None, "…")`): the Python subset AVAP documents —
 * literals, names, `$globals`, templates, + - * / % **, comparisons (chained),
 * in / not in / is / is not, and / or / not, `a if c else b`, indexing and
 * slicing, list / tuple / dict literals, and calls of str, int, float, len.
 *
 * Two ways to fail, kept apart on purpose:
 *  - text that Python would reject too is a SyntaxError (the reference then
 *    falls back to the text, and so does the runtime);
 *  - Python that this runtime does not evaluate (comprehensions, lambda,
 *    f-strings, keyword arguments, bit operators, …) is refused as not
 *    supported, never turned into text the reference would not produce.
 */
import { RunFailure } from '../failure';

export type Node =
  | { t: 'const'; value: ConstValue }
  | { t: 'name'; id: string }
  | { t: 'global'; id: string }
  | { t: 'template'; raw: string }
  | { t: 'list'; items: Node[] }
  | { t: 'tuple'; items: Node[] }
  | { t: 'dict'; keys: Node[]; values: Node[] }
  | { t: 'bin'; op: BinOp; left: Node; right: Node }
  | { t: 'unary'; op: '-' | '+' | 'not'; operand: Node }
  | { t: 'bool'; op: 'and' | 'or'; left: Node; right: Node }
  | { t: 'compare'; first: Node; ops: CompareOp[]; rest: Node[] }
  | { t: 'ifexp'; test: Node; body: Node; orelse: Node }
  | { t: 'call'; callee: string; args: Node[] }
  | { t: 'index'; obj: Node; key: Node }
  | { t: 'slice'; obj: Node; lo: Node | undefined; hi: Node | undefined }
  | { t: 'attr'; obj: Node; name: string };

export type ConstValue = null | boolean | number | { float: number } | string;
export type BinOp = '+' | '-' | '*' | '/' | '%' | '**';
export type CompareOp = '==' | '!=' | '<' | '>' | '<=' | '>=' | 'in' | 'not in' | 'is' | 'is not';

type TokKind = 'num' | 'str' | 'tpl' | 'name' | 'global' | 'op' | 'end';
interface Tok {
  k: TokKind;
  text: string;
  value?: ConstValue;
}

const syntaxError = (message: string): RunFailure => RunFailure.py('SyntaxError', 'syntax-error', message);
const unsupported = (what: string): RunFailure =>
  RunFailure.unsupported(what, 'the runtime evaluates the expression subset AVAP documents');

const THREE = new Set(['**=', '//=', '>>=', '<<=']);
const TWO = new Set(['**', '==', '!=', '<=', '>=', '//', '<<', '>>', ':=', '->', '+=', '-=', '*=', '/=', '%=']);
const ONE = new Set([
  '+',
  '-',
  '*',
  '/',
  '%',
  '<',
  '>',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  ':',
  '.',
  '=',
  '&',
  '|',
  '^',
  '~',
  '@',
  ';',
]);
const UNSUPPORTED_OPS = new Set(['//', '<<', '>>', '&', '|', '^', '~', '@', ':=']);
const KEYWORDS_UNSUPPORTED = new Set(['lambda', 'await', 'yield', 'for', 'async']);

const INT_RE = /^(?:0(?:_?0)*|[1-9](?:_?\d)*)$/;
const NUMBER_RE = /^(?:\d(?:_?\d)*)?(?:\.(?:\d(?:_?\d)*)?)?(?:[eE][+-]?\d(?:_?\d)*)?/;

function readNumber(src: string, i: number): { text: string; value: ConstValue; end: number } {
  const rest = src.slice(i);
  const radix = /^0([xXoObB])((?:_?[0-9a-fA-F])+)/.exec(rest);
  if (radix) {
    const base = { x: 16, o: 8, b: 2 }[(radix[1] as string).toLowerCase() as 'x' | 'o' | 'b'];
    const digits = (radix[2] as string).replace(/_/g, '');
    const n = parseInt(digits, base);
    if (Number.isNaN(n) || digits.split('').some((d) => parseInt(d, base) >= base || Number.isNaN(parseInt(d, base)))) {
      throw syntaxError(`invalid number ${radix[0]}`);
    }
    return { text: radix[0], value: n, end: i + radix[0].length };
  }
  const m = NUMBER_RE.exec(rest);
  const text = m ? m[0] : '';
  if (text === '' || text === '.') throw syntaxError('invalid number');
  const end = i + text.length;
  if (/[a-zA-Z_]/.test(src[end] ?? '')) {
    if (/[jJ]/.test(src[end] ?? '')) throw unsupported('a complex number');
    throw syntaxError(`invalid number ${text}${src[end] ?? ''}`);
  }
  const clean = text.replace(/_/g, '');
  if (/[.eE]/.test(text)) return { text, value: { float: Number(clean) }, end };
  if (!INT_RE.test(text)) throw syntaxError('leading zeros in decimal integer literals are not permitted');
  return { text, value: Number(clean), end };
}

const ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
  '\n': '',
};

function readString(src: string, i: number, raw: boolean): { value: string; end: number } {
  const quote = src[i] as string;
  if (src.startsWith(quote.repeat(3), i)) throw unsupported('a triple-quoted string');
  let out = '';
  let j = i + 1;
  while (j < src.length) {
    const c = src[j] as string;
    if (c === quote) return { value: out, end: j + 1 };
    if (c === '\\' && j + 1 < src.length) {
      const n = src[j + 1] as string;
      if (raw) {
        out += c + n;
        j += 2;
        continue;
      }
      const hexLen = n === 'x' ? 2 : n === 'u' ? 4 : n === 'U' ? 8 : 0;
      if (hexLen > 0) {
        const digits = src.slice(j + 2, j + 2 + hexLen);
        if (!new RegExp(`^[0-9a-fA-F]{${hexLen}}$`).test(digits)) throw syntaxError('truncated \\x, \\u or \\U escape');
        out += String.fromCodePoint(parseInt(digits, 16));
        j += 2 + hexLen;
        continue;
      }
      const e = ESCAPES[n];
      out += e === undefined ? c + n : e;
      j += 2;
      continue;
    }
    out += c;
    j++;
  }
  throw syntaxError('unterminated string literal');
}

function tokenize(src: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === '#') throw syntaxError("'#' starts a comment");
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const n = readNumber(src, i);
      toks.push({ k: 'num', text: n.text, value: n.value });
      i = n.end;
      continue;
    }
    if (c === '"' || c === "'") {
      const s = readString(src, i, false);
      toks.push({ k: 'str', text: src.slice(i, s.end), value: s.value });
      i = s.end;
      continue;
    }
    if (c === '`') {
      const close = src.indexOf('`', i + 1);
      if (close === -1) throw syntaxError('unterminated template');
      toks.push({ k: 'tpl', text: src.slice(i + 1, close) });
      i = close + 1;
      continue;
    }
    if (c === '$') {
      const m = /^\$([\p{L}_][\p{L}\p{N}_]*)/u.exec(src.slice(i));
      if (!m) throw syntaxError("'$' must be followed by a variable name");
      toks.push({ k: 'global', text: m[1] as string });
      i += m[0].length;
      continue;
    }
    const word = /^[\p{L}_][\p{L}\p{N}_]*/u.exec(src.slice(i));
    if (word) {
      const w = word[0];
      const next = src[i + w.length];
      if ((next === '"' || next === "'") && /^[rRuUbBfF]{1,2}$/.test(w)) {
        const lower = w.toLowerCase();
        if (lower.includes('f')) throw unsupported('an f-string');
        if (lower.includes('b')) throw unsupported('a bytes literal');
        const s = readString(src, i + w.length, lower.includes('r'));
        toks.push({ k: 'str', text: src.slice(i, s.end), value: s.value });
        i = s.end;
        continue;
      }
      toks.push({ k: 'name', text: w });
      i += w.length;
      continue;
    }
    const three = src.slice(i, i + 3);
    const two = src.slice(i, i + 2);
    const op = THREE.has(three) ? three : TWO.has(two) ? two : ONE.has(c) ? c : undefined;
    if (op === undefined) throw syntaxError(`invalid character '${c}'`);
    if (UNSUPPORTED_OPS.has(op)) throw unsupported(`the operator '${op}'`);
    toks.push({ k: 'op', text: op });
    i += op.length;
  }
  toks.push({ k: 'end', text: '' });
  return toks;
}

const MAX_DEPTH = 100;

class Parser {
  private pos = 0;
  private depth = 0;

  constructor(private readonly toks: Tok[]) {}

  private peek(o = 0): Tok {
    return this.toks[Math.min(this.pos + o, this.toks.length - 1)] as Tok;
  }
  private isOp(text: string, o = 0): boolean {
    const t = this.peek(o);
    return t.k === 'op' && t.text === text;
  }
  private isWord(text: string, o = 0): boolean {
    const t = this.peek(o);
    return t.k === 'name' && t.text === text;
  }
  private expect(text: string): void {
    if (!this.isOp(text)) throw syntaxError(`expected '${text}'`);
    this.pos++;
  }

  parseAll(): Node {
    const node = this.expressionList();
    const t = this.peek();
    if (t.k !== 'end') {
      if (t.k === 'op' && (t.text === '=' || t.text.endsWith('='))) throw syntaxError('invalid syntax');
      if (t.k === 'name' && KEYWORDS_UNSUPPORTED.has(t.text)) throw unsupported(`'${t.text}'`);
      throw syntaxError(`invalid syntax near '${t.text}'`);
    }
    return node;
  }

  /** `a, b` at the top level is a tuple, as in Python. */
  private expressionList(): Node {
    const first = this.expression();
    if (!this.isOp(',')) return first;
    const items = [first];
    while (this.isOp(',')) {
      this.pos++;
      if (this.peek().k === 'end') break;
      items.push(this.expression());
    }
    return { t: 'tuple', items };
  }

  private expression(): Node {
    if (++this.depth > MAX_DEPTH) throw unsupported(`an expression nested more than ${MAX_DEPTH} levels deep`);
    if (this.isWord('lambda')) throw unsupported('lambda');
    const body = this.orExpr();
    let node = body;
    if (this.isWord('if')) {
      this.pos++;
      const test = this.orExpr();
      if (!this.isWord('else')) throw syntaxError("expected 'else' after the condition");
      this.pos++;
      node = { t: 'ifexp', test, body, orelse: this.expression() };
    }
    this.depth--;
    return node;
  }

  private orExpr(): Node {
    let left = this.andExpr();
    while (this.isWord('or')) {
      this.pos++;
      left = { t: 'bool', op: 'or', left, right: this.andExpr() };
    }
    return left;
  }

  private andExpr(): Node {
    let left = this.notExpr();
    while (this.isWord('and')) {
      this.pos++;
      left = { t: 'bool', op: 'and', left, right: this.notExpr() };
    }
    return left;
  }

  private notExpr(): Node {
    if (this.isWord('not')) {
      this.pos++;
      if (++this.depth > MAX_DEPTH) throw unsupported('an expression nested too deeply');
      const operand = this.notExpr();
      this.depth--;
      return { t: 'unary', op: 'not', operand };
    }
    return this.comparison();
  }

  private compareOp(): CompareOp | undefined {
    const t = this.peek();
    if (t.k === 'op' && ['==', '!=', '<', '>', '<=', '>='].includes(t.text)) {
      this.pos++;
      return t.text as CompareOp;
    }
    if (this.isWord('in')) {
      this.pos++;
      return 'in';
    }
    if (this.isWord('not') && this.isWord('in', 1)) {
      this.pos += 2;
      return 'not in';
    }
    if (this.isWord('is')) {
      this.pos++;
      if (this.isWord('not')) {
        this.pos++;
        return 'is not';
      }
      return 'is';
    }
    return undefined;
  }

  private comparison(): Node {
    const first = this.sum();
    const ops: CompareOp[] = [];
    const rest: Node[] = [];
    for (let op = this.compareOp(); op !== undefined; op = this.compareOp()) {
      ops.push(op);
      rest.push(this.sum());
    }
    return ops.length === 0 ? first : { t: 'compare', first, ops, rest };
  }

  private sum(): Node {
    let left = this.term();
    while (this.isOp('+') || this.isOp('-')) {
      const op = this.peek().text as BinOp;
      this.pos++;
      left = { t: 'bin', op, left, right: this.term() };
    }
    return left;
  }

  private term(): Node {
    let left = this.unary();
    while (this.isOp('*') || this.isOp('/') || this.isOp('%')) {
      const op = this.peek().text as BinOp;
      this.pos++;
      left = { t: 'bin', op, left, right: this.unary() };
    }
    return left;
  }

  private unary(): Node {
    if (this.isOp('-') || this.isOp('+')) {
      const op = this.peek().text as '-' | '+';
      this.pos++;
      if (++this.depth > MAX_DEPTH) throw unsupported('an expression nested too deeply');
      const operand = this.unary();
      this.depth--;
      return { t: 'unary', op, operand };
    }
    return this.power();
  }

  private power(): Node {
    const base = this.postfix();
    if (this.isOp('**')) {
      this.pos++;
      return { t: 'bin', op: '**', left: base, right: this.unary() };
    }
    return base;
  }

  private postfix(): Node {
    let node = this.primary();
    for (;;) {
      if (this.isOp('(')) {
        if (node.t !== 'name') throw unsupported('calling something other than str, int, float or len');
        node = { t: 'call', callee: node.id, args: this.callArgs() };
      } else if (this.isOp('[')) {
        this.pos++;
        node = this.subscript(node);
      } else if (this.isOp('.')) {
        this.pos++;
        const name = this.peek();
        if (name.k !== 'name') throw syntaxError("expected a name after '.'");
        this.pos++;
        node = { t: 'attr', obj: node, name: name.text };
      } else {
        return node;
      }
    }
  }

  private callArgs(): Node[] {
    this.pos++; // (
    const args: Node[] = [];
    while (!this.isOp(')')) {
      if (this.peek().k === 'end') throw syntaxError("missing ')'");
      if (this.isOp('*') || this.isOp('**')) throw unsupported('unpacking arguments');
      if (this.peek().k === 'name' && this.isOp('=', 1)) throw unsupported('keyword arguments');
      args.push(this.expression());
      if (this.isWord('for')) throw unsupported('a generator expression');
      if (!this.isOp(',')) break;
      this.pos++;
    }
    this.expect(')');
    return args;
  }

  private subscript(obj: Node): Node {
    let lo: Node | undefined;
    if (!this.isOp(':')) lo = this.expression();
    if (this.isOp(':')) {
      this.pos++;
      let hi: Node | undefined;
      if (!this.isOp(']') && !this.isOp(':')) hi = this.expression();
      if (this.isOp(':')) throw unsupported('a slice with a step');
      this.expect(']');
      return { t: 'slice', obj, lo, hi };
    }
    this.expect(']');
    return { t: 'index', obj, key: lo as Node };
  }

  private sequence(close: string): { items: Node[]; trailingComma: boolean } {
    const items: Node[] = [];
    let trailingComma = false;
    while (!this.isOp(close)) {
      if (this.peek().k === 'end') throw syntaxError(`missing '${close}'`);
      if (this.isOp('*')) throw unsupported('unpacking');
      items.push(this.expression());
      if (this.isWord('for')) throw unsupported('a comprehension');
      trailingComma = false;
      if (!this.isOp(',')) break;
      this.pos++;
      trailingComma = true;
    }
    this.expect(close);
    return { items, trailingComma };
  }

  private dictionary(): Node {
    this.pos++; // {
    const keys: Node[] = [];
    const values: Node[] = [];
    while (!this.isOp('}')) {
      if (this.peek().k === 'end') throw syntaxError("missing '}'");
      if (this.isOp('**')) throw unsupported('unpacking');
      const key = this.expression();
      if (!this.isOp(':')) {
        if (this.isOp(',') || this.isOp('}')) throw unsupported('a set literal');
        if (this.isWord('for')) throw unsupported('a comprehension');
        throw syntaxError("expected ':' in a dictionary");
      }
      this.pos++;
      keys.push(key);
      values.push(this.expression());
      if (this.isWord('for')) throw unsupported('a comprehension');
      if (!this.isOp(',')) break;
      this.pos++;
    }
    this.expect('}');
    return { t: 'dict', keys, values };
  }

  private primary(): Node {
    const t = this.peek();
    switch (t.k) {
      case 'num':
        this.pos++;
        return { t: 'const', value: t.value as ConstValue };
      case 'str': {
        // Adjacent strings concatenate, as in Python.
        let value = t.value as string;
        this.pos++;
        while (this.peek().k === 'str') {
          value += this.peek().value as string;
          this.pos++;
        }
        return { t: 'const', value };
      }
      case 'tpl':
        this.pos++;
        return { t: 'template', raw: t.text };
      case 'global':
        this.pos++;
        return { t: 'global', id: t.text };
      case 'name':
        this.pos++;
        switch (t.text) {
          case 'None':
            return { t: 'const', value: null };
          case 'True':
            return { t: 'const', value: true };
          case 'False':
            return { t: 'const', value: false };
          case 'and':
          case 'or':
          case 'in':
          case 'is':
          case 'if':
          case 'else':
          case 'not':
            throw syntaxError(`unexpected '${t.text}'`);
          default:
            if (KEYWORDS_UNSUPPORTED.has(t.text)) throw unsupported(`'${t.text}'`);
            return { t: 'name', id: t.text };
        }
      case 'op':
        if (t.text === '(') {
          this.pos++;
          if (this.isOp(')')) {
            this.pos++;
            return { t: 'tuple', items: [] };
          }
          const first = this.expression();
          if (this.isWord('for')) throw unsupported('a generator expression');
          if (this.isOp(')')) {
            this.pos++;
            return first;
          }
          this.expect(',');
          const rest = this.isOp(')') ? { items: [] } : this.sequence(')');
          if (rest.items.length === 0) this.expect(')');
          return { t: 'tuple', items: [first, ...rest.items] };
        }
        if (t.text === '[') {
          this.pos++;
          return { t: 'list', items: this.sequence(']').items };
        }
        if (t.text === '{') return this.dictionary();
        throw syntaxError(`unexpected '${t.text}'`);
      default:
        throw syntaxError('unexpected end of expression');
    }
  }
}

/** Parses an expression; throws a RunFailure (SyntaxError, or not supported). */
export function parseExpression(text: string): Node {
  return new Parser(tokenize(text)).parseAll();
}

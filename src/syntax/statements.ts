/**
 * One physical line → one statement. The tokens come from the parser's scanner
 * and calls are split by its call splitter, so the tree reads arguments exactly
 * as the validator does (ruling 2: raw text between top-level commas, empty
 * arguments kept). Nothing here throws: a line it cannot read is `unparsed`.
 */
import { findCommand } from '../parser/catalogue';
import {
  firstOf,
  isOp,
  isPunct,
  lastOf,
  matchBracket,
  parseCall,
  tokenAt,
  TokenKind,
  type CallArg,
  type Token,
} from '../parser/lexical';
import type { BlockRole, CallStatement, Name, Span, Statement, SyntaxArgument } from './types';

/** Calls of these names on the right of `=` are expressions (`n = len(items)`), not commands with a target. */
const EXPRESSION_BUILTINS = new Set(['str', 'int', 'float', 'len']);

export interface LineInput {
  readonly src: string;
  readonly line: number;
  readonly lineStart: number;
  readonly lineEnd: number;
  readonly tokens: readonly Token[];
  /** The line lies inside (or opens) a block comment. */
  readonly inComment: boolean;
  /** The scanner found an unterminated string on this line. */
  readonly unterminated: boolean;
}

function span(start: number, end: number): Span {
  return { start, end };
}

/** A name; its span is the token itself (a token has the span's start and end), one object fewer per name. */
function nameOf(t: Token): Name {
  return { text: t.text, span: t };
}

function argumentOf(a: CallArg): SyntaxArgument {
  const text = a.text.trim();
  // The call splitter's argument has the span's start and end: it serves as the span.
  if (text === a.text || text === '') return { text, span: a };
  // An unterminated string runs to the end of the line, blanks included: the argument is its text without them.
  const lead = a.text.length - a.text.trimStart().length;
  const trail = a.text.length - a.text.trimEnd().length;
  return { text, span: span(a.start + lead, a.end - trail) };
}

/** Where the comment after the last token starts (`//` or `/*`), or -1. */
function commentAfter(src: string, from: number, lineEnd: number): number {
  let i = from;
  while (i < lineEnd) {
    const c = src.charCodeAt(i);
    if (c === 32 || c === 9) {
      i++;
      continue;
    }
    if (c === 47 && i + 1 < lineEnd) {
      const n = src.charCodeAt(i + 1);
      if (n === 47 || n === 42) return i;
    }
    if (c === 35) return i; // a foreign `#` comment: the scanner stopped there too
    return -1;
  }
  return -1;
}

/** A top-level `;` (statements separated on one line are not AVAP). */
function hasTopLevelSemicolon(tokens: readonly Token[]): boolean {
  let depth = 0;
  for (const t of tokens) {
    if (t.kind !== TokenKind.Punct) continue;
    const x = t.text;
    if (x === '(' || x === '[' || x === '{') depth++;
    else if (x === ')' || x === ']' || x === '}') depth = Math.max(0, depth - 1);
    else if (x === ';' && depth === 0) return true;
  }
  return false;
}

function roleOf(name: string): BlockRole | undefined {
  const spec = findCommand(name);
  return spec?.block;
}

/** Reads one line into its statement. */
export function readStatement(input: LineInput): Statement {
  const { src, line, lineStart, lineEnd, tokens } = input;
  if (tokens.length === 0) {
    const text = src.slice(lineStart, lineEnd);
    const from = lineStart + (text.length - text.trimStart().length);
    const to = lineStart + text.trimEnd().length;
    const blank = from >= to;
    return blank && !input.inComment
      ? { kind: 'blank', line, span: span(lineStart, lineStart) }
      : { kind: 'comment', line, span: span(from, Math.max(from, to)) };
  }
  const first = firstOf(tokens);
  const last = lastOf(tokens);
  const whole = span(first.start, last.end);
  const commentAt = commentAfter(src, last.end, lineEnd);
  const comment =
    commentAt >= 0 ? span(commentAt, lineStart + src.slice(lineStart, lineEnd).trimEnd().length) : undefined;
  const base = comment ? { line, span: whole, comment } : { line, span: whole };

  if (hasTopLevelSemicolon(tokens))
    return unparsedOf(src, base, "more than one statement on the line (';' is not AVAP)");
  const t1 = tokens[1];
  if (first.kind === TokenKind.Punct && (first.text === '{' || first.text === '}')) {
    if (tokens.length === 1) return { kind: first.text === '{' ? 'open-brace' : 'close-brace', ...base };
    return unparsedOf(src, base, `unexpected text after '${first.text}'`);
  }
  if (first.kind !== TokenKind.Ident) return unparsedOf(src, base, 'expected a command call or an assignment');

  if (isOp(t1, '=')) return readAssignment(input, base);
  if (first.text === 'function') return readFunction(input, base);
  if (first.text === 'return') {
    const rest = tokens[1];
    const value = rest ? { text: src.slice(rest.start, last.end), span: span(rest.start, last.end) } : undefined;
    return value
      ? { kind: 'return', ...base, keyword: span(first.start, first.end), value }
      : { kind: 'return', ...base, keyword: span(first.start, first.end) };
  }
  if (isPunct(t1, '(')) return readCall(input, 1, base, undefined) ?? unparsedOf(src, base, 'expected a command call');
  return unparsedOf(src, base, 'expected a command call or an assignment');
}

type Base = { line: number; span: Span; comment?: Span };

function unparsedOf(src: string, base: Base, reason: string): Statement {
  return { kind: 'unparsed', ...base, text: src.slice(base.span.start, base.span.end), reason };
}

function readAssignment(input: LineInput, base: Base): Statement {
  const { src, tokens } = input;
  const target = firstOf(tokens);
  const r0 = tokens[2];
  if (!r0) return unparsedOf(src, base, `missing value after '=' in the assignment to '${target.text}'`);
  const last = lastOf(tokens);
  if (r0.kind === TokenKind.Ident && isPunct(tokens[3], '(') && !EXPRESSION_BUILTINS.has(r0.text)) {
    const close = matchBracket(tokens, 3);
    if (close === tokens.length - 1 || close === -1) {
      const call = readCall(input, 3, base, nameOf(target));
      if (call) return call;
    }
  }
  const value = { text: src.slice(r0.start, last.end), span: span(r0.start, last.end) };
  const flaw = input.unterminated ? 'unterminated string' : undefined;
  return flaw
    ? { kind: 'assign', ...base, target: nameOf(target), value, flaw }
    : { kind: 'assign', ...base, target: nameOf(target), value };
}

function readCall(
  input: LineInput,
  openIndex: number,
  base: Base,
  target: Name | undefined,
): CallStatement | undefined {
  const { src, tokens, lineEnd } = input;
  const nameToken = tokenAt(tokens, openIndex - 1);
  if (nameToken.kind !== TokenKind.Ident) return undefined;
  const call = parseCall(src, tokens, openIndex, lineEnd);
  const open = tokenAt(tokens, openIndex);
  const closeToken = call.closeIndex >= 0 ? tokenAt(tokens, call.closeIndex) : undefined;
  const afterClose = call.closeIndex >= 0 ? tokens[call.closeIndex + 1] : undefined;
  const lastToken = lastOf(tokens);
  let flaw: string | undefined;
  if (input.unterminated) flaw = 'unterminated string';
  else if (call.problem?.kind === 'unclosed') flaw = "missing ')'";
  else if (call.problem?.kind === 'mismatched') flaw = `mismatched '${call.problem.token.text}'`;
  const role = roleOf(nameToken.text);
  const statement: CallStatement = {
    kind: 'call',
    ...base,
    name: nameOf(nameToken),
    args: call.args.map(argumentOf),
    open: span(open.start, open.end),
    ...(closeToken ? { close: span(closeToken.start, closeToken.end) } : {}),
    ...(target ? { target } : {}),
    ...(role ? { role } : {}),
    ...(afterClose ? { trailing: span(afterClose.start, lastToken.end) } : {}),
    ...(flaw ? { flaw } : {}),
  };
  return statement;
}

function readFunction(input: LineInput, base: Base): Statement {
  const { src, tokens } = input;
  const nameToken = tokens[1];
  if (!nameToken || nameToken.kind !== TokenKind.Ident)
    return unparsedOf(src, base, "expected a function name after 'function'");
  if (!isPunct(tokens[2], '('))
    return unparsedOf(src, base, `expected '(' after the function name '${nameToken.text}'`);
  const close = matchBracket(tokens, 2);
  if (close === -1) return unparsedOf(src, base, `missing ')' in the parameter list of '${nameToken.text}'`);
  const params: Name[] = [];
  let expectName = true;
  for (let i = 3; i < close; i++) {
    const t = tokenAt(tokens, i);
    if (expectName && t.kind === TokenKind.Ident) {
      params.push(nameOf(t));
      expectName = false;
    } else if (!expectName && isPunct(t, ',')) {
      expectName = true;
    } else {
      return unparsedOf(src, base, `function parameters are plain names, got '${t.text}'`);
    }
  }
  if (expectName && params.length > 0) return unparsedOf(src, base, 'empty function parameter');
  const rest = tokens.slice(close + 1);
  const brace = rest[0];
  if (rest.length > 1 || (brace && !isPunct(brace, '{'))) {
    return unparsedOf(src, base, `unexpected text after the parameter list of '${nameToken.text}'`);
  }
  return brace
    ? { kind: 'function', ...base, name: nameOf(nameToken), params, brace: span(brace.start, brace.end) }
    : { kind: 'function', ...base, name: nameOf(nameToken), params };
}

/**
 * Splits `name(arg, arg, ...)` into arguments. Per ruling 2 an argument is the
 * raw text between top-level commas: quotes, backticks, brackets, braces and
 * parentheses nest inside it, and empty arguments keep their position.
 */
import { TokenKind, type Token } from './scanner';
import { tokenAt } from './cursor';

export interface CallArg {
  /** Index of the first token of the argument, and one past its last. */
  first: number;
  last: number;
  /** Source offsets of the raw text (for an empty argument, start === end). */
  start: number;
  end: number;
  /** Raw text, trimmed. */
  text: string;
}

interface BracketProblem {
  kind: 'mismatched' | 'unclosed';
  token: Token;
  /** For `mismatched`, the bracket that was expected to close. */
  expected?: string;
}

export interface ParsedCall {
  nameIndex: number;
  openIndex: number;
  /** Index of the matching `)`, or -1 when the line ends first. */
  closeIndex: number;
  args: CallArg[];
  /** First problem found while matching brackets, if any. */
  problem?: BracketProblem;
}

/** The closer of an opening bracket. */
function closerOf(open: string): string {
  return open === '(' ? ')' : open === '[' ? ']' : '}';
}

export function isOpenBracket(t: Token): boolean {
  return t.kind === TokenKind.Punct && (t.text === '(' || t.text === '[' || t.text === '{');
}

export function isCloseBracket(t: Token): boolean {
  return t.kind === TokenKind.Punct && (t.text === ')' || t.text === ']' || t.text === '}');
}

/** One argument: tokens[first, last) (at least one) as raw text; read directly, this runs for every argument. */
function tokenArg(src: string, tokens: readonly Token[], first: number, last: number): CallArg {
  const a = tokens[first];
  const b = tokens[last - 1];
  if (a === undefined || b === undefined) return emptyArg(first, src.length, src.length); // past the line: none
  // A one-token argument's text is the token's own: no second copy of it.
  return { first, last, start: a.start, end: b.end, text: a === b ? a.text : src.slice(a.start, b.end) };
}

/** An empty argument before token `first`, at [startOffset, endOffset) of the source. */
function emptyArg(first: number, startOffset: number, endOffset: number): CallArg {
  return { first, last: first, start: startOffset, end: Math.max(startOffset, endOffset), text: '' };
}

/**
 * Parses the call whose `(` is at `openIndex` (the name just before it).
 * `lineEnd` is the source offset of the end of the line, used for the position
 * of a trailing empty argument when the `)` is missing.
 */
export function parseCall(src: string, tokens: readonly Token[], openIndex: number, lineEnd: number): ParsedCall {
  const args: CallArg[] = [];
  const open = tokens[openIndex];
  // Callers give the index of a `(` of the line (read directly: this runs for every call); past the line, no call.
  if (open === undefined) return { nameIndex: openIndex - 1, openIndex, closeIndex: -1, args };
  let argFirst = openIndex + 1;
  let argStartOffset = open.end;
  let problem: BracketProblem | undefined;
  let closeIndex = -1;
  /** Openers inside the call's own `(`; most calls have none, so the stack is made on the first. */
  let stack: string[] | undefined;

  let i = openIndex + 1;
  for (; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === undefined) break;
    if (t.kind !== TokenKind.Punct) continue;
    const text = t.text;
    if (text === ',') {
      if (stack === undefined || stack.length === 0) {
        args.push(i > argFirst ? tokenArg(src, tokens, argFirst, i) : emptyArg(argFirst, argStartOffset, t.start));
        argFirst = i + 1;
        argStartOffset = t.end;
      }
      continue;
    }
    if (text === '(' || text === '[' || text === '{') {
      (stack ??= []).push(text);
      continue;
    }
    if (text === ')' || text === ']' || text === '}') {
      // The call's own `(` sits under the openers in `stack`.
      const expected = stack !== undefined && stack.length > 0 ? closerOf(stack[stack.length - 1] as string) : ')';
      if (text !== expected) {
        problem ??= { kind: 'mismatched', token: t, expected };
        // Recover: pop until a matching opener, or ignore a stray closer.
        const opener = text === ')' ? '(' : text === ']' ? '[' : '{';
        const at = stack === undefined ? -1 : stack.lastIndexOf(opener);
        if (at === -1) {
          if (opener !== '(') continue;
          // The call's own `(` matches: everything above it is dropped.
          closeIndex = i;
          break;
        }
        (stack as string[]).length = at;
        continue;
      }
      if (stack === undefined || stack.length === 0) {
        closeIndex = i;
        break;
      }
      stack.pop();
    }
  }

  const lastArgEnd = closeIndex === -1 ? tokens.length : closeIndex;
  // `f()` has no arguments, not one empty argument.
  if (args.length > 0 || lastArgEnd > argFirst) {
    args.push(
      lastArgEnd > argFirst
        ? tokenArg(src, tokens, argFirst, lastArgEnd)
        : emptyArg(argFirst, argStartOffset, closeIndex === -1 ? lineEnd : tokenAt(tokens, closeIndex).start),
    );
  }
  if (closeIndex === -1) problem ??= { kind: 'unclosed', token: open };
  return { nameIndex: openIndex - 1, openIndex, closeIndex, args, problem };
}

/**
 * The closers matchBracket expects, innermost last (up to its own count): one list for every call (it calls nothing
 * and is never re-entered), written over and never emptied (an emptied array gives its room back). A list per call
 * was an empty array whose first push reserves 17 items, on every function header and call the analysis matches.
 */
const expected: string[] = [];

/** Finds the matching closer of the bracket at `openIndex` on the line, or -1. */
export function matchBracket(tokens: readonly Token[], openIndex: number): number {
  let depth = 0;
  let found = -1;
  for (let i = openIndex; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === undefined) break;
    if (t.kind !== TokenKind.Punct) continue;
    if (isOpenBracket(t)) expected[depth++] = closerOf(t.text);
    else if (isCloseBracket(t)) {
      if (depth === 0 || expected[depth - 1] !== t.text) break;
      depth--;
      if (depth === 0) {
        found = i;
        break;
      }
    }
  }
  // A line of many open brackets leaves no long list behind.
  if (expected.length > 64) expected.length = 0;
  return found;
}

const IDENT_RE = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u;

/** True for a plain identifier such as `user_id` or `año`. */
export function isIdentifier(text: string): boolean {
  // ASCII decides without the Unicode regex: letters or `_` first, then letters, digits, `_`.
  const n = text.length;
  if (n === 0) return false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return IDENT_RE.test(text);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    if (!letter && (i === 0 || c < 48 || c > 57)) return false;
  }
  return true;
}

/**
 * The argument is a plain identifier: one identifier token (the scanner's identifiers are exactly the texts
 * `isIdentifier` accepts, and an argument of more tokens never is one), told without reading its text again.
 */
export function isIdentifierArg(tokens: readonly Token[], arg: CallArg): boolean {
  return arg.last - arg.first === 1 && tokens[arg.first]?.kind === TokenKind.Ident;
}

/** A one-token argument that is a quoted identifier: "name" or 'name'. */
export function quotedIdentifier(tokens: readonly Token[], arg: CallArg): string | undefined {
  if (arg.last - arg.first !== 1) return undefined;
  const t = tokenAt(tokens, arg.first);
  if (t.kind !== TokenKind.String || t.unterminated) return undefined;
  const inner = t.text.slice(1, -1);
  return isIdentifier(inner) ? inner : undefined;
}

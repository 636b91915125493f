/**
 * Splits `name(arg, arg, ...)` into arguments. Per ruling 2 an argument is the
 * raw text between top-level commas: quotes, backticks, brackets, braces and
 * parentheses nest inside it, and empty arguments keep their position.
 */
import { TokenKind, type Token } from './scanner';

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

export interface BracketProblem {
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

const CLOSER: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

export function isOpenBracket(t: Token): boolean {
  return t.kind === TokenKind.Punct && (t.text === '(' || t.text === '[' || t.text === '{');
}

export function isCloseBracket(t: Token): boolean {
  return t.kind === TokenKind.Punct && (t.text === ')' || t.text === ']' || t.text === '}');
}

/**
 * Parses the call whose `(` is at `openIndex` (the name just before it).
 * `lineEnd` is the source offset of the end of the line, used for the position
 * of a trailing empty argument when the `)` is missing.
 */
export function parseCall(src: string, tokens: readonly Token[], openIndex: number, lineEnd: number): ParsedCall {
  const args: CallArg[] = [];
  const stack: string[] = ['('];
  const open = tokens[openIndex] as Token;
  let argFirst = openIndex + 1;
  let argStartOffset = open.end;
  let problem: BracketProblem | undefined;
  let closeIndex = -1;

  const pushArg = (lastExclusive: number, endOffset: number) => {
    if (lastExclusive > argFirst) {
      const a = tokens[argFirst] as Token;
      const b = tokens[lastExclusive - 1] as Token;
      args.push({ first: argFirst, last: lastExclusive, start: a.start, end: b.end, text: src.slice(a.start, b.end) });
    } else {
      args.push({ first: argFirst, last: argFirst, start: argStartOffset, end: Math.max(argStartOffset, endOffset), text: '' });
    }
  };

  let i = openIndex + 1;
  for (; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.kind !== TokenKind.Punct) continue;
    if (isOpenBracket(t)) {
      stack.push(t.text);
      continue;
    }
    if (isCloseBracket(t)) {
      const expected = CLOSER[stack[stack.length - 1] as string];
      if (t.text !== expected) {
        problem ??= { kind: 'mismatched', token: t, expected };
        // Recover: pop until a matching opener, or ignore a stray closer.
        const at = stack.lastIndexOf(t.text === ')' ? '(' : t.text === ']' ? '[' : '{');
        if (at === -1) continue;
        stack.length = at;
      } else {
        stack.pop();
      }
      if (stack.length === 0) {
        closeIndex = i;
        break;
      }
      continue;
    }
    if (t.text === ',' && stack.length === 1) {
      pushArg(i, t.start);
      argFirst = i + 1;
      argStartOffset = t.end;
    }
  }

  if (closeIndex === -1) {
    pushArg(tokens.length, lineEnd);
    problem ??= { kind: 'unclosed', token: open };
  } else {
    pushArg(closeIndex, (tokens[closeIndex] as Token).start);
  }
  // `f()` has no arguments, not one empty argument.
  if (args.length === 1 && args[0]?.text === '') args.length = 0;
  return { nameIndex: openIndex - 1, openIndex, closeIndex, args, problem };
}

/** Finds the matching closer of the bracket at `openIndex` on the line, or -1. */
export function matchBracket(tokens: readonly Token[], openIndex: number): number {
  const stack: string[] = [];
  for (let i = openIndex; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.kind !== TokenKind.Punct) continue;
    if (isOpenBracket(t)) stack.push(CLOSER[t.text] as string);
    else if (isCloseBracket(t)) {
      if (stack[stack.length - 1] === t.text) stack.pop();
      else return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

const IDENT_RE = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u;

/** True for a plain identifier such as `user_id` or `año`. */
export function isIdentifier(text: string): boolean {
  return IDENT_RE.test(text);
}

/** A one-token argument that is a quoted identifier: "name" or 'name'. */
export function quotedIdentifier(tokens: readonly Token[], arg: CallArg): string | undefined {
  if (arg.last - arg.first !== 1) return undefined;
  const t = tokens[arg.first] as Token;
  if (t.kind !== TokenKind.String || t.unterminated) return undefined;
  const inner = t.text.slice(1, -1);
  return isIdentifier(inner) ? inner : undefined;
}

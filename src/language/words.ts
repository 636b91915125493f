/**
 * Words under the cursor, what the text before it says about where a
 * completion goes, and the names an argument's or expression's text holds.
 * Text helpers over the parser's scanner; what a name means is decided by the
 * symbol index (./symbols.ts).
 */
import { newScanState, scanLine, tokenAt, TokenKind, type Token } from '../parser/lexical';
import type { LineMap, Position, Range } from './text';

const isWordChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/** The identifier-like word (`[A-Za-z_][A-Za-z0-9_]*`) at or right before `p`, with its range; undefined off a word. */
export function wordAt(lines: LineMap, p: Position): { text: string; range: Range } | undefined {
  const text = lines.lineText(p.line);
  let start = Math.min(Math.max(0, p.character), text.length);
  let end = start;
  while (start > 0 && isWordChar(text.charCodeAt(start - 1))) start--;
  while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
  if (end === start) return undefined;
  const c = text.charCodeAt(start);
  if (c >= 48 && c <= 57) return undefined;
  return {
    text: text.slice(start, end),
    range: { start: { line: p.line, character: start }, end: { line: p.line, character: end } },
  };
}

/**
 * Where the cursor stands for completion, from its line's text before it: at
 * the start of a statement (or after `x = `), where a command or a user
 * function goes; or anywhere else, where a value goes.
 */
export function completionSite(lineBefore: string): 'statement' | 'value' {
  return /^\s*(?:[A-Za-z_$][A-Za-z0-9_]*\s*=\s*)?[A-Za-z_]*$/.test(lineBefore) ? 'statement' : 'value';
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const isIdentifierText = (text: string): boolean => IDENTIFIER.test(text);

/** Words that are never variable names. */
export const NOT_A_VARIABLE: ReadonlySet<string> = new Set([
  'None',
  'True',
  'False',
  'true',
  'false',
  'and',
  'or',
  'not',
  'in',
  'is',
]);

/**
 * An argument that is one word, bare (`page`) or quoted (`"page"`, `'page'`):
 * the word and where it stands. Quotes are stripped before a command sees an
 * argument, so both resolve to a variable of that name when one is set.
 */
export interface ArgumentWord {
  readonly word: string;
  readonly start: number;
  readonly end: number;
  readonly quoted: boolean;
}

export function argumentWord(text: string, start: number): ArgumentWord | undefined {
  if (IDENTIFIER.test(text)) return { word: text, start, end: start + text.length, quoted: false };
  const q = text.charCodeAt(0);
  if (text.length >= 3 && (q === 34 || q === 39) && text.charCodeAt(text.length - 1) === q) {
    const inner = text.slice(1, -1);
    if (IDENTIFIER.test(inner)) return { word: inner, start: start + 1, end: start + 1 + inner.length, quoted: true };
  }
  return undefined;
}

/** A name an expression reads: a bare identifier, `$name` (a global inside a function) or `${name}` in a template. */
export interface NameUse {
  readonly name: string;
  readonly start: number;
  readonly end: number;
  readonly how: 'bare' | 'global' | 'template';
  /** The identifier is called (`f(…)`). */
  readonly called: boolean;
  /** For a template placeholder: the `${` … `}` around the name. */
  readonly delimiters?: readonly [number, number, number, number];
}

const PLACEHOLDER = /\$\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}/g;

function templateUses(t: Token, out: NameUse[]): void {
  PLACEHOLDER.lastIndex = 0;
  for (let m = PLACEHOLDER.exec(t.text); m !== null; m = PLACEHOLDER.exec(t.text)) {
    const name = m[1] as string;
    const open = t.start + m.index;
    const nameStart = open + m[0].indexOf(name);
    const close = open + m[0].length;
    out.push({
      name,
      start: nameStart,
      end: nameStart + name.length,
      how: 'template',
      called: false,
      delimiters: [open, open + 2, close - 1, close],
    });
  }
}

/** The names read by the expression text `src[start, end)` (scanned as the parser scans a line). */
export function namesIn(src: string, start: number, end: number): NameUse[] {
  const out: NameUse[] = [];
  if (end <= start) return out;
  const tokens = scanLine(src, { start, end }, newScanState(), () => undefined);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokenAt(tokens, i);
    if (t.kind === TokenKind.Ident) {
      const prev = tokens[i - 1];
      // A member after a dot (`row.name`) is no variable.
      if (prev && prev.kind === TokenKind.Punct && prev.text === '.') continue;
      if (NOT_A_VARIABLE.has(t.text)) continue;
      const next = tokens[i + 1];
      const called = next !== undefined && next.kind === TokenKind.Punct && next.text === '(';
      out.push({ name: t.text, start: t.start, end: t.end, how: 'bare', called });
    } else if (t.kind === TokenKind.Global && t.text.length > 1) {
      out.push({ name: t.text.slice(1), start: t.start + 1, end: t.end, how: 'global', called: false });
    } else if (t.kind === TokenKind.Template) {
      templateUses(t, out);
    }
  }
  return out;
}

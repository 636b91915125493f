/**
 * Words under the cursor and what the text before it says about where a
 * completion goes. Pure text helpers; what a word means comes from the syntax
 * tree (./analysis.ts).
 */
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

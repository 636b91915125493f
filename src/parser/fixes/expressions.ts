/**
 * Expression-level repairs: `obj.length` → `len(obj)`, `list.push(x)`, Python f-strings, `await`.
 */
import { TokenKind, isPunct, type Token } from '../scanner';
import type { Candidate } from './candidates';
import { tokenAt } from '../cursor';

/** `obj.length` → `len(obj)`. */
export function lengthFix(owner: Token, length: Token): Candidate {
  const text = `len(${owner.text})`;
  return { title: `Rewrite as '${text}'`, edits: [{ start: owner.start, end: length.end, newText: text }] };
}

/** The statement `list.push(item)` (`push` at index i, the statement ending at `to`) → `variableToList(item, list)`, for a single-token item. */
export function pushFix(t: readonly Token[], i: number, to: number): Candidate | undefined {
  const owner = tokenAt(t, i - 2);
  const item = t[i + 2];
  const close = tokenAt(t, i + 3);
  if (!isPunct(t[i + 1], '(') || !item || !isPunct(close, ')') || i + 4 !== to) return undefined;
  if (item.kind !== TokenKind.Ident && item.kind !== TokenKind.Number && item.kind !== TokenKind.String)
    return undefined;
  const text = `variableToList(${item.text}, ${owner.text})`;
  return { title: `Rewrite as '${text}'`, edits: [{ start: owner.start, end: close.end, newText: text }] };
}

const PLACEHOLDER = /\{\s*([\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}_][\p{L}\p{N}_]*)*)\s*\}/gu;

/** A Python f-string `f"Hello {name}"` (the `f` right before the string) → the template `` `Hello ${name}` ``, when every placeholder is a name. */
export function formatStringFix(prefix: Token | undefined, string: Token): Candidate | undefined {
  if (!prefix || prefix.kind !== TokenKind.Ident || !['f', 'F'].includes(prefix.text) || prefix.end !== string.start)
    return undefined;
  if (string.kind !== TokenKind.String || string.unterminated) return undefined;
  const inner = string.text.slice(1, -1);
  if (/[`\\]|\$\{|\{\{|\}\}/.test(inner)) return undefined;
  const template = inner.replace(PLACEHOLDER, (_, name: string) => `\${${name}}`);
  if (/[{}]/.test(template.replace(/\$\{[^}]*\}/g, ''))) return undefined; // an expression in braces: not a name
  const text = `\`${template}\``;
  return { title: `Rewrite as the template ${text}`, edits: [{ start: prefix.start, end: string.end, newText: text }] };
}

/** `await x` → `x`: AVAP calls complete before the next line runs. */
export function removeWordFix(word: Token, next: Token | undefined): Candidate | undefined {
  if (!next) return undefined;
  return { title: `Remove '${word.text}'`, edits: [{ start: word.start, end: next.start, newText: '' }] };
}

/**
 * Small pieces of wording the analysis puts in its messages and fixes:
 * shortened source text, and a literal argument written the way an AVAP
 * expression writes it.
 */
import type { CallArg } from './calls';
import { TokenKind, type Token } from './scanner';
import { tokenAt } from './cursor';

const MAX_SHOWN = 60;

/** Literal words as an AVAP expression writes them (a Map: a program's `toString` must not find Object.prototype's). */
const AVAP_WORDS: ReadonlyMap<string, string> = new Map([
  ['null', 'None'],
  ['true', 'True'],
  ['false', 'False'],
]);

/**
 * A literal argument written as an assignment's value: the words of other
 * languages as AVAP's (`null` → None, `true` → True): an assignment keeps
 * `true` as the text "true", as addVar does (see
 * docs/parser-semantic-warnings.md), so the fix would change nothing.
 */
export function valueLiteral(t: readonly Token[], arg: CallArg): string {
  let out = '';
  for (let i = arg.first; i < arg.last; i++) {
    const x = tokenAt(t, i);
    if (i > arg.first && x.start > tokenAt(t, i - 1).end) out += ' ';
    out += x.kind === TokenKind.Ident ? avapWord(x.text) : x.text;
  }
  return out;
}

/** A word as an AVAP expression writes it (`true` → True); any other word as it is. */
export function avapWord(word: string): string {
  return AVAP_WORDS.get(word) ?? word;
}

/** Shortens long source text for messages. */
export function abbreviate(text: string, max = MAX_SHOWN): string {
  const oneLine = isOneLine(text) ? text : text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

/** No white space but single spaces between words: what abbreviate would leave as it is (most tokens). */
function isOneLine(text: string): boolean {
  const n = text.length;
  if (n === 0) return true;
  if (text.charCodeAt(0) === 32 || text.charCodeAt(n - 1) === 32) return false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (
      c === 32 ? text.charCodeAt(i + 1) === 32 : c < 32 || c === 0xa0 || (c >= 0x1680 && /\s/.test(text[i] as string))
    )
      return false;
  }
  return true;
}

/** `1 argument`, `2 arguments`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

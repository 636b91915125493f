/**
 * Literal values as addVar reads them (pure): None, booleans, numbers, closed strings, and list or dict
 * literals of them.
 */
import type { CallArg } from '../calls';
import { TokenKind, isPunct, type Token } from '../scanner';

/** A Map, not an object literal: a word of the program such as `toString` must not find Object.prototype's members. */
const LITERAL_WORDS: ReadonlyMap<string, string> = new Map([
  ['None', 'null'],
  ['True', 'a boolean'],
  ['False', 'a boolean'],
  ['true', 'a boolean'],
  ['false', 'a boolean'],
]);

/** Another language's null in addVar: text as well, and its value is AVAP's None. */
const FOREIGN_NULL = 'null';

/** What addVar stores the word as text instead of (literalKind of a one-word value), or undefined. */
export function wordLiteralKind(word: string): string | undefined {
  return word === FOREIGN_NULL ? 'null' : LITERAL_WORDS.get(word);
}

/** None or a boolean: a word a list or dict literal holds as a scalar. */
export function isLiteralWord(word: string): boolean {
  return LITERAL_WORDS.has(word);
}

/** A scalar literal: a number, a closed string, None or a boolean. */
function isScalar(x: Token | undefined): boolean {
  return (
    x !== undefined &&
    (x.kind === TokenKind.Number ||
      (x.kind === TokenKind.String && !x.unterminated) ||
      (x.kind === TokenKind.Ident && isLiteralWord(x.text)))
  );
}

/** Index after the literal (scalar, or list / dict literal of literals) starting at `i`, or -1. */
function literalEnd(t: readonly Token[], i: number, end: number, depth = 0): number {
  const x = t[i];
  if (isScalar(x)) return i + 1;
  const list = isPunct(x, '[');
  if ((!list && !isPunct(x, '{')) || depth > 8) return -1;
  const close = list ? ']' : '}';
  let j = i + 1;
  if (isPunct(t[j], close)) return j + 1;
  while (j < end) {
    if (!list) {
      if (!isScalar(t[j]) || !isPunct(t[j + 1], ':')) return -1;
      j += 2;
    }
    j = literalEnd(t, j, end, depth + 1);
    if (j === -1) return -1;
    if (isPunct(t[j], close)) return j + 1;
    if (!isPunct(t[j], ',')) return -1;
    j++;
  }
  return -1;
}

/**
 * What a value argument is when it is a literal the specification's addVar
 * keeps as text: None, a boolean, or a list or dict literal of such literals
 * (`[]`, `[1, 2]`, `{}`, `{"a": [1]}`). Undefined for anything else (text such
 * as a regex class `[a-z]` stays text by intent).
 */
export function literalKind(t: readonly Token[], arg: CallArg): string | undefined {
  const first = t[arg.first];
  if (!first) return undefined;
  if (arg.last - arg.first === 1) return first.kind !== TokenKind.Ident ? undefined : wordLiteralKind(first.text);
  if (literalEnd(t, arg.first, arg.last) !== arg.last) return undefined;
  return collectionKind(isPunct(first, '['), arg.last - arg.first === 2);
}

/** What a list (or else dictionary) literal is, as literalKind names it; `empty` when it is `[]` or `{}`. */
export function collectionKind(list: boolean, empty: boolean): string {
  if (list) return empty ? 'an empty list' : 'a list';
  return empty ? 'an empty dictionary' : 'a dictionary';
}

/**
 * The words the plain reader (plainLines.ts) tells apart, each with a number: its keywords (`if`, `else`, `not`,
 * `and`, `or`, `return`, `function`, `None`), the catalogue's commands, other languages' statement keywords, the
 * words an expression does not take as a name, and the built-ins. A line's tokens carry each identifier's number
 * (plainTokens.ts: the WebAssembly tokenizer looks it up in the hash table built here while it reads the word; the
 * JavaScript tokenizer when the reader first asks), so the reader decides on a number where it compared or looked
 * up text.
 */
import {
  COMMANDS,
  EXPRESSION_BUILTINS,
  FOREIGN_STATEMENT_KEYWORDS,
  FOREIGN_WORDS,
  NameTable,
  type CommandSpec,
} from '../catalogue';
import { FOREIGN_STATEMENT_WORDS } from '../expressions';
import { RESERVED_WORDS } from '../expressionShortcut';

/** The numbers of the reader's keywords; 0 is any word the table does not have. */
export const enum W {
  Other = 0,
  If,
  Else,
  Not,
  And,
  Or,
  Return,
  Function,
  None,
}

/** W's words, in W's order from 1. */
const KEYWORDS = ['if', 'else', 'not', 'and', 'or', 'return', 'function', 'None'];

/** Words an expression does not take as a name: reserved in expressions, or another language's (expressions.ts). */
const NOT_A_NAME_WORDS: ReadonlySet<string> = new Set([
  ...RESERVED_WORDS,
  ...FOREIGN_WORDS,
  ...FOREIGN_STATEMENT_WORDS,
]);
const FOREIGN_KEYWORDS: ReadonlySet<string> = new Set(FOREIGN_STATEMENT_KEYWORDS);
const COMMAND_BY_NAME = new Map(COMMANDS.map((c) => [c.name, c]));

/** Every word, by its number (0: none). */
const WORDS: readonly string[] = [
  '',
  ...new Set([
    ...KEYWORDS,
    ...COMMANDS.map((c) => c.name),
    ...FOREIGN_STATEMENT_KEYWORDS,
    ...NOT_A_NAME_WORDS,
    ...EXPRESSION_BUILTINS,
  ]),
];

/**
 * What a call of the word is, by number: a command (its spec), null for another language's statement keyword
 * (`print(x)`: the analysis reads it as foreign first, even where a command has the name), undefined for neither —
 * a call deferred to the end of the file.
 */
export const CALLABLE: readonly (CommandSpec | null | undefined)[] = WORDS.map((w) =>
  FOREIGN_KEYWORDS.has(w) ? null : COMMAND_BY_NAME.get(w),
);
/** The command of the word, by number (catalogue findCommand). */
export const COMMAND: readonly (CommandSpec | undefined)[] = WORDS.map((w) => COMMAND_BY_NAME.get(w));
/** 1 for a word an expression does not take as a name, by number. */
export const NOT_A_NAME: Uint8Array = Uint8Array.from(WORDS, (w) => (NOT_A_NAME_WORDS.has(w) ? 1 : 0));
/** 1 for a built-in an expression calls, by number. */
export const BUILTIN: Uint8Array = Uint8Array.from(WORDS, (w) => (EXPRESSION_BUILTINS.has(w) ? 1 : 0));

const BY_TEXT = new NameTable<number>(WORDS.slice(1).map((w, i) => [w, i + 1] as const));

/** The number of the word src[start, end), read in place; 0 when it is none of them. */
export function wordAt(src: string, start: number, end: number): number {
  return BY_TEXT.getAt(src, start, end) ?? 0;
}

/** The hash the WebAssembly tokenizer computes of an identifier while it reads it (wasm/plainTokens.ts). */
function wordHash(word: string): number {
  let hash = word.charCodeAt(0);
  for (let i = 1; i < word.length; i++) hash = (Math.imul(hash, 31) + word.charCodeAt(i)) | 0;
  return hash;
}

/** The words' hash table and pool for the WebAssembly tokenizer, laid out as wasm/plainTokens.ts reads them. */
export function wordTable(slots: number, poolBytes: number): { table: Uint8Array; pool: Uint8Array } | undefined {
  const table = new Uint8Array(8 * slots);
  const view = new DataView(table.buffer);
  const pool = new Uint8Array(poolBytes);
  let used = 0;
  for (let word = 1; word < WORDS.length; word++) {
    const text = WORDS[word] as string;
    // Only ASCII words can be a token of a plain line; the pool keeps a word's length in one byte.
    if (!/^[\x21-\x7e]+$/.test(text) || text.length > 255) continue;
    if (used + 1 + text.length > poolBytes || word > 0xffff || used > 0xffff) return undefined;
    pool[used] = text.length;
    for (let i = 0; i < text.length; i++) pool[used + 1 + i] = text.charCodeAt(i);
    const hash = wordHash(text);
    let slot = (hash ^ (hash >>> 16)) & (slots - 1);
    for (let probe = 0; view.getUint16(8 * slot + 4, true) !== 0; probe++) {
      if (probe === slots) return undefined;
      slot = (slot + 1) & (slots - 1);
    }
    view.setInt32(8 * slot, hash, true);
    view.setUint16(8 * slot + 4, word, true);
    view.setUint16(8 * slot + 6, used, true);
    used += 1 + text.length;
  }
  return { table, pool };
}

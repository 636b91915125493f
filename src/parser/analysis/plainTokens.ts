/**
 * The tokens of a plain line (analysis/plainLines.ts): the scanner's tokens (scanner.ts) for the characters a plain
 * line may hold — ASCII, no control character, `#`, `$`, `;`, block comment or unclosed string — read into typed
 * arrays instead of token objects, each identifier with the number of the known word it is (plainWords.ts). A line
 * with anything else is not tokenized here (the answer is -1): the scanner reads it. Two tokenizers give the same
 * tokens: the loop below, and WebAssembly (plainTokensEngine.ts, wasm/plainTokens.ts) for a whole program loaded at
 * once (LineTokens.load).
 */
import { findForeignOperator } from '../catalogue';
import { isBinaryOperator } from '../expressionShortcut';
import { isOperatorStart, OPERATORS2, OPERATORS3, TokenKind, type Token } from '../scanner';
import { TokenizerEngine } from './plainTokensEngine';
import { wordAt, wordTable, type W } from './plainWords';

const CH_TAB = 9;
const CH_SPACE = 32;
const CH_DQUOTE = 34;
const CH_SQUOTE = 39;
const CH_STAR = 42;
const CH_DOT = 46;
const CH_SLASH = 47;
const CH_COLON = 58;
const CH_EQ = 61;
const CH_BACKSLASH = 92;
const CH_BACKTICK = 96;

/** The tokens of a plain line: the scanner's, for the characters a plain line may hold. */
export const enum T {
  /** Past the last token. */
  End = 0,
  Ident,
  Number,
  String,
  Template,
  Open,
  Close,
  OpenBracket,
  CloseBracket,
  OpenBrace,
  CloseBrace,
  Comma,
  Colon,
  Dot,
  /** `=` */
  Assign,
  /** A binary operator an expression takes without a finding (`+` and `-` are signs too). */
  Binary,
}

/** How the tokenizer reads an ASCII character. */
const enum C {
  /** Anything else: the line is not plain. */
  No = 0,
  Space,
  Ident,
  Digit,
  Quote,
  /** One character, one token (brackets, `,`, `.`): PUNCT says which. */
  Punct,
  Colon,
  /** The scanner's operator characters (`=<>+-* /%!?&|`). */
  Op,
  /** LF or CR: the line ends before it. */
  Break,
}

const CLASS: Uint8Array = (() => {
  const table = new Uint8Array(128);
  table[CH_SPACE] = C.Space;
  table[CH_TAB] = C.Space;
  for (let c = 65; c <= 90; c++) table[c] = C.Ident;
  for (let c = 97; c <= 122; c++) table[c] = C.Ident;
  table[95] = C.Ident;
  for (let c = 48; c <= 57; c++) table[c] = C.Digit;
  for (const c of [CH_DQUOTE, CH_SQUOTE, CH_BACKTICK]) table[c] = C.Quote;
  for (const ch of '()[]{},.') table[ch.charCodeAt(0)] = C.Punct;
  table[CH_COLON] = C.Colon;
  for (let c = 0; c < 128; c++) if (c !== CH_COLON && isOperatorStart(c)) table[c] = C.Op;
  table[10] = C.Break;
  table[13] = C.Break;
  return table;
})();

const PUNCT: Uint8Array = (() => {
  const table = new Uint8Array(128);
  const kinds: [string, T][] = [
    ['(', T.Open],
    [')', T.Close],
    ['[', T.OpenBracket],
    [']', T.CloseBracket],
    ['{', T.OpenBrace],
    ['}', T.CloseBrace],
    [',', T.Comma],
    ['.', T.Dot],
  ];
  for (const [ch, kind] of kinds) table[ch.charCodeAt(0)] = kind;
  return table;
})();

/** The scanner's kind of each kind of token here. */
const SCANNER_KIND: readonly TokenKind[] = (() => {
  const kinds: TokenKind[] = [];
  kinds[T.Ident] = TokenKind.Ident;
  kinds[T.Number] = TokenKind.Number;
  kinds[T.String] = TokenKind.String;
  kinds[T.Template] = TokenKind.Template;
  for (const punct of [
    T.Open,
    T.Close,
    T.OpenBracket,
    T.CloseBracket,
    T.OpenBrace,
    T.CloseBrace,
    T.Comma,
    T.Colon,
    T.Dot,
  ])
    kinds[punct] = TokenKind.Punct;
  kinds[T.Assign] = TokenKind.Op;
  kinds[T.Binary] = TokenKind.Op;
  return kinds;
})();

/** The text of each punctuation token. */
const PUNCT_TEXT: readonly string[] = (() => {
  const texts: string[] = [];
  const pairs: [T, string][] = [
    [T.Open, '('],
    [T.Close, ')'],
    [T.OpenBracket, '['],
    [T.CloseBracket, ']'],
    [T.OpenBrace, '{'],
    [T.CloseBrace, '}'],
    [T.Comma, ','],
    [T.Colon, ':'],
    [T.Dot, '.'],
  ];
  for (const [kind, text] of pairs) texts[kind] = text;
  return texts;
})();

/** ASCII letters, digits and `_`: 1. */
const IDENT_PART: Uint8Array = (() => {
  const table = new Uint8Array(128);
  for (let c = 0; c < 128; c++) table[c] = CLASS[c] === C.Ident || CLASS[c] === C.Digit ? 1 : 0;
  return table;
})();

/**
 * The binary operators an expression of a plain line takes: the scanner's operators the expression checker takes
 * between two operands (expressionShortcut.ts isBinaryOperator), none of them another language's.
 */
const BINARY: ReadonlySet<string> = new Set(
  [
    ...OPERATORS2,
    ...Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)).filter((ch) => isOperatorStart(ch.charCodeAt(0))),
  ].filter((op) => isBinaryOperator(op) && findForeignOperator(op) === undefined),
);

/** One-character binary operators taken (by character code): 1. */
const SINGLE: Uint8Array = (() => {
  const table = new Uint8Array(128);
  for (const op of BINARY) if (op.length === 1) table[op.charCodeAt(0)] = 1;
  return table;
})();

/** Two operator characters as the scanner reads them: 0 two operators, 1 one a plain line does not take, 2 one it takes. */
const PAIR: Uint8Array = (() => {
  const table = new Uint8Array(128 * 128);
  for (const op of OPERATORS2) table[op.charCodeAt(0) * 128 + op.charCodeAt(1)] = BINARY.has(op) ? 2 : 1;
  return table;
})();

/**
 * The scanner's operators of three characters (none a plain line takes), by their first two: the third. The scanner
 * reads them before two (`===` before `==`).
 */
const TRIPLE: Uint8Array = (() => {
  const table = new Uint8Array(128 * 128);
  for (const op of OPERATORS3) table[op.charCodeAt(0) * 128 + op.charCodeAt(1)] = op.charCodeAt(2);
  return table;
})();

/** Tokens a plain line may have. */
export const MAX_TOKENS = 512;

/** A token's word not looked up yet (LineTokens.word). */
const PENDING = 0xffff;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Which tokenizer reads a program given to LineTokens.load: the WebAssembly one where the host has it (as shipped),
 * or the JavaScript one (the reference, and what a test compares it with).
 */
export type TokenizerChoice = 'wasm' | 'js';
let choice: TokenizerChoice = 'wasm';

/**
 * Sets which tokenizer reads loaded programs; returns the previous setting.
 * @internal for the tests that hold the two tokenizers to the same output
 */
export function setTokenizer(next: TokenizerChoice): TokenizerChoice {
  const was = choice;
  choice = next;
  return was;
}

/** The WebAssembly tokenizer, made on first use; null where it could not be. */
let engine: TokenizerEngine | null | undefined;

function theEngine(): TokenizerEngine | null {
  if (engine === undefined) {
    engine = TokenizerEngine.create({ CLASS, PUNCT, IDENT_PART, SINGLE, PAIR, TRIPLE }, wordTable, MAX_TOKENS) ?? null;
  }
  return engine;
}

/** A line's tokens: kind, start and end offsets in `src`, `kinds[count]` End. */
export class LineTokens {
  src = '';
  /**
   * The tokens: kind, start and end offsets; `kinds[count]` is End. The JavaScript tokenizer's own arrays, or views
   * of the WebAssembly tokenizer's memory after a line it read (tokenizeLoaded).
   */
  kinds: Uint8Array;
  starts: Int32Array;
  ends: Int32Array;
  /** Each token's word number (plainWords.ts; 0 for other tokens), or PENDING until word() looks it up. */
  words: Uint16Array;
  private readonly ownKinds = new Uint8Array(MAX_TOKENS + 1);
  private readonly ownStarts = new Int32Array(MAX_TOKENS + 1);
  private readonly ownEnds = new Int32Array(MAX_TOKENS + 1);
  private readonly ownWords = new Uint16Array(MAX_TOKENS + 1);
  count = 0;
  /** Where the line tokenized last ends: `e`, or the line break before it. */
  lineEnd = 0;
  /** The ticket of the program in the WebAssembly tokenizer's memory (load); 0 for none. */
  private static held = 0;
  private static tickets = 0;

  constructor() {
    this.kinds = this.ownKinds;
    this.starts = this.ownStarts;
    this.ends = this.ownEnds;
    this.words = this.ownWords;
  }

  /**
   * Gives the whole of `src` to the WebAssembly tokenizer, for tokenizeLoaded: a ticket for it, or 0 when the
   * JavaScript tokenizer reads it (not all ASCII, or no WebAssembly here). A later load replaces it.
   */
  load(src: string): number {
    LineTokens.held = 0;
    if (choice !== 'wasm') return 0;
    const wasm = theEngine();
    if (wasm === null || !wasm.load(src)) return 0;
    LineTokens.held = ++LineTokens.tickets;
    return LineTokens.held;
  }

  /**
   * tokenize(p, e) of `src`, the program loaded with `ticket`: read by the WebAssembly tokenizer while it still holds
   * that program, else (another program was loaded since) by the JavaScript one.
   */
  tokenizeLoaded(ticket: number, src: string, p: number, e: number): number {
    this.src = src;
    if (ticket === 0 || ticket !== LineTokens.held) return this.tokenize(p, e);
    const wasm = engine as TokenizerEngine;
    const n = wasm.tokenize(p, e);
    if (n >= 0) {
      this.kinds = wasm.kinds;
      this.starts = wasm.starts;
      this.ends = wasm.ends;
      this.words = wasm.words;
      this.lineEnd = wasm.lineEnd;
    }
    return n;
  }

  /**
   * Tokenizes the line from `p` — up to `e` or the first line break before it — as the scanner does, when it holds
   * only characters a plain line may (ASCII, no control character, `#`, `$`, `;`, block comment or unclosed
   * string): the token count (and `lineEnd`), or -1.
   */
  tokenize(p: number, e: number): number {
    const s = this.src;
    const kinds = (this.kinds = this.ownKinds);
    const starts = (this.starts = this.ownStarts);
    const ends = (this.ends = this.ownEnds);
    // The JavaScript tokenizer leaves the words to word(): a line the reader does not take needs none of them.
    const words = (this.words = this.ownWords);
    let n = 0;
    /** ( and [ open: `//` outside them is a comment. */
    let depth = 0;
    while (p < e) {
      const c = s.charCodeAt(p);
      if (c >= 128) return -1;
      const cls = CLASS[c] as C;
      if (cls === C.Space) {
        p++;
        continue;
      }
      if (n === MAX_TOKENS) return -1;
      const start = p;
      let kind: T;
      switch (cls) {
        case C.Ident:
          p++;
          while (p < e) {
            const d = s.charCodeAt(p);
            if (d >= 128) return -1;
            if (IDENT_PART[d] === 0) break;
            p++;
          }
          kind = T.Ident;
          break;
        case C.Digit:
          p++;
          while (p < e && isDigit(s.charCodeAt(p))) p++;
          if (p + 1 < e && s.charCodeAt(p) === CH_DOT && isDigit(s.charCodeAt(p + 1))) {
            p += 2;
            while (p < e && isDigit(s.charCodeAt(p))) p++;
          }
          kind = T.Number;
          break;
        case C.Quote:
          p = this.quotedEnd(p, e, c);
          if (p < 0) return -1;
          kind = c === CH_BACKTICK ? T.Template : T.String;
          break;
        case C.Punct:
          kind = PUNCT[c] as T;
          if (kind === T.Open || kind === T.OpenBracket) depth++;
          else if ((kind === T.Close || kind === T.CloseBracket) && depth > 0) depth--;
          p++;
          break;
        case C.Colon: {
          const next = p + 1 < e ? s.charCodeAt(p + 1) : 0;
          if (next < 128 && PAIR[CH_COLON * 128 + next] !== 0) return -1; // `:=` and `::`, operators
          kind = T.Colon;
          p++;
          break;
        }
        case C.Op: {
          const next = p + 1 < e ? s.charCodeAt(p + 1) : 0;
          if (c === CH_SLASH && depth === 0) {
            if (next === CH_SLASH) {
              // A comment to the end of the line: its text is not read, but a control character in it is not plain
              // (a line is plain only when every character of it is text: validateAvap's binary check relies on it).
              let q = p + 2;
              for (; q < e; q++) {
                const d = s.charCodeAt(q);
                if (d === 10 || d === 13) break;
                if ((d < CH_SPACE && d !== CH_TAB) || d === 0x7f) return -1;
              }
              kinds[n] = T.End;
              words[n] = PENDING;
              this.lineEnd = q;
              return n;
            }
            if (next === CH_STAR) return -1; // a block comment: the scanner's
          }
          // Three characters first (`===`), then the pairs; else one character.
          const at = next < 128 ? c * 128 + next : -1;
          if (at >= 0 && TRIPLE[at] !== 0 && p + 2 < e && s.charCodeAt(p + 2) === TRIPLE[at]) return -1;
          const pair = at >= 0 ? (PAIR[at] as number) : 0;
          if (pair === 1) return -1;
          if (pair === 2) {
            p += 2;
            kind = T.Binary;
          } else if (c === CH_EQ) {
            p++;
            kind = T.Assign;
          } else if (SINGLE[c] === 1) {
            p++;
            kind = T.Binary;
          } else return -1;
          break;
        }
        case C.Break:
          kinds[n] = T.End;
          words[n] = PENDING;
          this.lineEnd = p;
          return n;
        default:
          return -1;
      }
      kinds[n] = kind;
      words[n] = PENDING;
      starts[n] = start;
      ends[n] = p;
      n++;
    }
    kinds[n] = T.End;
    words[n] = PENDING;
    this.lineEnd = e;
    return n;
  }

  /** The end of the string or template opened by the quote at `p`, or -1 when it is not closed on the line (or holds a control character). */
  quotedEnd(p: number, e: number, quote: number): number {
    const s = this.src;
    p++;
    while (p < e) {
      const c = s.charCodeAt(p);
      if (c === CH_BACKSLASH) {
        p += 2;
        continue;
      }
      if (c === quote) return p + 1;
      if (c < CH_SPACE ? c !== CH_TAB : c === 0x7f || (c >= 0x80 && c <= 0x9f)) return -1;
      p++;
    }
    return -1;
  }

  /** The number of token `k`'s word (plainWords.ts), 0 when it is no identifier or none of them. */
  word(k: number): W {
    const known = this.words[k] as number;
    if (known !== PENDING) return known;
    const word = this.kinds[k] === T.Ident ? wordAt(this.src, this.starts[k] as number, this.ends[k] as number) : 0;
    this.words[k] = word;
    return word;
  }

  text(k: number): string {
    return this.src.slice(this.starts[k], this.ends[k]);
  }

  /** The inner text of the string token `k`. */
  inner(k: number): string {
    return this.src.slice((this.starts[k] as number) + 1, (this.ends[k] as number) - 1);
  }

  /** The first `n` tokens as the scanner makes them (scanner.ts): a line the checks read after all. */
  scannerTokens(n: number): Token[] {
    const tokens: Token[] = [];
    for (let k = 0; k < n; k++) {
      const kind = this.kinds[k] as T;
      const start = this.starts[k] as number;
      const end = this.ends[k] as number;
      const scanned = SCANNER_KIND[kind] as TokenKind;
      const text = scanned === TokenKind.Punct ? (PUNCT_TEXT[kind] as string) : this.src.slice(start, end);
      tokens.push({ kind: scanned, start, end, text });
    }
    return tokens;
  }

  token(kind: TokenKind, k: number): Token {
    return { kind, start: this.starts[k] as number, end: this.ends[k] as number, text: this.text(k) };
  }
}

/**
 * The AVAP scanner. AVAP is line oriented, so the scanner works one physical
 * line at a time and carries only the block-comment state across lines.
 *
 * It never throws. Lexical problems (unterminated strings, control characters,
 * a Python `#` comment, ...) are reported through the `LexicalSink`, and the
 * scanner always produces a token list for the line so that the statement
 * analysis can go on.
 *
 * Ruling 2: inside parentheses or brackets, `//`, `/*` and `#` are ordinary
 * text (URLs such as `https://…`, colours, regexes), not comments.
 */

export const enum TokenKind {
  Ident = 1,
  Number,
  /** "…" or '…' */
  String,
  /** `…` with ${name} placeholders */
  Template,
  /** $name: a global read from inside a function */
  Global,
  /** one of ( ) [ ] { } , : ; . */
  Punct,
  /** operators, longest match first (==, !=, <=, &&, =>, ...) */
  Op,
  /** a character with no meaning in AVAP outside an argument */
  Other,
  /** never scanned: what reading past a line's last token answers (cursor.ts) */
  EndOfLine,
}

export interface Token {
  kind: TokenKind;
  /** Absolute offsets in the source; `end` is exclusive. */
  start: number;
  end: number;
  /** Source text of the token. */
  text: string;
  /** Strings and templates only: the closing quote is missing. */
  unterminated?: boolean;
}

/** `t` is the punctuation `text`. */
export function isPunct(t: Token | undefined, text: string): boolean {
  return t !== undefined && t.kind === TokenKind.Punct && t.text === text;
}

/** `t` is the operator `text`. */
export function isOp(t: Token | undefined, text: string): boolean {
  return t !== undefined && t.kind === TokenKind.Op && t.text === text;
}

/** `t` is the identifier `text`. */
export function isWord(t: Token | undefined, text: string): boolean {
  return t !== undefined && t.kind === TokenKind.Ident && t.text === text;
}

export type LexicalProblem =
  | 'unterminated-string'
  | 'control-character'
  | 'hash-comment'
  | 'unterminated-block-comment'
  /** A string between typographic quotes (“…”, ‘…’): scanned as a string so the line still parses. */
  | 'typographic-quote';

export interface LexicalSink {
  (problem: LexicalProblem, start: number, end: number): void;
}

export interface ScanState {
  inBlockComment: boolean;
  /** Offset of the `/*` that opened the pending block comment. */
  blockCommentStart: number;
  /**
   * The last line scanned has a `;` token: the analysis splits a line at `;`, and most lines have none, so it
   * need not look for one in every token again.
   */
  semicolon: boolean;
}

export function newScanState(): ScanState {
  return { inBlockComment: false, blockCommentStart: -1, semicolon: false };
}

const CH_TAB = 9;
const CH_SPACE = 32;
const CH_BANG = 33;
const CH_DQUOTE = 34;
const CH_HASH = 35;
const CH_DOLLAR = 36;
const CH_PERCENT = 37;
const CH_AMP = 38;
const CH_SQUOTE = 39;
const CH_LPAREN = 40;
const CH_RPAREN = 41;
const CH_STAR = 42;
const CH_PLUS = 43;
const CH_COMMA = 44;
const CH_MINUS = 45;
const CH_DOT = 46;
const CH_SLASH = 47;
const CH_0 = 48;
const CH_9 = 57;
const CH_COLON = 58;
const CH_SEMI = 59;
const CH_LT = 60;
const CH_EQ = 61;
const CH_GT = 62;
const CH_QUESTION = 63;
const CH_LBRACKET = 91;
const CH_BACKSLASH = 92;
const CH_RBRACKET = 93;
const CH_UNDERSCORE = 95;
const CH_BACKTICK = 96;
const CH_LBRACE = 123;
const CH_PIPE = 124;
const CH_RBRACE = 125;
const CH_NBSP = 0xa0;
/** ‘ ’ ‚ ‛ (single) and “ ” „ ‟ (double): U+2018 to U+201F. */
const CH_LSQUO = 0x2018;
const CH_LDQUO = 0x201c;
const CH_LAST_DQUO = 0x201f;
const CH_BOM = 0xfeff;

const NON_ASCII_IDENT_START = /[\p{L}\p{Nl}]/u;
const NON_ASCII_IDENT_PART = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]/u;

function isAsciiIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === CH_UNDERSCORE;
}

function isAsciiIdentPart(c: number): boolean {
  return isAsciiIdentStart(c) || (c >= CH_0 && c <= CH_9);
}

function isDigit(c: number): boolean {
  return c >= CH_0 && c <= CH_9;
}

/** Length (1 or 2 UTF-16 units) of an identifier character at i, or 0. */
function identCharLength(src: string, i: number, start: boolean): number {
  const c = src.charCodeAt(i);
  if (c < 0x80) return (start ? isAsciiIdentStart(c) : isAsciiIdentPart(c)) ? 1 : 0;
  const cp = src.codePointAt(i) ?? c;
  const ch = String.fromCodePoint(cp);
  const re = start ? NON_ASCII_IDENT_START : NON_ASCII_IDENT_PART;
  return re.test(ch) ? ch.length : 0;
}

/** True for characters that are never text: C0 controls (but tab), DEL, C1 controls. */
function isControlChar(c: number): boolean {
  return (c < CH_SPACE && c !== CH_TAB) || c === 0x7f || (c >= 0x80 && c <= 0x9f);
}

function isSpace(c: number): boolean {
  return c === CH_SPACE || c === CH_TAB || c === 0x0c || c === 0x0b || c === CH_NBSP || c === CH_BOM;
}

/** Operators of two or three characters, longest first (the plain reader builds its tables from them: analysis/plainTokens.ts). */
export const OPERATORS3: ReadonlySet<string> = new Set(['===', '!==']);
export const OPERATORS2: ReadonlySet<string> = new Set([
  '==',
  '!=',
  '<=',
  '>=',
  '=>',
  ':=',
  '&&',
  '||',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '->',
  '::',
  '**',
  '<>',
]);

/** A character an operator starts with. */
export function isOperatorStart(c: number): boolean {
  switch (c) {
    case CH_EQ:
    case CH_LT:
    case CH_GT:
    case CH_PLUS:
    case CH_MINUS:
    case CH_STAR:
    case CH_SLASH:
    case CH_PERCENT:
    case CH_BANG:
    case CH_QUESTION:
    case CH_COLON:
    case CH_AMP:
    case CH_PIPE:
      return true;
    default:
      return false;
  }
}

function isSingleOperator(c: number): boolean {
  return c !== CH_COLON && c !== CH_AMP && c !== CH_PIPE && isOperatorStart(c);
}

function matchOperator(src: string, i: number, end: number): string | undefined {
  const c = src.charCodeAt(i);
  if (!isOperatorStart(c)) return undefined;
  if (i + 1 < end && isOperatorStart(src.charCodeAt(i + 1))) {
    if (i + 2 < end) {
      const three = src.slice(i, i + 3);
      if (OPERATORS3.has(three)) return three;
    }
    const two = src.slice(i, i + 2);
    if (OPERATORS2.has(two)) return two;
  }
  return isSingleOperator(c) ? src[i] : undefined;
}

/** Character classes of ASCII code points, for the scanner's dispatch (non-ASCII is classified by identCharLength and the rest). */
const enum Ascii {
  /** Anything the generic path below handles: operators, `@`, `~`, ... */
  Other = 0,
  Space,
  Control,
  IdentStart,
  Digit,
  Quote,
  Slash,
  Hash,
  Dollar,
  Open,
  Close,
  Punct,
  Semicolon,
  Colon,
}

const ASCII_CLASS: Uint8Array = (() => {
  const table = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    if (isSpace(c)) table[c] = Ascii.Space;
    else if (isControlChar(c)) table[c] = Ascii.Control;
    else if (isAsciiIdentStart(c)) table[c] = Ascii.IdentStart;
    else if (isDigit(c)) table[c] = Ascii.Digit;
  }
  table[CH_DQUOTE] = Ascii.Quote;
  table[CH_SQUOTE] = Ascii.Quote;
  table[CH_BACKTICK] = Ascii.Quote;
  table[CH_SLASH] = Ascii.Slash;
  table[CH_HASH] = Ascii.Hash;
  table[CH_DOLLAR] = Ascii.Dollar;
  table[CH_LPAREN] = Ascii.Open;
  table[CH_LBRACKET] = Ascii.Open;
  table[CH_RPAREN] = Ascii.Close;
  table[CH_RBRACKET] = Ascii.Close;
  for (const c of [CH_LBRACE, CH_RBRACE, CH_COMMA, CH_DOT]) table[c] = Ascii.Punct;
  table[CH_SEMI] = Ascii.Semicolon;
  table[CH_COLON] = Ascii.Colon;
  return table;
})();

/** ASCII identifier parts (letters, digits, `_`): 1, else 0. */
const ASCII_IDENT_PART: Uint8Array = (() => {
  const table = new Uint8Array(128);
  for (let c = 0; c < 128; c++) table[c] = isAsciiIdentPart(c) ? 1 : 0;
  return table;
})();

/** The one-character strings of punctuation, so a token shares them instead of slicing. */
const PUNCT_TEXT: readonly string[] = (() => {
  const texts: string[] = [];
  for (let c = 0; c < 128; c++) texts.push(String.fromCharCode(c));
  return texts;
})();

/** End (exclusive) of the identifier whose first character ends at `j`. */
function identEnd(src: string, j: number, end: number): number {
  while (j < end) {
    const c = src.charCodeAt(j);
    if (c < 0x80) {
      if (ASCII_IDENT_PART[c] === 0) break;
      j++;
      continue;
    }
    const n = identCharLength(src, j, false);
    if (n === 0) break;
    j += n;
  }
  return j;
}

function token(kind: TokenKind, start: number, end: number, text: string): Token {
  return { kind, start, end, text };
}

/** Offsets [start, end) of the source. */
export interface Span {
  start: number;
  end: number;
}

/** What the scan of a string needs from its line: the text, where the line ends, its tokens so far, the sink. */
interface LineScan {
  src: string;
  end: number;
  tokens: Token[];
  sink: LexicalSink;
}

/**
 * Scans src[line.start, line.end) — one physical line without its terminator — into tokens.
 * `state` carries an open block comment from the previous line and is updated.
 */
export function scanLine(src: string, line: Span, state: ScanState, sink: LexicalSink): Token[] {
  const { start, end } = line;
  const tokens: Token[] = [];
  /** Made on the line's first string: most lines have none. */
  let scan: LineScan | undefined;
  let i = start;
  /** ( and [ depth on this line: comments are not recognised inside arguments. */
  let depth = 0;
  state.semicolon = false;

  if (state.inBlockComment) {
    const close = src.indexOf('*/', i);
    if (close === -1 || close + 2 > end) return tokens;
    state.inBlockComment = false;
    i = close + 2;
  }

  while (i < end) {
    const c = src.charCodeAt(i);

    if (c < 0x80) {
      // ASCII: one table look-up decides, in the same order of precedence as the general path below.
      switch (ASCII_CLASS[c] as Ascii) {
        case Ascii.Space:
          i++;
          continue;
        case Ascii.IdentStart: {
          const j = identEnd(src, i + 1, end);
          tokens.push(token(TokenKind.Ident, i, j, src.slice(i, j)));
          i = j;
          continue;
        }
        case Ascii.Open:
          depth++;
          tokens.push(token(TokenKind.Punct, i, i + 1, PUNCT_TEXT[c] as string));
          i++;
          continue;
        case Ascii.Close:
          if (depth > 0) depth--;
          tokens.push(token(TokenKind.Punct, i, i + 1, PUNCT_TEXT[c] as string));
          i++;
          continue;
        case Ascii.Punct:
          tokens.push(token(TokenKind.Punct, i, i + 1, PUNCT_TEXT[c] as string));
          i++;
          continue;
        case Ascii.Semicolon:
          state.semicolon = true;
          tokens.push(token(TokenKind.Punct, i, i + 1, ';'));
          i++;
          continue;
        case Ascii.Quote:
          i = scanQuoted((scan ??= { src, end, tokens, sink }), i, c);
          continue;
        case Ascii.Digit: {
          let j = i + 1;
          while (j < end && isDigit(src.charCodeAt(j))) j++;
          if (j + 1 < end && src.charCodeAt(j) === CH_DOT && isDigit(src.charCodeAt(j + 1))) {
            j += 2;
            while (j < end && isDigit(src.charCodeAt(j))) j++;
          }
          tokens.push(token(TokenKind.Number, i, j, src.slice(i, j)));
          i = j;
          continue;
        }
        case Ascii.Slash:
          if (depth === 0 && i + 1 < end) {
            const next = src.charCodeAt(i + 1);
            if (next === CH_SLASH) return tokens; // line comment (also ///)
            if (next === CH_STAR) {
              const close = src.indexOf('*/', i + 2);
              if (close === -1 || close + 2 > end) {
                state.inBlockComment = true;
                state.blockCommentStart = i;
                return tokens;
              }
              i = close + 2;
              continue;
            }
          }
          break; // an operator
        case Ascii.Hash:
          if (depth === 0) {
            sink('hash-comment', i, i + 1);
            return tokens;
          }
          break; // stray text inside an argument
        case Ascii.Dollar:
          if (i + 1 < end && identCharLength(src, i + 1, true) > 0) {
            const j = identEnd(src, i + 1, end);
            tokens.push(token(TokenKind.Global, i, j, src.slice(i, j)));
            i = j;
            continue;
          }
          break;
        case Ascii.Colon:
          if (i + 1 < end && (src.charCodeAt(i + 1) === CH_EQ || src.charCodeAt(i + 1) === CH_COLON)) break;
          tokens.push(token(TokenKind.Punct, i, i + 1, ':'));
          i++;
          continue;
        case Ascii.Control: {
          let j = i + 1;
          while (j < end && isControlChar(src.charCodeAt(j))) j++;
          sink('control-character', i, j);
          i = j;
          continue;
        }
        default:
          break;
      }
      const op = matchOperator(src, i, end);
      if (op !== undefined) {
        tokens.push(token(TokenKind.Op, i, i + op.length, op));
        i += op.length;
        continue;
      }
      tokens.push(token(TokenKind.Other, i, i + 1, PUNCT_TEXT[c] as string));
      i++;
      continue;
    }

    if (isSpace(c)) {
      i++;
      continue;
    }

    if (isControlChar(c)) {
      let j = i + 1;
      while (j < end && isControlChar(src.charCodeAt(j))) j++;
      sink('control-character', i, j);
      i = j;
      continue;
    }

    if (c >= CH_LSQUO && c <= CH_LAST_DQUO) {
      const j = scanTypographic((scan ??= { src, end, tokens, sink }), i, c);
      if (j > i) {
        i = j;
        continue;
      }
    }

    const identLen = identCharLength(src, i, true);
    if (identLen > 0) {
      const j = identEnd(src, i + identLen, end);
      tokens.push(token(TokenKind.Ident, i, j, src.slice(i, j)));
      i = j;
      continue;
    }

    // Anything else (non-ASCII symbols...). Surrogate pairs stay whole.
    const cp = src.codePointAt(i) ?? c;
    const width = cp > 0xffff ? 2 : 1;
    tokens.push(token(TokenKind.Other, i, i + width, src.slice(i, i + width)));
    i += width;
  }
  return tokens;
}

/** Scans a quoted string or template starting at `i`; returns the offset after it. */
function scanQuoted(scan: LineScan, i: number, quote: number): number {
  const { src, end, tokens, sink } = scan;
  let j = i + 1;
  let closed = false;
  while (j < end) {
    const c = src.charCodeAt(j);
    if (c === CH_BACKSLASH) {
      j += 2;
      continue;
    }
    if (c === quote) {
      closed = true;
      j++;
      break;
    }
    if (isControlChar(c)) sink('control-character', j, j + 1);
    j++;
  }
  if (j > end) j = end;
  const kind = quote === CH_BACKTICK ? TokenKind.Template : TokenKind.String;
  const quoted = token(kind, i, j, src.slice(i, j));
  if (!closed) {
    quoted.unterminated = true;
    sink('unterminated-string', i, j);
  }
  tokens.push(quoted);
  return j;
}

/**
 * A string between typographic quotes, starting at `i` (a quote of U+2018–U+201F
 * not right after a letter or digit, so an apostrophe inside a word stays text).
 * It closes at the next typographic quote of the same family on the line, else
 * at the next ASCII quote of that family (`“ok"`). Returns the offset after it,
 * or `i` when it is not one (no closer).
 */
function scanTypographic(scan: LineScan, i: number, quote: number): number {
  const { src, end, tokens, sink } = scan;
  if (i > 0 && identCharLength(src, i - 1, false) > 0) return i;
  const double = quote >= CH_LDQUO;
  let close = -1;
  for (let j = i + 1; j < end && close === -1; j++) {
    const c = src.charCodeAt(j);
    if (double ? c >= CH_LDQUO && c <= CH_LAST_DQUO : c >= CH_LSQUO && c < CH_LDQUO) close = j;
  }
  const ascii = double ? CH_DQUOTE : CH_SQUOTE;
  for (let j = i + 1; j < end && close === -1; j++) if (src.charCodeAt(j) === ascii) close = j;
  if (close === -1) return i;
  tokens.push(token(TokenKind.String, i, close + 1, src.slice(i, close + 1)));
  sink('typographic-quote', i, close + 1);
  return close + 1;
}

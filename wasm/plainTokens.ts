/**
 * The plain-line tokenizer of src/parser/analysis/plainTokens.ts (LineTokens.tokenize), in AssemblyScript: the same
 * tokens, read from a program's bytes in this module's memory — about twice as fast as the JavaScript loop, which
 * remains the reference and the fallback. The JavaScript side writes the program's UTF-8 at SRC_AT; a program that
 * is not all ASCII is then rewritten in place by `mask` as one byte per UTF-16 unit, so byte offsets are UTF-16
 * offsets.
 *
 * The character tables are the JavaScript module's own, copied into this memory when the module is instantiated, so
 * the two read characters alike by construction; the kinds below are plainTokens.ts' `C` and `T` values, and the
 * unit test holds this module's tokens to the JavaScript tokenizer's on every line of its corpora.
 *
 * Built by `npm run build:wasm` into src/parser/analysis/plainTokensWasm.ts (the module's bytes); the unit test
 * rebuilds it and compares.
 */

// ----------------------------------------------------------------- layout (bytes of this module's memory)

/** The character classes (plainTokens.ts CLASS), by ASCII code. */
export const CLASS_AT: i32 = 0;
/** Each punctuation character's token kind (PUNCT). */
export const PUNCT_AT: i32 = 128;
/** Letters, digits and `_`: 1 (IDENT_PART). */
export const IDENT_AT: i32 = 256;
/** One-character binary operators: 1 (SINGLE). */
export const SINGLE_AT: i32 = 384;
/** Two operator characters, by first * 128 + second: 0, 1 or 2 (PAIR). */
export const PAIR_AT: i32 = 1024;
/** The third character of a three-character operator, by its first two (TRIPLE). */
export const TRIPLE_AT: i32 = PAIR_AT + 128 * 128;
/** The tokens of the line read last: kinds (one byte each), then starts and ends (i32 each). */
export const KINDS_AT: i32 = TRIPLE_AT + 128 * 128;
export const MAX_TOKENS: i32 = 512;
export const STARTS_AT: i32 = KINDS_AT + 1024;
export const ENDS_AT: i32 = STARTS_AT + 4 * (MAX_TOKENS + 1);
/** Where the line read last ends (i32). */
export const LINE_END_AT: i32 = ENDS_AT + 4 * (MAX_TOKENS + 1);
/** Each token's word (u16): the number of the known word it is (plainWords.ts), 0 for any other token. */
export const WORDS_AT: i32 = LINE_END_AT + 4;
/** The known words' hash table: slots of 8 bytes — the word's hash (i32), its number (u16, 0: empty) and its place in the pool (u16). */
export const HASH_AT: i32 = 40960;
export const HASH_SLOTS: i32 = 1024;
/** The known words, each its length (one byte) then its bytes. */
export const POOL_AT: i32 = HASH_AT + 8 * HASH_SLOTS;
export const POOL_BYTES: i32 = 65536 - POOL_AT;
/** The program's bytes. */
export const SRC_AT: i32 = 65536;

// ----------------------------------------------------------------- kinds (plainTokens.ts C and T)

const C_SPACE: i32 = 1;
const C_IDENT: i32 = 2;
const C_DIGIT: i32 = 3;
const C_QUOTE: i32 = 4;
const C_PUNCT: i32 = 5;
const C_COLON: i32 = 6;
const C_OP: i32 = 7;
const C_BREAK: i32 = 8;

const T_END: i32 = 0;
const T_IDENT: i32 = 1;
const T_NUMBER: i32 = 2;
const T_STRING: i32 = 3;
const T_TEMPLATE: i32 = 4;
const T_OPEN: i32 = 5;
const T_CLOSE: i32 = 6;
const T_OPEN_BRACKET: i32 = 7;
const T_CLOSE_BRACKET: i32 = 8;
const T_COLON: i32 = 12;
const T_ASSIGN: i32 = 14;
const T_BINARY: i32 = 15;

const CH_TAB: i32 = 9;
const CH_LF: i32 = 10;
const CH_CR: i32 = 13;
const CH_SPACE: i32 = 32;
const CH_STAR: i32 = 42;
const CH_DOT: i32 = 46;
const CH_SLASH: i32 = 47;
const CH_COLON: i32 = 58;
const CH_EQ: i32 = 61;
const CH_BACKSLASH: i32 = 92;
const CH_BACKTICK: i32 = 96;
const CH_DEL: i32 = 0x7f;
/** The high bit of each of eight bytes: none set in ASCII. */
const ASCII_MASK: u64 = 0x8080808080808080;
/** What `mask` writes for a unit that is not ASCII. */
const STAND_IN: u8 = 64;

@inline
function at(p: i32): i32 {
  return <i32>load<u8>(<usize>(SRC_AT + p));
}

@inline
function table(base: i32, index: i32): i32 {
  return <i32>load<u8>(<usize>(base + index));
}

@inline
function isDigit(c: i32): bool {
  return c >= 48 && c <= 57;
}

/** The end of the string or template opened by the quote at `p`, or -1 (not closed on the line, or a control character). */
function quotedEnd(p: i32, e: i32, quote: i32): i32 {
  p++;
  while (p < e) {
    const c = at(p);
    if (c == CH_BACKSLASH) {
      p += 2;
      continue;
    }
    if (c == quote) return p + 1;
    if (c < CH_SPACE ? c != CH_TAB : c == CH_DEL || (c >= 0x80 && c <= 0x9f)) return -1;
    p++;
  }
  return -1;
}

@inline
function put(n: i32, kind: i32, start: i32, end: i32, word: i32): void {
  store<u8>(<usize>(KINDS_AT + n), <u8>kind);
  store<i32>(<usize>(STARTS_AT + (n << 2)), start);
  store<i32>(<usize>(ENDS_AT + (n << 2)), end);
  store<u16>(<usize>(WORDS_AT + (n << 1)), <u16>word);
}

@inline
function finish(n: i32, lineEnd: i32): i32 {
  store<u8>(<usize>(KINDS_AT + n), <u8>T_END);
  store<u16>(<usize>(WORDS_AT + (n << 1)), 0);
  store<i32>(<usize>LINE_END_AT, lineEnd);
  return n;
}

/** The hash table's slot for a word's hash (plainWords.ts wordSlot). */
@inline
function slotOf(hash: i32): i32 {
  return (hash ^ (hash >>> 16)) & (HASH_SLOTS - 1);
}

/** The number of the known word the identifier [start, end) is, with its hash; 0 when it is none. */
function wordOf(start: i32, end: i32, hash: i32): i32 {
  const length = end - start;
  let slot = slotOf(hash);
  for (let probe: i32 = 0; probe < HASH_SLOTS; probe++) {
    const entry = HASH_AT + (slot << 3);
    const word = <i32>load<u16>(<usize>(entry + 4));
    if (word == 0) return 0;
    if (load<i32>(<usize>entry) == hash) {
      const place = POOL_AT + <i32>load<u16>(<usize>(entry + 6));
      if (<i32>load<u8>(<usize>place) == length) {
        let k: i32 = 0;
        while (k < length && <i32>load<u8>(<usize>(place + 1 + k)) == at(start + k)) k++;
        if (k == length) return word;
      }
    }
    slot = (slot + 1) & (HASH_SLOTS - 1);
  }
  return 0;
}

/**
 * Tokenizes the line from `p` — up to `e` or the first line break before it — as LineTokens.tokenize does: the token
 * count (the tokens at KINDS_AT, STARTS_AT, ENDS_AT; the line's end at LINE_END_AT), or -1.
 */
export function tokenize(p: i32, e: i32): i32 {
  let n: i32 = 0;
  /** ( and [ open: `//` outside them is a comment. */
  let depth: i32 = 0;
  while (p < e) {
    const c = at(p);
    if (c >= 128) return -1;
    const cls = table(CLASS_AT, c);
    if (cls == C_SPACE) {
      p++;
      continue;
    }
    if (n == MAX_TOKENS) return -1;
    const start = p;
    let kind: i32 = T_END;
    let word: i32 = 0;
    if (cls == C_IDENT) {
      let hash: i32 = c;
      p++;
      while (p < e) {
        const d = at(p);
        if (d >= 128) return -1;
        if (table(IDENT_AT, d) == 0) break;
        hash = hash * 31 + d;
        p++;
      }
      kind = T_IDENT;
      word = wordOf(start, p, hash);
    } else if (cls == C_DIGIT) {
      p++;
      while (p < e && isDigit(at(p))) p++;
      if (p + 1 < e && at(p) == CH_DOT && isDigit(at(p + 1))) {
        p += 2;
        while (p < e && isDigit(at(p))) p++;
      }
      kind = T_NUMBER;
    } else if (cls == C_QUOTE) {
      p = quotedEnd(p, e, c);
      if (p < 0) return -1;
      kind = c == CH_BACKTICK ? T_TEMPLATE : T_STRING;
    } else if (cls == C_PUNCT) {
      kind = table(PUNCT_AT, c);
      if (kind == T_OPEN || kind == T_OPEN_BRACKET) depth++;
      else if ((kind == T_CLOSE || kind == T_CLOSE_BRACKET) && depth > 0) depth--;
      p++;
    } else if (cls == C_COLON) {
      const next = p + 1 < e ? at(p + 1) : 0;
      if (next < 128 && table(PAIR_AT, CH_COLON * 128 + next) != 0) return -1; // `:=` and `::`, operators
      kind = T_COLON;
      p++;
    } else if (cls == C_OP) {
      const next = p + 1 < e ? at(p + 1) : 0;
      if (c == CH_SLASH && depth == 0) {
        if (next == CH_SLASH) {
          // A comment to the end of the line: not plain when it holds a control character.
          let q = p + 2;
          for (; q < e; q++) {
            const d = at(q);
            if (d == CH_LF || d == CH_CR) break;
            if ((d < CH_SPACE && d != CH_TAB) || d == CH_DEL) return -1;
          }
          return finish(n, q);
        }
        if (next == CH_STAR) return -1; // a block comment: the scanner's
      }
      // Three characters first (`===`), then the pairs; else one character.
      const pairAt = next < 128 ? c * 128 + next : -1;
      if (pairAt >= 0) {
        const third = table(TRIPLE_AT, pairAt);
        if (third != 0 && p + 2 < e && at(p + 2) == third) return -1;
      }
      const pair = pairAt >= 0 ? table(PAIR_AT, pairAt) : 0;
      if (pair == 1) return -1;
      if (pair == 2) {
        p += 2;
        kind = T_BINARY;
      } else if (c == CH_EQ) {
        p++;
        kind = T_ASSIGN;
      } else if (table(SINGLE_AT, c) == 1) {
        p++;
        kind = T_BINARY;
      } else return -1;
    } else if (cls == C_BREAK) {
      return finish(n, p);
    } else return -1;
    put(n, kind, start, p, word);
    n++;
  }
  return finish(n, e);
}

/**
 * Rewrites the UTF-8 text of `bytes` bytes at SRC_AT in place as one byte per UTF-16 unit: ASCII as is, every other
 * unit as `@` (read as any non-ASCII character is read) — so the tokens' offsets are the program's UTF-16 offsets.
 * The number of units, or -1 when the text holds a C1 control character (U+0080–U+009F), which only the JavaScript
 * tokenizer reads as it must (refused in a string, taken in a comment).
 */
export function mask(bytes: i32): i32 {
  // The ASCII before the first other byte stays where it is: skipped eight bytes at a time.
  let from: i32 = 0;
  while (from + 8 <= bytes && (load<u64>(<usize>(SRC_AT + from)) & ASCII_MASK) == 0) from += 8;
  let to: i32 = from;
  while (from < bytes) {
    // A run of eight ASCII bytes moves at once (`to` <= `from`: the store reaches no byte not yet read).
    if (from + 8 <= bytes) {
      const eight = load<u64>(<usize>(SRC_AT + from));
      if ((eight & ASCII_MASK) == 0) {
        store<u64>(<usize>(SRC_AT + to), eight);
        from += 8;
        to += 8;
        continue;
      }
    }
    const b = at(from);
    if (b < 0x80) {
      store<u8>(<usize>(SRC_AT + to), <u8>b);
      from++;
      to++;
      continue;
    }
    if (b == 0xc2 && from + 1 < bytes && at(from + 1) <= 0x9f) return -1; // U+0080–U+009F
    // A lead byte: a sequence of 2, 3 or 4 bytes, 4 being a surrogate pair (two units).
    const length: i32 = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
    store<u8>(<usize>(SRC_AT + to), STAND_IN);
    to++;
    if (length == 4) {
      store<u8>(<usize>(SRC_AT + to), STAND_IN);
      to++;
    }
    from += length;
  }
  return to;
}

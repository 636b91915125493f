/**
 * The plain-line tokenizer as WebAssembly (wasm/plainTokens.ts, its bytes in plainTokensWasm.ts): the tokens of
 * LineTokens.tokenize (plainTokens.ts) read from a program copied into the module's memory, about twice as fast as
 * the JavaScript loop. The copy has one byte per UTF-16 unit of the program, offset for offset: its ASCII as is, and
 * every other unit as `@` — a character the tokenizer reads exactly as it reads any non-ASCII one (no plain line
 * holds it outside a string or a comment, a string or a comment may) — so no offset moves. A program with a C1
 * control character (U+0080–U+009F: refused in a string, not in a comment; no ASCII character is read so) and any
 * host without WebAssembly are read by the JavaScript tokenizer.
 *
 * The program is written as UTF-8 (TextEncoder.encodeInto) and, when it is not all ASCII, rewritten in place by the
 * module (`mask`). The module's memory grows to the largest program it was given and stays that size (at most three
 * bytes per unit of the parser's input limit, plus 64 KiB of tables).
 */
import { PLAIN_TOKENS_WASM } from './plainTokensWasm';

/** The JavaScript tokenizer's character tables (plainTokens.ts), copied into the module's memory. */
export interface TokenizerTables {
  CLASS: Uint8Array;
  PUNCT: Uint8Array;
  IDENT_PART: Uint8Array;
  SINGLE: Uint8Array;
  PAIR: Uint8Array;
  TRIPLE: Uint8Array;
}

/** The known words' hash table and pool (plainWords.ts wordTable), for the layout's sizes. */
export type WordTables = (slots: number, poolBytes: number) => { table: Uint8Array; pool: Uint8Array } | undefined;

/** Where the module keeps what (its exported globals). */
interface Layout {
  CLASS_AT: number;
  PUNCT_AT: number;
  IDENT_AT: number;
  SINGLE_AT: number;
  PAIR_AT: number;
  TRIPLE_AT: number;
  KINDS_AT: number;
  STARTS_AT: number;
  ENDS_AT: number;
  LINE_END_AT: number;
  WORDS_AT: number;
  HASH_AT: number;
  HASH_SLOTS: number;
  POOL_AT: number;
  POOL_BYTES: number;
  SRC_AT: number;
  MAX_TOKENS: number;
}

const LAYOUT_NAMES: readonly (keyof Layout)[] = [
  'CLASS_AT',
  'PUNCT_AT',
  'IDENT_AT',
  'SINGLE_AT',
  'PAIR_AT',
  'TRIPLE_AT',
  'KINDS_AT',
  'STARTS_AT',
  'ENDS_AT',
  'LINE_END_AT',
  'WORDS_AT',
  'HASH_AT',
  'HASH_SLOTS',
  'POOL_AT',
  'POOL_BYTES',
  'SRC_AT',
  'MAX_TOKENS',
];

const PAGE = 65536;

/** What this module uses of the host's WebAssembly (the editor's TypeScript library declares none of it). */
interface WasmHost {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmGlobal {
  readonly value: unknown;
}

function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The module's exports: its layout's globals, its memory and its entry. */
interface Instance {
  layout: Layout;
  memory: WasmMemory;
  tokenize: (p: number, e: number) => number;
  mask: (bytes: number) => number;
}

function instantiate(): Instance {
  const host = (globalThis as { WebAssembly?: WasmHost }).WebAssembly;
  if (host === undefined) throw new Error('no WebAssembly here');
  const { exports } = new host.Instance(new host.Module(decodeBase64(PLAIN_TOKENS_WASM)), {});
  const layout = {} as Layout;
  for (const name of LAYOUT_NAMES) layout[name] = (exports[name] as WasmGlobal).value as number;
  return {
    layout,
    memory: exports.memory as WasmMemory,
    tokenize: exports.tokenize as (p: number, e: number) => number,
    mask: exports.mask as (bytes: number) => number,
  };
}

export class TokenizerEngine {
  /** The tokens of the line read last (views of the module's memory: made again when it grows). */
  kinds!: Uint8Array;
  starts!: Int32Array;
  ends!: Int32Array;
  words!: Uint16Array;
  private lineEndView!: Int32Array;
  private srcView!: Uint8Array;
  private readonly encoder = new TextEncoder();

  private constructor(
    private readonly memory: WasmMemory,
    private readonly layout: Layout,
    /** Tokenizes [p, e) of the program given last to `load`: LineTokens.tokenize's answer. */
    readonly tokenize: (p: number, e: number) => number,
    /** Rewrites the UTF-8 of `bytes` bytes as one byte per UTF-16 unit: the units, or -1 (a C1 control character). */
    private readonly mask: (bytes: number) => number,
  ) {
    this.views();
  }

  /** The engine with the tokenizer's tables, or undefined where WebAssembly is not available. */
  static create(tables: TokenizerTables, words: WordTables, maxTokens: number): TokenizerEngine | undefined {
    try {
      const { layout, memory, tokenize, mask } = instantiate();
      const known = words(layout.HASH_SLOTS, layout.POOL_BYTES);
      if (layout.MAX_TOKENS !== maxTokens || known === undefined) return undefined;
      const bytes = new Uint8Array(memory.buffer);
      bytes.set(tables.CLASS, layout.CLASS_AT);
      bytes.set(tables.PUNCT, layout.PUNCT_AT);
      bytes.set(tables.IDENT_PART, layout.IDENT_AT);
      bytes.set(tables.SINGLE, layout.SINGLE_AT);
      bytes.set(tables.PAIR, layout.PAIR_AT);
      bytes.set(tables.TRIPLE, layout.TRIPLE_AT);
      bytes.set(known.table, layout.HASH_AT);
      bytes.set(known.pool, layout.POOL_AT);
      return new TokenizerEngine(memory, layout, tokenize, mask);
    } catch {
      return undefined;
    }
  }

  private views(): void {
    const { buffer } = this.memory;
    const { KINDS_AT, STARTS_AT, ENDS_AT, WORDS_AT, LINE_END_AT, SRC_AT, MAX_TOKENS } = this.layout;
    this.kinds = new Uint8Array(buffer, KINDS_AT, MAX_TOKENS + 1);
    this.starts = new Int32Array(buffer, STARTS_AT, MAX_TOKENS + 1);
    this.ends = new Int32Array(buffer, ENDS_AT, MAX_TOKENS + 1);
    this.words = new Uint16Array(buffer, WORDS_AT, MAX_TOKENS + 1);
    this.lineEndView = new Int32Array(buffer, LINE_END_AT, 1);
    this.srcView = new Uint8Array(buffer, SRC_AT);
  }

  /**
   * Copies `src` into the module's memory for `tokenize` (one byte per UTF-16 unit, see above): true when it is
   * there (the views may have been made again: read them after this), false when the JavaScript tokenizer must read
   * it.
   */
  load(src: string): boolean {
    try {
      const n = src.length;
      this.reserve(n);
      const first = this.encoder.encodeInto(src, this.srcView);
      if (first.read === n && first.written === n) return true; // all ASCII
      // Not all ASCII: its UTF-8 (at most 3 bytes a unit), rewritten in place as one byte a unit.
      this.reserve(3 * n);
      const bytes = first.read === n ? first.written : this.encoder.encodeInto(src, this.srcView).written;
      return this.mask(bytes) === n;
    } catch {
      return false; // the memory could not grow
    }
  }

  /** Room for `bytes` bytes of text in the module's memory. */
  private reserve(bytes: number): void {
    if (this.srcView.length >= bytes) return;
    const needed = this.layout.SRC_AT + bytes;
    this.memory.grow(Math.ceil((needed - this.memory.buffer.byteLength) / PAGE));
    this.views();
  }

  /** Where the line tokenized last ends. */
  get lineEnd(): number {
    return this.lineEndView[0] as number;
  }
}

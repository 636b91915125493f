/**
 * The block stack: if/else/end, startLoop/endLoop, try/exception/end,
 * go_async/end and function bodies in braces. Pure bookkeeping with recovery:
 * a closer that skips over unclosed blocks reports each of them and goes on,
 * so that one pass reports every failing line (ruling 4).
 */
import { Rule, type RuleDefinition } from './catalogue/rules';
import type { FixHint } from './fixes/candidates';
import type { BraceConversion } from './fixes/braces';
import type { ElseIfRewrite } from './fixes/branches';
import type { Reporter } from './reporter';

export type BlockKind = 'if' | 'loop' | 'try' | 'async' | 'function' | 'brace';

export interface Block {
  kind: BlockKind;
  /** Position of the opener token. */
  line: number;
  column: number;
  endColumn: number;
  token: string;
  hasElse?: boolean;
  hasHandler?: boolean;
  /** An AVAP opener followed by `{` (already reported): `}` may close it. */
  braceBody?: boolean;
  /** Function name. */
  name?: string;
  /** A function header whose `{` has not been seen yet. */
  awaitingBrace?: boolean;
  /** Where the block sits in the stack while it is open and the stack is deep (set by its index). */
  at?: number;
  /** Offset where the opener's line starts (set by BlockStack.push). */
  lineStart?: number;
  /** A foreign brace block being rewritten into AVAP: its `}` (and `} else {`) are recorded here. */
  conversion?: BraceConversion;
  /** `else if(…)` lines of this if(), rewritten as nested blocks: each needs one more end() where this block ends. */
  elseIfs?: ElseIfRewrite[];
}

/**
 * What the stack needs from the analysis for fixes: where the current line
 * starts, and the candidate closer of a block that was never closed (`limit`:
 * the offset of the line whose closer skipped it, or the end of the text).
 */
export interface BlockFixes {
  lineStart(): number;
  closer(block: Block, limit: number): FixHint | undefined;
  /** The block was closed by its AVAP closer (end() or endLoop()) on the current line. */
  closedByCloser(block: Block): void;
}

/** Where a finding goes: the current line's token range. */
export interface Site {
  line: number;
  column: number;
  endColumn: number;
  token: string;
}

const CLOSER: Record<BlockKind, string> = {
  if: 'end()',
  loop: 'endLoop()',
  try: 'end()',
  async: 'end()',
  function: '}',
  brace: '}',
};

const LABEL: Record<BlockKind, string> = {
  if: 'if()',
  loop: 'startLoop()',
  try: 'try()',
  async: 'go_async()',
  function: 'function',
  brace: '{',
};

export function closerOf(kind: BlockKind): string {
  return CLOSER[kind];
}

/** How a block's opener is written (`if()`, `startLoop()`, `{` …), for messages and fix titles. */
export function openerOf(kind: BlockKind): string {
  return LABEL[kind];
}

function labelOf(block: Block): string {
  return block.kind === 'function' && block.name ? `function '${block.name}'` : `'${LABEL[block.kind]}'`;
}

/** Up to this depth the stack is scanned; past it, the answers come from indexes (BlockStack). */
const SHALLOW = 24;

/**
 * Every question the analysis asks the stack on each line (the enclosing
 * function, the outermost loop, the nearest open if(), whether a block is
 * still open) is answered by scanning it while it is shallow — a few steps,
 * cheaper than keeping indexes on every push and pop — and in constant time
 * from indexes once it is deeper than SHALLOW: scanning a deeply nested (or
 * never closed) stack on every line made such input cost depth × lines.
 * The indexes are built when the stack grows past SHALLOW
 * and dropped when it is back to half of that.
 */
const NO_COPIES: ReadonlyMap<Block, Block> = new Map();

export class BlockStack {
  private readonly blocks: Block[] = [];
  /** Open blocks that are not foreign brace blocks. */
  private avapBlocks = 0;
  /** The indexes, while the stack is deep. */
  private index: StackIndex | undefined;

  constructor(
    private readonly rep: Reporter,
    private readonly fixes?: BlockFixes,
  ) {}

  get top(): Block | undefined {
    // No read at index -1 when the stack is empty: that is a slow property look-up, on most lines.
    const n = this.blocks.length;
    return n > 0 ? this.blocks[n - 1] : undefined;
  }

  get depth(): number {
    return this.blocks.length;
  }

  /** The open blocks, outermost first. */
  get openBlocks(): readonly Block[] {
    return this.blocks;
  }

  /**
   * Opens copies of `other`'s open blocks on this (empty) stack, for an
   * analysis forked from another (fixes/resync.ts); returns each original's
   * copy. The copies share candidate-fix state with the originals: only the
   * findings of a fork are used.
   */
  copyFrom(other: BlockStack): ReadonlyMap<Block, Block> {
    // A fork at the top level (most of them) copies no block.
    if (other.blocks.length === 0) return NO_COPIES;
    const copies = new Map<Block, Block>();
    for (const block of other.blocks) {
      const copy: Block = { ...block };
      if (block.elseIfs) copy.elseIfs = [...block.elseIfs];
      this.push(copy);
      copies.set(block, copy);
    }
    return copies;
  }

  /** True when some enclosing block is not a foreign brace block. */
  get insideAvapBlock(): boolean {
    return this.avapBlocks > 0;
  }

  push(block: Block): void {
    block.lineStart ??= this.fixes?.lineStart();
    this.blocks.push(block);
    if (block.kind !== 'brace') this.avapBlocks++;
    if (this.index) this.index.push(this.blocks, this.blocks.length - 1);
    else if (this.blocks.length > SHALLOW) this.index = StackIndex.of(this.blocks);
  }

  pop(): Block | undefined {
    const block = this.blocks.pop();
    if (!block) return undefined;
    if (block.kind !== 'brace') this.avapBlocks--;
    if (this.index) {
      this.index.pop(block);
      if (this.blocks.length <= SHALLOW / 2) this.index = undefined;
    }
    return block;
  }

  private innermost(kind: BlockKind): number {
    if (this.index) return this.index.innermost(kind);
    for (let i = this.blocks.length - 1; i >= 0; i--) if ((this.blocks[i] as Block).kind === kind) return i;
    return -1;
  }

  /** Index of the nearest open block of `kind`, not looking past a function body. */
  find(kind: BlockKind): number {
    if (this.index) {
      const i = this.index.innermost(kind);
      return kind === 'function' || i > this.index.innermost('function') ? i : -1;
    }
    for (let i = this.blocks.length - 1; i >= 0; i--) {
      const b = this.blocks[i] as Block;
      if (b.kind === kind) return i;
      if (b.kind === 'function') return -1;
    }
    return -1;
  }

  get insideFunction(): boolean {
    return this.innermost('function') !== -1;
  }

  /** The innermost open function body: the scope of a variable (undefined at the top level). */
  get currentFunction(): Block | undefined {
    const i = this.innermost('function');
    return i >= 0 ? this.blocks[i] : undefined;
  }

  /** The outermost open startLoop() block of the current function body (or of the top level). */
  get outermostLoop(): Block | undefined {
    if (this.index) return this.index.outermostLoop();
    let found: Block | undefined;
    for (let i = this.blocks.length - 1; i >= 0; i--) {
      const b = this.blocks[i] as Block;
      if (b.kind === 'function') break;
      if (b.kind === 'loop') found = b;
    }
    return found;
  }

  /** True while `block` is open. */
  includes(block: Block): boolean {
    if (this.index) return block.at !== undefined && this.blocks[block.at] === block;
    return this.blocks.includes(block);
  }

  /** Reports and pops every block above index `keep` (they were never closed). */
  private closeAbove(keep: number, at: Site): void {
    while (this.blocks.length - 1 > keep) {
      const b = this.pop() as Block;
      if (b.kind === 'brace') continue;
      this.rep.at({
        rule: Rule.UnclosedBlock,
        line: b.line,
        column: b.column,
        endColumn: b.endColumn,
        message: `${labelOf(b)} opened here is not closed before line ${at.line} — add ${CLOSER[b.kind]}`,
        token: b.token,
        hint: this.fixes?.closer(b, this.fixes.lineStart()),
      });
    }
  }

  private closedByCloser(block: Block | undefined): void {
    if (block) this.fixes?.closedByCloser(block);
  }

  private error(rule: RuleDefinition, at: Site, message: string, suggestion?: string): void {
    this.rep.at({
      rule,
      line: at.line,
      column: at.column,
      endColumn: at.endColumn,
      message,
      token: at.token,
      suggestion,
    });
  }

  else(at: Site): void {
    const i = this.find('if');
    if (i === -1) {
      this.error(Rule.BranchOutsideBlock, at, 'else() outside an if() block');
      return;
    }
    this.closeAbove(i, at);
    const b = this.blocks[i] as Block;
    if (b.hasElse) this.error(Rule.DuplicateBranch, at, `second else() for the if() opened on line ${b.line}`);
    b.hasElse = true;
  }

  exception(at: Site): void {
    const i = this.find('try');
    if (i === -1) {
      this.error(Rule.BranchOutsideBlock, at, 'exception() outside a try() block');
      return;
    }
    this.closeAbove(i, at);
    const b = this.blocks[i] as Block;
    if (b.hasHandler) this.error(Rule.DuplicateBranch, at, `second exception() for the try() opened on line ${b.line}`);
    b.hasHandler = true;
  }

  /** `end()`: closes if, try, go_async (and, with a warning, a loop). */
  end(at: Site): void {
    const top = this.top;
    if (!top) {
      this.error(Rule.UnmatchedCloser, at, 'end() without an open if(), try() or go_async() block');
      return;
    }
    switch (top.kind) {
      case 'if':
      case 'async':
      case 'brace':
        this.closedByCloser(this.pop());
        return;
      case 'try':
        if (!top.hasHandler)
          this.error(
            Rule.TryWithoutException,
            at,
            `try() opened on line ${top.line} is closed without an exception() handler`,
          );
        this.closedByCloser(this.pop());
        return;
      case 'loop':
        this.rep.at({
          rule: Rule.LoopClosedByEnd,
          line: at.line,
          column: at.column,
          endColumn: at.endColumn,
          message: `startLoop() opened on line ${top.line} should be closed with endLoop(), not end()`,
          token: at.token,
          suggestion: 'endLoop',
        });
        this.closedByCloser(this.pop());
        return;
      case 'function':
        this.error(
          Rule.EndClosesFunction,
          at,
          `end() cannot close the body of function '${top.name ?? ''}' opened on line ${top.line} — close it with }`,
        );
        return;
    }
  }

  endLoop(at: Site): void {
    const top = this.top;
    if (top?.kind === 'loop') {
      this.closedByCloser(this.pop());
      return;
    }
    const i = this.find('loop');
    if (i === -1) {
      const closesOther = top && (top.kind === 'if' || top.kind === 'try' || top.kind === 'async');
      this.error(
        Rule.UnmatchedCloser,
        at,
        'endLoop() without a matching startLoop()' +
          (closesOther ? ` — the open block is ${labelOf(top)} from line ${top.line}, closed by end()` : ''),
        closesOther ? 'end' : undefined,
      );
      return;
    }
    this.closeAbove(i, at);
    this.pop();
  }

  /** `}`: closes a function body (or a foreign brace block, reported by the caller). */
  closeBrace(at: Site): Block | undefined {
    const top = this.top;
    if (top && (top.kind === 'function' || top.kind === 'brace' || top.braceBody)) {
      return this.pop();
    }
    const i = this.find('function');
    if (i === -1) return undefined;
    this.closeAbove(i, at);
    return this.pop();
  }

  /** Reports every block still open at the end of the file. */
  finish(): void {
    for (const b of this.blocks) {
      if (b.kind === 'brace' || b.braceBody) continue;
      let hint = `add ${CLOSER[b.kind]}`;
      if (b.kind === 'try' && !b.hasHandler) hint = 'add exception(err) … end()';
      if (b.kind === 'function' && b.awaitingBrace) continue; // reported as a missing '{'
      this.rep.at({
        rule: Rule.UnclosedBlock,
        line: b.line,
        column: b.column,
        endColumn: b.endColumn,
        message: `${labelOf(b)} opened here is never closed — ${hint}`,
        token: b.token,
        hint: this.fixes?.closer(b, Number.MAX_SAFE_INTEGER),
      });
    }
    while (this.pop());
  }
}

/** What a deep stack is asked on every line, kept up to date on push and pop (BlockStack). */
class StackIndex {
  /** Stack positions of the open blocks of each kind, innermost last. */
  private readonly byKind: Record<BlockKind, number[]> = {
    if: [],
    loop: [],
    try: [],
    async: [],
    function: [],
    brace: [],
  };
  /** Per stack position: the outermost loop between it and the function body (or top level) it is in. */
  private readonly outerLoop: (Block | undefined)[] = [];

  static of(blocks: readonly Block[]): StackIndex {
    const index = new StackIndex();
    for (let i = 0; i < blocks.length; i++) index.push(blocks, i);
    return index;
  }

  /** `blocks[at]` was pushed. */
  push(blocks: readonly Block[], at: number): void {
    const block = blocks[at] as Block;
    const below = blocks[at - 1];
    block.at = at;
    this.byKind[block.kind].push(at);
    const inherited = below && below.kind !== 'function' ? this.outerLoop[at - 1] : undefined;
    this.outerLoop.push(
      block.kind === 'function' ? undefined : (inherited ?? (block.kind === 'loop' ? block : undefined)),
    );
  }

  pop(block: Block): void {
    this.byKind[block.kind].pop();
    this.outerLoop.pop();
  }

  innermost(kind: BlockKind): number {
    const positions = this.byKind[kind];
    const n = positions.length;
    return n > 0 ? (positions[n - 1] as number) : -1;
  }

  outermostLoop(): Block | undefined {
    return this.outerLoop[this.outerLoop.length - 1];
  }
}

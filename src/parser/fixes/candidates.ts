/**
 * Candidate fixes, before their proof: what the analysis attaches to a finding
 * when it sees a mechanical repair (edits in source offsets), and the helpers
 * that build the ones needing more of the file than the current line (where an
 * indented body ends, a fresh variable name). A candidate is only a guess until
 * prove.ts has re-parsed the fixed program.
 */
import type { OffsetEdit } from './text';

export interface Candidate {
  title: string;
  edits: OffsetEdit[];
}

/** White space as a regular expression's `\s` has it (a code unit). */
const isSpace = (c: number): boolean =>
  c === 32 || (c >= 9 && c <= 13) || (c >= 128 && /\s/.test(String.fromCharCode(c)));

/**
 * The spaces and tabs that begin the first line (within the first `limit` characters) where they are followed by
 * something other than white space, or '': what /(?:^|[\r\n])([ \t]+)\S/ finds in them, found from line break to
 * line break (the expression tried every character of a file with no indented line, as F5's).
 */
function firstIndent(src: string, limit: number): string {
  const end = Math.min(src.length, limit);
  const at = (start: number): string | undefined => {
    let i = start;
    while (i < end && (src.charCodeAt(i) === 32 || src.charCodeAt(i) === 9)) i++;
    return i > start && i < end && !isSpace(src.charCodeAt(i)) ? src.slice(start, i) : undefined;
  };
  const first = at(0);
  if (first !== undefined) return first;
  let lf = src.indexOf('\n');
  let cr = src.indexOf('\r');
  for (;;) {
    const brk = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
    if (brk === -1 || brk >= end) return '';
    const found = at(brk + 1);
    if (found !== undefined) return found;
    if (brk === lf) lf = src.indexOf('\n', brk + 1);
    else cr = src.indexOf('\r', brk + 1);
  }
}

/** Read-only facts about the source that builders share, computed once and only when a builder asks. */
export class FixContext {
  private eolCache: string | undefined;
  private unitCache: string | undefined;
  private readonly words = new Map<string, boolean>();

  /**
   * @param partial the text is the beginning of a program still being written
   *   (a streamed answer): a fix that needs what the later lines hold or lack
   *   is not offered, or offered as if they will hold it (see ParseOptions.partial)
   */
  constructor(
    readonly src: string,
    readonly partial = false,
  ) {}

  /** The line break the file uses (CRLF when its first break is one). */
  get eol(): string {
    if (this.eolCache === undefined) {
      const lf = this.src.indexOf('\n');
      const cr = this.src.indexOf('\r');
      this.eolCache = cr !== -1 && (lf === -1 || cr < lf) ? (this.src.charCodeAt(cr + 1) === 10 ? '\r\n' : '\r') : '\n';
    }
    return this.eolCache;
  }

  /** One level of indentation as the file writes it (its first indented line), else two spaces. */
  get indentUnit(): string {
    if (this.unitCache === undefined) {
      const found = firstIndent(this.src, 64 * 1024);
      this.unitCache = found.startsWith('\t')
        ? '\t'
        : found.length >= 2 && found.length <= 8
          ? ' '.repeat(found.length)
          : '  ';
    }
    return this.unitCache;
  }

  /** True when `word` appears in the source as a whole identifier. */
  uses(word: string): boolean {
    let seen = this.words.get(word);
    if (seen === undefined) {
      seen = new RegExp(`(?<![\\p{L}\\p{N}_$])${word}(?![\\p{L}\\p{N}_])`, 'u').test(this.src);
      this.words.set(word, seen);
    }
    return seen;
  }

  /** The first of `names`, then `names[0]` with a number, that the source does not use yet. */
  fresh(...names: string[]): string {
    for (const name of names) if (!this.uses(name)) return name;
    const base = names[0] ?? 'tmp';
    for (let n = 2; ; n++) if (!this.uses(`${base}${n}`)) return `${base}${n}`;
  }
}

/** A candidate known at report time, or one built later (only for the findings that get a proof). */
export type FixHint = Candidate | ((ctx: FixContext) => Candidate | undefined);

export function materialize(hint: FixHint, ctx: FixContext): Candidate | undefined {
  return typeof hint === 'function' ? hint(ctx) : hint;
}

const isBreak = (c: number) => c === 10 || c === 13;
const isBlank = (c: number) => c === 32 || c === 9;

/** Offset where the line holding `offset` starts. */
export function lineStartOf(src: string, offset: number): number {
  let i = offset;
  while (i > 0 && !isBreak(src.charCodeAt(i - 1))) i--;
  return i;
}

/** Offset where the text of the line holding `offset` ends (before its break). */
export function lineEndOf(src: string, offset: number): number {
  let i = offset;
  while (i < src.length && !isBreak(src.charCodeAt(i))) i++;
  return i;
}

/** Offset of the line after the one holding `offset` (the text's length on the last line). */
export function nextLineStart(src: string, offset: number): number {
  const end = lineEndOf(src, offset);
  if (end >= src.length) return src.length;
  return end + (src.charCodeAt(end) === 13 && src.charCodeAt(end + 1) === 10 ? 2 : 1);
}

/** The leading blanks of the line starting at `lineStart`. */
export function indentAt(src: string, lineStart: number): string {
  let i = lineStart;
  while (i < src.length && isBlank(src.charCodeAt(i))) i++;
  return src.slice(lineStart, i);
}

/** Deletes the whole line holding `offset`, its line break included (the previous break on the last line). */
export function deleteLine(src: string, offset: number): OffsetEdit {
  const start = lineStartOf(src, offset);
  const next = nextLineStart(src, offset);
  if (next < src.length || start === 0 || lineEndOf(src, offset) < src.length) return { start, end: next, newText: '' };
  // The last line, without a break after it: take the break before it instead.
  let from = start - 1;
  if (from > 0 && src.charCodeAt(from) === 10 && src.charCodeAt(from - 1) === 13) from--;
  return { start: from, end: next, newText: '' };
}

/**
 * How a line at the opener's own indentation relates to the block: a branch of
 * it (`else()`, `exception(e)`, or a foreign one to rewrite: `else:`), a line
 * that makes the block's shape unclear (no fix), or neither (the body has
 * ended). `start` is the offset of the line's text.
 */
export type BranchTest = (content: string, start: number) => { length: number; newText?: string } | 'abort' | undefined;

export interface IndentedBody {
  /** Offset of the end of the body's last line: where a closer goes. */
  end: number;
  /** Edits for foreign branch lines the test asked to rewrite. */
  branchEdits: OffsetEdit[];
  /** The indentation of the first body line. */
  bodyIndent: string;
}

const MAX_SCANNED_PREFIX = 200;

/**
 * The body of the block opened on the line starting at `openerLineStart`, by
 * indentation: the following lines indented deeper than the opener (blank
 * lines do not end it), and branch lines at the opener's indentation. Stops at
 * `limit` (the line that closes an outer block) and at the end of the text.
 * Undefined when no line is indented under the opener: then the block's
 * extent is a guess, and no closer is offered.
 */
export function indentedBody(
  src: string,
  openerLineStart: number,
  limit: number,
  branch?: BranchTest,
): IndentedBody | undefined {
  const openerIndent = indentAt(src, openerLineStart);
  let pos = nextLineStart(src, openerLineStart);
  let end = -1;
  let bodyIndent: string | undefined;
  const branchEdits: OffsetEdit[] = [];
  const stop = Math.min(limit, src.length);
  while (pos < stop) {
    const indent = indentAt(src, pos);
    const contentStart = pos + indent.length;
    const lineEnd = lineEndOf(src, contentStart);
    if (contentStart < lineEnd) {
      if (indent.length > openerIndent.length && indent.startsWith(openerIndent)) {
        bodyIndent ??= indent;
        end = lineEnd;
      } else if (indent === openerIndent && branch && end !== -1) {
        const verdict = branch(
          src.slice(contentStart, Math.min(lineEnd, contentStart + MAX_SCANNED_PREFIX)),
          contentStart,
        );
        if (verdict === 'abort') return undefined;
        if (!verdict) break;
        if (verdict.newText !== undefined)
          branchEdits.push({ start: contentStart, end: contentStart + verdict.length, newText: verdict.newText });
        end = lineEnd;
      } else {
        break;
      }
    }
    const next = nextLineStart(src, pos);
    if (next <= pos) break;
    pos = next;
  }
  if (end === -1 || bodyIndent === undefined) return undefined;
  return { end, branchEdits, bodyIndent };
}

/** Inserts `closer` on its own line, at the opener's indentation, after the indented body. */
export function closerAfterBody(
  ctx: FixContext,
  openerLineStart: number,
  body: IndentedBody,
  closer: string,
): OffsetEdit {
  return { start: body.end, end: body.end, newText: `${ctx.eol}${indentAt(ctx.src, openerLineStart)}${closer}` };
}

/** A quoted snippet for a fix title, shortened. */
export function quote(text: string, max = 48): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return `'${oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine}'`;
}

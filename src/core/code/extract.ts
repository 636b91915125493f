/**
 * Finds the AVAP code an answer shows. Pure.
 *
 * The rule: every line a reader sees as code is validated. A reader sees code
 * where Markdown renders it (CommonMark, as the chat renders answers:
 * markdownCode.ts) and where lines of the text are plainly a program
 * (bareCode.ts, for the CLI's raw text and for answers with no fences):
 *
 * - Fenced blocks labelled `avap` (any case, or `avp`) are AVAP, at any
 *   indentation — inside list items, inside blockquotes.
 * - Unlabelled fences and indented code blocks are AVAP unless they are
 *   plainly something else (JSON output, a shell command, an HTTP exchange:
 *   notAvap.ts).
 * - Fences labelled as data or shell (json, yaml, bash, text…) never are.
 * - Runs of lines written without a fence that form a program are AVAP, with
 *   every line among them (`while n > 0:` between two calls is validated,
 *   never dropped).
 * - When none of these exists, fences labelled with another programming
 *   language are taken instead (a model that writes ```python is exactly what
 *   validation must catch).
 *
 * Every block remembers where each of its lines is in the response (line,
 * and the column its code starts at), so the parser's trace and fixes map
 * back onto the response.
 */
import type { TraceEntry } from '../../parser';
import { bareBlocks, type BareMode } from './bareCode';
import { scanMarkdown, splitLines, type MarkdownCode } from './markdownCode';
import { plainlyNotAvap } from './notAvap';

export { /** @internal */ isCodeLine, /** @internal */ isWholeCodeLine } from './bareCode';
export { stripThinking } from './thinking';

export interface CodeBlock {
  code: string;
  /** 1-based line of the response on which the block's first line is. */
  startLine: number;
  /** Fence label ('' for unlabelled, indented or bare code). */
  label: string;
  /** Markdown shows it as a code block (a fence, or an indented block); false for code written without one. */
  fenced: boolean;
  /**
   * For each line of `code`: what its response line holds before it (a list
   * item's indentation, a quote's `> `). Absent when every line starts at the
   * beginning of its response line.
   */
  prefixes?: string[];
}

/** Fence labels that say the block is AVAP: `avap` (and `avap-…`), the `avp` slip, a file name `….avap`. */
const isAvapLabel = (label: string) => /^avap([^a-z]|$)/.test(label) || label === 'avp' || /\.avap$/.test(label);

/** Fence labels of data, output and shell: never AVAP, never another programming language to fall back to. */
const NON_CODE_LABELS = new Set([
  'json',
  'jsonc',
  'json5',
  'jsonl',
  'ndjson',
  'yaml',
  'yml',
  'toml',
  'ini',
  'env',
  'dotenv',
  'properties',
  'bash',
  'sh',
  'zsh',
  'shell',
  'shell-session',
  'console',
  'terminal',
  'powershell',
  'ps1',
  'cmd',
  'bat',
  'curl',
  'text',
  'txt',
  'plain',
  'plaintext',
  'none',
  'nohighlight',
  'output',
  'log',
  'http',
  'xml',
  'html',
  'markdown',
  'md',
  'csv',
  'diff',
]);

const FENCE_OPEN = /^\s{0,3}(`{3,}|~{3,})\s*([\w+#.-]*)[^\n]*$/;

/** The marker and label of a line that opens a fence; undefined for any other line. */
export function fenceOpening(line: string): { marker: string; label: string } | undefined {
  const match = FENCE_OPEN.exec(line);
  return match?.[1] ? { marker: match[1], label: (match[2] ?? '').toLowerCase() } : undefined;
}

/** Whether `line` closes a fence opened with `marker`. */
export function closesFence(line: string, marker: string): boolean {
  const trimmed = line.trim();
  return trimmed.startsWith(marker) && trimmed.replace(/[`~]/g, '') === '';
}

/** Labels of the fences whose code an answer shows as AVAP whenever there are any (`extractCode` prefers them). */
export function isAvapFenceLabel(label: string): boolean {
  return label === '' || isAvapLabel(label);
}

function toBlock(found: MarkdownCode): CodeBlock {
  const block: CodeBlock = {
    code: found.lines.map((l) => l.text).join('\n'),
    startLine: found.lines[0]?.line ?? 1,
    label: found.label,
    fenced: true,
  };
  if (found.lines.some((l) => l.prefix !== '')) block.prefixes = found.lines.map((l) => l.prefix);
  return block;
}

/** Labels of fences that show Markdown source: the code blocks inside them are looked for too. */
const MARKDOWN_LABELS = new Set(['markdown', 'md']);

/** A block found inside the code of `outer`, placed on the response. */
function nested(outer: CodeBlock, inner: CodeBlock): CodeBlock {
  const lines = inner.code.split('\n').length;
  // Whatever it is inside, Markdown shows it within the outer code block.
  const block: CodeBlock = { ...inner, startLine: outer.startLine + inner.startLine - 1, fenced: true };
  delete block.prefixes;
  const prefixes = Array.from(
    { length: lines },
    (_, i) => (outer.prefixes?.[inner.startLine - 1 + i] ?? '') + (inner.prefixes?.[i] ?? ''),
  );
  if (prefixes.some((p) => p !== '')) block.prefixes = prefixes;
  return block;
}

/**
 * The AVAP blocks of a response, and the blocks in another programming
 * language to fall back to; `mode` is how lines written without a fence are
 * read when Markdown shows no code block at all (with code blocks, only lines
 * that are wholly code start a program outside them).
 */
function findCode(response: string, mode: BareMode, depth = 0): { avap: CodeBlock[]; other: CodeBlock[] } {
  const lines = splitLines(response);
  const scan = scanMarkdown(response);
  const avap: CodeBlock[] = [];
  const other: CodeBlock[] = [];
  for (const found of scan.blocks) {
    const block = toBlock(found);
    if (isAvapLabel(block.label)) avap.push(block);
    else if (MARKDOWN_LABELS.has(block.label) && depth < 3) {
      // Markdown source shown as code: the fences in it are shown too, as literal text.
      const inner = findCode(block.code, 'strict', depth + 1);
      avap.push(...inner.avap.map((b) => nested(block, b)));
      other.push(...inner.other.map((b) => nested(block, b)));
    } else if (block.label === '') {
      if (!plainlyNotAvap(block.code)) avap.push(block);
    } else if (!NON_CODE_LABELS.has(block.label)) other.push(block);
  }
  const bareMode: BareMode = scan.blocks.length ? 'strict' : mode;
  for (const bare of bareBlocks(lines, bareMode, scan.covered)) {
    const code = bare.lines.join('\n');
    if (!plainlyNotAvap(code)) avap.push({ code, startLine: bare.startLine, label: '', fenced: false });
  }
  avap.sort((a, b) => a.startLine - b.startLine);
  return { avap, other };
}

/** The code blocks of an answer to a code request. */
export function extractCode(response: string): CodeBlock[] {
  const { avap, other } = findCode(response, 'loose');
  return avap.length ? avap : other;
}

/** The blocks of an answer to a code request; an answer with text but no recognisable code is validated whole. */
export function codeAnswerBlocks(response: string): CodeBlock[] {
  const blocks = extractCode(response);
  if (blocks.length || !response.trim()) return blocks;
  return [{ code: response, startLine: 1, label: '', fenced: false }];
}

/**
 * The AVAP code blocks a reader is shown in an answer that is prose first
 * (documentation, conversation, platform answers): its code blocks (as
 * `extractCode` picks them) and runs of lines that are wholly code and hold a
 * statement. Every one of them must be validated before the answer may be
 * called valid.
 */
export function shownCodeBlocks(response: string): CodeBlock[] {
  const { avap, other } = findCode(response, 'strict');
  return avap.length ? avap : other;
}

/** The candidate program: the blocks one after the other, and where each starts in it. */
export function joinBlocks(blocks: readonly CodeBlock[]): { code: string; offsets: number[] } {
  const offsets: number[] = [];
  const parts: string[] = [];
  let line = 0;
  for (const block of blocks) {
    offsets.push(line);
    parts.push(block.code);
    line += block.code.split('\n').length;
  }
  return { code: parts.join('\n'), offsets };
}

/** What the response holds before line `line` (1-based) of the block's code. */
const prefixOf = (block: CodeBlock, line: number): string => block.prefixes?.[line - 1] ?? '';

/** A position of the block's code (1-based line and column) on the response. */
function onResponse(block: CodeBlock, line: number, column: number): { line: number; column: number } {
  return { line: line + block.startLine - 1, column: column + prefixOf(block, line).length };
}

/**
 * A trace entry of the block's code moved onto the response (its fix's edits
 * too: a line a fix inserts gets the container's prefix, so it stays in the
 * list item or the quote).
 */
export function entryOnResponse(block: CodeBlock, entry: TraceEntry): TraceEntry {
  const at = onResponse(block, entry.line, entry.column);
  const shift = at.column - entry.column;
  const moved: TraceEntry = { ...entry, line: at.line, column: at.column, endColumn: entry.endColumn + shift };
  if (entry.fix)
    moved.fix = {
      ...entry.fix,
      edits: entry.fix.edits.map((e) => {
        const from = onResponse(block, e.line, e.column);
        const to = onResponse(block, e.endLine, e.endColumn);
        const prefix = prefixOf(block, e.line);
        const newText = prefix ? e.newText.replace(/\r\n|\n|\r/g, (eol) => `${eol}${prefix}`) : e.newText;
        return { ...e, line: from.line, column: from.column, endLine: to.line, endColumn: to.column, newText };
      }),
    };
  return moved;
}

/** `text` with `prefix` taken off the start of every line after its first. */
function withoutPrefix(text: string, prefix: string): string {
  return text
    .split(/(\r\n|\n|\r)/)
    .map((part, i) => (i > 0 && i % 2 === 0 && part.startsWith(prefix) ? part.slice(prefix.length) : part))
    .join('');
}

/** The entries of a response trace that fall on the block, moved onto the block's own code. */
export function blockEntries(block: CodeBlock, responseTrace: readonly TraceEntry[]): TraceEntry[] {
  const count = block.code.split('\n').length;
  const last = block.startLine + count - 1;
  return responseTrace
    .filter((e) => e.line >= block.startLine && e.line <= last)
    .map((e) => {
      const line = e.line - block.startLine + 1;
      const shift = prefixOf(block, line).length;
      const back = (l: number, c: number) => Math.max(1, c - prefixOf(block, l - block.startLine + 1).length);
      const moved: TraceEntry = {
        ...e,
        line,
        column: Math.max(1, e.column - shift),
        endColumn: Math.max(1, e.endColumn - shift),
      };
      if (e.fix)
        moved.fix = {
          ...e.fix,
          edits: e.fix.edits.map((x) => {
            const prefix = prefixOf(block, x.line - block.startLine + 1);
            return {
              ...x,
              line: x.line - block.startLine + 1,
              column: back(x.line, x.column),
              endLine: x.endLine - block.startLine + 1,
              endColumn: back(x.endLine, x.endColumn),
              newText: prefix ? withoutPrefix(x.newText, prefix) : x.newText,
            };
          }),
        };
      return moved;
    });
}

/**
 * Finds the AVAP code in a model's answer. Pure.
 *
 * - Fenced blocks labelled `avap` (any case) or unlabelled are code.
 * - When there are none, fenced blocks with another programming-language
 *   label are taken instead (a model that writes ```python is exactly what
 *   validation must catch); data/shell labels (json, yaml, bash, text…) never are.
 * - With no fences at all, runs of code-shaped lines (calls, assignments,
 *   comments, braces) are bare code; prose lines are not.
 *
 * Every block remembers the response line its first code line is on, so the
 * parser's trace can be mapped back onto the response.
 */

export interface CodeBlock {
  code: string;
  /** 1-based line of the response on which the block's first line is. */
  startLine: number;
  /** Fence label ('' for unlabelled or bare code). */
  label: string;
  fenced: boolean;
}

const FENCE_OPEN = /^\s{0,3}(`{3,}|~{3,})\s*([\w+#.-]*)[^\n]*$/;
const NON_CODE_LABELS = new Set([
  'json',
  'jsonc',
  'yaml',
  'yml',
  'bash',
  'sh',
  'shell',
  'console',
  'text',
  'txt',
  'plaintext',
  'output',
  'http',
  'xml',
  'html',
  'markdown',
  'md',
  'csv',
  'diff',
]);

/** Removes `<think>…</think>` reasoning some models emit before the answer. */
export function stripThinking(text: string): string {
  let out = text.replace(/<think>[\s\S]*?<\/think>\s*/g, '');
  const close = out.indexOf('</think>');
  if (close >= 0) out = out.slice(close + '</think>'.length).trimStart();
  return out;
}

interface Fence {
  label: string;
  startLine: number;
  lines: string[];
}

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
  return label === '' || label === 'avap';
}

function fences(lines: readonly string[]): Fence[] {
  const out: Fence[] = [];
  let open: { marker: string; fence: Fence } | undefined;
  lines.forEach((line, index) => {
    if (open) {
      if (closesFence(line, open.marker)) {
        out.push(open.fence);
        open = undefined;
      } else {
        open.fence.lines.push(line);
      }
      return;
    }
    const opening = fenceOpening(line);
    if (opening) open = { marker: opening.marker, fence: { label: opening.label, startLine: index + 2, lines: [] } };
  });
  // An unterminated fence (a cut stream) still holds code.
  if (open) out.push(open.fence);
  return out;
}

const CODE_LINE = [
  /^[A-Za-z_$][\w.$]*\s*\(.*\)?\s*;?\s*(\{\s*)?(\/\/.*)?$/, // call, or function header
  /^[A-Za-z_$][\w.$]*(\[[^\]]*\])?\s*=\s*\S.*$/, // assignment
  /^(\/\/|\/\*|\*\/|\*\s|\*$)/, // comment lines
  /^[{}]\s*;?$/, // braces
  /^(return|function)\b.*$/,
];

export function isCodeLine(line: string): boolean {
  const text = line.trim();
  if (!text) return false;
  return CODE_LINE.some((re) => re.test(text));
}

function bareBlocks(lines: readonly string[], isCode: (line: string) => boolean = isCodeLine): CodeBlock[] {
  const out: CodeBlock[] = [];
  let current: { start: number; lines: string[] } | undefined;
  const flush = () => {
    if (!current) return;
    while (current.lines.length && !current.lines[current.lines.length - 1]?.trim()) current.lines.pop();
    if (current.lines.length)
      out.push({ code: current.lines.join('\n'), startLine: current.start, label: '', fenced: false });
    current = undefined;
  };
  lines.forEach((line, index) => {
    if (isCode(line)) {
      current ??= { start: index + 1, lines: [] };
      current.lines.push(line);
    } else if (!line.trim() && current) {
      current.lines.push(line);
    } else {
      flush();
    }
  });
  flush();
  return out;
}

/** The fenced blocks that hold code (`undefined` when the response has no fences at all). */
function fencedCode(lines: readonly string[]): CodeBlock[] | undefined {
  const all = fences(lines).filter((f) => f.lines.some((l) => l.trim()));
  const toBlock = (f: Fence): CodeBlock => ({
    code: f.lines.join('\n'),
    startLine: f.startLine,
    label: f.label,
    fenced: true,
  });
  const preferred = all.filter((f) => isAvapFenceLabel(f.label));
  if (preferred.length) return preferred.map(toBlock);
  const otherCode = all.filter((f) => !NON_CODE_LABELS.has(f.label));
  if (otherCode.length) return otherCode.map(toBlock);
  return all.length ? [] : undefined;
}

export function extractCode(response: string): CodeBlock[] {
  const lines = response.split(/\r?\n/);
  return fencedCode(lines) ?? bareBlocks(lines);
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

/** Index just past the parenthesis that closes the one at `open` (strings respected); -1 if unbalanced. */
function closingParen(line: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let i = open; i < line.length; i += 1) {
    const c = line[i];
    if (quote) {
      if (c === '\\') i += 1;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth += 1;
    else if (c === ')' && --depth === 0) return i + 1;
  }
  return -1;
}

/**
 * A line that is code and nothing else: a whole call (nothing but `{`, `;` or
 * a comment after its closing parenthesis), an assignment, a comment, a brace.
 * Stricter than `isCodeLine`, so prose that starts with a command name
 * ("addParam(name, target) reads the parameter…") is not taken for code.
 */
export function isWholeCodeLine(line: string): boolean {
  const text = line.trim();
  if (!text) return false;
  const call = /^[A-Za-z_$][\w.$]*\s*\(/.exec(text);
  if (call) {
    const end = closingParen(text, call[0].length - 1);
    return end > 0 && /^\s*;?\s*(\{\s*)?(\/\/.*)?$/.test(text.slice(end));
  }
  return CODE_LINE.slice(1).some((re) => re.test(text));
}

/**
 * The AVAP code blocks a reader is shown in an answer that is prose first
 * (documentation, conversation, platform answers): its code fences (as
 * `extractCode` picks them) or, in an answer without fences, runs of lines
 * that are wholly code. Every one of them must be validated before the
 * answer may be called valid.
 */
export function shownCodeBlocks(response: string): CodeBlock[] {
  const lines = response.split(/\r?\n/);
  const statement = (line: string) =>
    /^\s*[A-Za-z_$][\w.$]*\s*(\(|(\[[^\]]*\])?\s*=)/.test(line) && !/^\s*(return|function)\b/.test(line);
  return fencedCode(lines) ?? bareBlocks(lines, isWholeCodeLine).filter((b) => b.code.split('\n').some(statement));
}

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
const NON_CODE_LABELS = new Set(['json', 'jsonc', 'yaml', 'yml', 'bash', 'sh', 'shell', 'console', 'text', 'txt', 'plaintext', 'output', 'http', 'xml', 'html', 'markdown', 'md', 'csv', 'diff']);

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

function fences(lines: readonly string[]): Fence[] {
  const out: Fence[] = [];
  let open: { marker: string; fence: Fence } | undefined;
  lines.forEach((line, index) => {
    if (open) {
      const trimmed = line.trim();
      if (trimmed.startsWith(open.marker) && trimmed.replace(/[`~]/g, '') === '') {
        out.push(open.fence);
        open = undefined;
      } else {
        open.fence.lines.push(line);
      }
      return;
    }
    const match = FENCE_OPEN.exec(line);
    if (match?.[1]) open = { marker: match[1], fence: { label: (match[2] ?? '').toLowerCase(), startLine: index + 2, lines: [] } };
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

function bareBlocks(lines: readonly string[]): CodeBlock[] {
  const out: CodeBlock[] = [];
  let current: { start: number; lines: string[] } | undefined;
  const flush = () => {
    if (!current) return;
    while (current.lines.length && !current.lines[current.lines.length - 1]?.trim()) current.lines.pop();
    if (current.lines.length) out.push({ code: current.lines.join('\n'), startLine: current.start, label: '', fenced: false });
    current = undefined;
  };
  lines.forEach((line, index) => {
    if (isCodeLine(line)) {
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

export function extractCode(response: string): CodeBlock[] {
  const lines = response.split(/\r?\n/);
  const all = fences(lines).filter((f) => f.lines.some((l) => l.trim()));
  const toBlock = (f: Fence): CodeBlock => ({ code: f.lines.join('\n'), startLine: f.startLine, label: f.label, fenced: true });
  const preferred = all.filter((f) => f.label === '' || f.label === 'avap');
  if (preferred.length) return preferred.map(toBlock);
  const otherCode = all.filter((f) => !NON_CODE_LABELS.has(f.label));
  if (otherCode.length) return otherCode.map(toBlock);
  if (all.length) return [];
  return bareBlocks(lines);
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

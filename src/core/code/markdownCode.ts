/**
 * The code blocks Markdown renders, found the way a CommonMark renderer finds
 * them (markdown-it, the parser the chat renders answers with): fenced blocks
 * at any indentation — inside list items at any depth, inside blockquotes —
 * and indented code blocks. Pure.
 *
 * Each block keeps, for every code line, the response line it is on and what
 * that line holds before the code (the list indentation, the `> ` of a
 * quote), so the parser's findings and fixes map back onto the response
 * exactly.
 */
import MarkdownIt from 'markdown-it';

interface CodeLine {
  /** 1-based line of the response. */
  line: number;
  /** The code on it, without the container's prefix. */
  text: string;
  /** What the response line holds before `text` (a list item's indentation, a quote's `> `). */
  prefix: string;
}

export interface MarkdownCode {
  kind: 'fence' | 'indented';
  /** The fence's label: the first word of its info string, lower-cased ('' for none and for indented blocks). */
  label: string;
  lines: CodeLine[];
}

export interface MarkdownScan {
  blocks: MarkdownCode[];
  /** 1-based response lines that belong to a code block, fence lines included. */
  covered: Set<number>;
}

// Block structure is all that decides where code is: inline parsing (emphasis, links…) is skipped.
const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
md.core.ruler.disable(['inline', 'text_join']);

/** The lines of a text as Markdown counts them (`\r\n`, `\r` and `\n` all end a line). */
export const splitLines = (text: string): string[] => text.split(/\r\n?|\n/);

/** The label of an info string: its first word, lower-cased. */
function infoLabel(info: string): string {
  return (info.trim().split(/[\s{:,]/)[0] ?? '').toLowerCase();
}

function codeLine(source: readonly string[], index: number, content: string): CodeLine {
  const raw = source[index] ?? '';
  if (raw.endsWith(content))
    return { line: index + 1, text: content, prefix: raw.slice(0, raw.length - content.length) };
  // A tab in the container's indentation was expanded: keep the rendered text, anchored at its first character.
  const lead = content.length - content.trimStart().length;
  return {
    line: index + 1,
    text: content,
    prefix: raw.slice(0, Math.max(0, raw.length - content.trimStart().length - lead)),
  };
}

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})([^`]*)$/;

/**
 * An indented block whose lines hold fences (a fenced block indented past a
 * list item's content, which CommonMark shows literally inside a code block):
 * the fences' code and the code around them, without the fence lines.
 */
function splitIndented(lines: CodeLine[]): MarkdownCode[] {
  const out: MarkdownCode[] = [];
  let current: MarkdownCode = { kind: 'indented', label: '', lines: [] };
  let marker = '';
  const flush = (next: MarkdownCode) => {
    if (current.lines.some((l) => l.text.trim())) out.push(current);
    current = next;
  };
  for (const line of lines) {
    const fence = FENCE_LINE.exec(line.text);
    if (!marker && fence?.[1]) {
      marker = fence[1];
      flush({ kind: 'fence', label: infoLabel(fence[2] ?? ''), lines: [] });
    } else if (
      marker &&
      fence?.[1] &&
      fence[1][0] === marker[0] &&
      fence[1].length >= marker.length &&
      !fence[2]?.trim()
    ) {
      marker = '';
      flush({ kind: 'indented', label: '', lines: [] });
    } else {
      current.lines.push(line);
    }
  }
  flush({ kind: 'indented', label: '', lines: [] });
  return out;
}

/** The code blocks Markdown renders in `text`, in order. */
export function scanMarkdown(text: string): MarkdownScan {
  const source = splitLines(text);
  const blocks: MarkdownCode[] = [];
  const covered = new Set<number>();
  for (const token of md.parse(text, {})) {
    if ((token.type !== 'fence' && token.type !== 'code_block') || !token.map) continue;
    const [start, end] = token.map;
    for (let i = start; i < end; i += 1) covered.add(i + 1);
    const content = token.content.endsWith('\n') ? token.content.slice(0, -1) : token.content;
    const first = token.type === 'fence' ? start + 1 : start;
    const lines =
      content === '' && first >= end ? [] : content.split('\n').map((c, i) => codeLine(source, first + i, c));
    if (token.type === 'fence') {
      if (lines.some((l) => l.text.trim())) blocks.push({ kind: 'fence', label: infoLabel(token.info), lines });
    } else {
      blocks.push(...splitIndented(lines));
    }
  }
  return { blocks, covered };
}

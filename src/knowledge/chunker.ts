/**
 * Splits knowledge documents into retrieval chunks: one chunk per `##`/`###`
 * section (the text before the first `##` is the "Overview"), long sections cut
 * at block boundaries (never inside a fenced code block). Each chunk carries
 * metadata for filtering and display: the commands it mentions, the kinds of
 * Markdown blocks it holds, the AVAP constructs of its code, its source doc.
 */
import { CONSTRUCT_ORDER, detectCommands, detectConstructs, isCatalogueCommand } from './avapScan';
import type { AvapConstruct, BlockKind, DocChunk, KnowledgeDoc } from './types';

export interface ChunkOptions {
  /** Sections longer than this (characters) are cut at block boundaries. Default 1800. */
  maxChars?: number;
  /**
   * Sections shorter than this (characters) are merged into the previous section
   * of the same document (the first one into the next), so no chunk is a bare
   * signature or a list of related names. Default 320; 0 disables merging.
   */
  minChars?: number;
}

const DEFAULT_MAX_CHUNK_CHARS = 1800;
const DEFAULT_MIN_CHUNK_CHARS = 320;

/** A Markdown block: a paragraph, list, table, heading or fenced code block. */
export interface MarkdownBlock {
  kind: BlockKind | 'heading';
  text: string;
  /** Info string of a fenced block (`avap`, `text`…), lower-cased. */
  lang?: string;
  /** Heading level (1–6) for headings. */
  level?: number;
}

/**
 * Cuts a Markdown body into blocks. Unclosed fences run to the end.
 * @internal
 */
export function markdownBlocks(body: string): MarkdownBlock[] {
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  const blocks: MarkdownBlock[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (line.trim() === '') {
      i++;
      continue;
    }
    const fence = /^(\s*)(`{3,}|~{3,})\s*([^`\s]*)/.exec(line);
    if (fence) {
      const marker = fence[2] as string;
      const lang = (fence[3] ?? '').toLowerCase();
      const start = i;
      i++;
      while (i < lines.length && !(lines[i] as string).trim().startsWith(marker)) i++;
      i = Math.min(i + 1, lines.length);
      blocks.push({ kind: lang === 'avap' ? 'avap-code' : 'other-code', lang, text: lines.slice(start, i).join('\n') });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: (heading[1] as string).length, text: heading[2] as string });
      i++;
      continue;
    }
    const start = i;
    const kind: BlockKind = /^\s*\|/.test(line) ? 'table' : /^\s*([-*+]|\d+[.)])\s+/.test(line) ? 'list' : 'prose';
    i++;
    while (i < lines.length) {
      const next = lines[i] as string;
      if (next.trim() === '' || /^(\s*)(`{3,}|~{3,})/.test(next) || /^#{1,6}\s/.test(next)) break;
      i++;
    }
    blocks.push({ kind, text: lines.slice(start, i).join('\n') });
  }
  return blocks;
}

/** Code inside a fenced block (without the fence lines). */
function fenceContent(block: MarkdownBlock): string {
  const lines = block.text.split('\n');
  const last = lines.length > 1 && /^\s*(`{3,}|~{3,})\s*$/.test(lines[lines.length - 1] as string) ? -1 : lines.length;
  return lines.slice(1, last).join('\n');
}

/**
 * Every ```avap block of a Markdown body, with the 1-based line it starts on.
 * @internal
 */
export function avapCodeBlocks(body: string): { line: number; code: string }[] {
  const out: { line: number; code: string }[] = [];
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(\s*)(`{3,}|~{3,})\s*([^`\s]*)/.exec(lines[i] as string);
    if (!fence) continue;
    const marker = fence[2] as string;
    const lang = (fence[3] ?? '').toLowerCase();
    const start = i;
    i++;
    const content: string[] = [];
    while (i < lines.length && !(lines[i] as string).trim().startsWith(marker)) content.push(lines[i++] as string);
    if (lang === 'avap') out.push({ line: start + 1, code: content.join('\n') });
  }
  return out;
}

function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'section' : slug;
}

/** Commands mentioned in Markdown: calls anywhere, plus names in `inline code`. */
function mentionedCommands(blocks: readonly MarkdownBlock[]): string[] {
  const found: string[] = [];
  const add = (name: string): void => {
    if (isCatalogueCommand(name) && !found.includes(name)) found.push(name);
  };
  for (const block of blocks) {
    if (block.kind === 'avap-code') {
      detectCommands(fenceContent(block)).forEach(add);
      continue;
    }
    if (block.kind === 'other-code') continue;
    for (const m of block.text.matchAll(/`([^`\n]+)`/g)) {
      const head = /^\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(m[1] as string);
      if (head) add(head[1] as string);
    }
    for (const m of block.text.matchAll(/(?:^|[^\w.$`])([A-Za-z_][A-Za-z0-9_]*)\(/g)) add(m[1] as string);
  }
  return found;
}

interface Section {
  heading: string;
  headingLine: string;
  blocks: MarkdownBlock[];
}

function sectionSize(section: Section): number {
  return section.headingLine.length + section.blocks.reduce((n, b) => n + b.text.length + 2, 0);
}

/** Folds short sections into a neighbour; merged headings become blocks of the host. */
function mergeShortSections(list: Section[], minChars: number, maxChars: number): Section[] {
  if (minChars <= 0) return list;
  const out: Section[] = [];
  let carry: Section | undefined;
  for (const section of list) {
    let current = section;
    if (carry) {
      current = {
        heading: carry.heading,
        headingLine: carry.headingLine,
        blocks: [...carry.blocks, { kind: 'heading', level: 2, text: section.headingLine }, ...section.blocks],
      };
      carry = undefined;
    }
    const previous = out[out.length - 1];
    if (sectionSize(current) < minChars) {
      if (previous && sectionSize(previous) + sectionSize(current) <= maxChars) {
        previous.blocks.push({ kind: 'heading', level: 2, text: current.headingLine }, ...current.blocks);
        continue;
      }
      if (!previous) {
        carry = current;
        continue;
      }
    }
    out.push(current);
  }
  if (carry) out.push(carry);
  return out;
}

function sections(doc: KnowledgeDoc, blocks: readonly MarkdownBlock[]): Section[] {
  const out: Section[] = [];
  let current: Section = { heading: 'Overview', headingLine: `# ${doc.title}`, blocks: [] };
  let parent = '';
  for (const block of blocks) {
    if (block.kind === 'heading') {
      const level = block.level ?? 1;
      if (level === 1) {
        current.headingLine = `# ${block.text}`;
        continue;
      }
      if (current.blocks.length > 0) out.push(current);
      if (level === 2) parent = block.text;
      const heading = level > 2 && parent !== '' ? `${parent} › ${block.text}` : block.text;
      current = { heading, headingLine: `${'#'.repeat(level)} ${block.text}`, blocks: [] };
      continue;
    }
    current.blocks.push(block);
  }
  if (current.blocks.length > 0) out.push(current);
  return out;
}

function splitBlocks(blocks: readonly MarkdownBlock[], maxChars: number): MarkdownBlock[][] {
  const groups: MarkdownBlock[][] = [];
  let group: MarkdownBlock[] = [];
  let size = 0;
  for (const block of blocks) {
    const len = block.text.length + 2;
    if (group.length > 0 && size + len > maxChars) {
      groups.push(group);
      group = [];
      size = 0;
    }
    group.push(block);
    size += len;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

const BLOCK_KIND_ORDER: readonly BlockKind[] = ['prose', 'list', 'table', 'avap-code', 'other-code'];

/**
 * Chunks one document. Deterministic: the same document always gives the same chunks.
 * @internal
 */
export function chunkDocument(doc: KnowledgeDoc, options: ChunkOptions = {}): DocChunk[] {
  const maxChars = Math.max(200, options.maxChars ?? DEFAULT_MAX_CHUNK_CHARS);
  const chunks: DocChunk[] = [];
  const usedIds = new Map<string, number>();
  const minChars = Math.max(0, options.minChars ?? DEFAULT_MIN_CHUNK_CHARS);
  for (const section of mergeShortSections(sections(doc, markdownBlocks(doc.body)), minChars, maxChars)) {
    const groups = splitBlocks(section.blocks, maxChars);
    groups.forEach((group, part) => {
      const headingLine = part === 0 ? section.headingLine : `${section.headingLine} (continued)`;
      const text = [headingLine, ...group.map((b) => b.text)].join('\n\n');
      const base = `${doc.id}::${slugify(section.heading)}`;
      const count = (usedIds.get(base) ?? 0) + 1;
      usedIds.set(base, count);
      const kinds = new Set(group.map((b) => b.kind).filter((k): k is BlockKind => k !== 'heading'));
      const constructs = new Set<AvapConstruct>();
      for (const b of group)
        if (b.kind === 'avap-code') detectConstructs(fenceContent(b)).forEach((c) => constructs.add(c));
      const commands = mentionedCommands(group);
      if (doc.kind === 'command') for (const c of doc.commands) if (!commands.includes(c)) commands.unshift(c);
      chunks.push({
        id: count === 1 ? base : `${base}-${count}`,
        docId: doc.id,
        title: doc.title,
        heading: part === 0 ? section.heading : `${section.heading} (continued)`,
        text,
        commands,
        blockKinds: BLOCK_KIND_ORDER.filter((k) => kinds.has(k)),
        constructs: CONSTRUCT_ORDER.filter((c) => constructs.has(c)),
        sourceDoc: doc.sourceDoc,
        docKind: doc.kind,
        ordinal: chunks.length,
      });
    });
  }
  return chunks;
}

/** Chunks every document, in document order. */
export function chunkDocuments(docs: readonly KnowledgeDoc[], options: ChunkOptions = {}): DocChunk[] {
  return docs.flatMap((doc) => chunkDocument(doc, options));
}

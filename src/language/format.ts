/**
 * The formatter: one canonical layout, whatever the editor's settings (as
 * gofmt), so `avap fmt --check` in CI and Format Document in any editor agree.
 *
 * - Block indentation: two spaces per block (if/else/end, startLoop/endLoop,
 *   try/exception/end, go_async/end, function bodies); `else()`,
 *   `exception()` and the closers stand at their opener's depth.
 * - One space after each comma between a call's arguments (none before it),
 *   none inside the parentheses at either end: `RequestGet(url, , , r)`.
 *   Only the blanks around top-level commas change — an argument is the raw
 *   text between them, trimmed, so that is all that can change safely.
 * - One space around the `=` of an assignment; `function name(a, b) {`.
 * - No trailing whitespace; exactly one final newline; the first line break's
 *   style (LF or CRLF) for every line.
 *
 * It never changes what a program means: only blanks at the start and end of
 * a line and around separators move, and never inside a line it cannot read
 * whole (an unfinished call, an unterminated string: those are only
 * re-indented). The property test (test/unit/language/format.test.ts) holds
 * the parser's verdict and trace codes and the syntax tree equal before and
 * after over the corpus, and formatting idempotent.
 */
import { walk, type Statement, type SyntaxNode } from '../syntax';
import { AvapDocument } from './document';
import type { Range, TextEdit } from './text';

/** @internal */
export const INDENT = '  ';

/** The block depth of each statement's line (index = 0-based line). */
function depths(doc: AvapDocument): number[] {
  const out = new Array<number>(doc.tree.statements.length).fill(0);
  const set = (s: Statement | undefined, depth: number) => {
    if (s) out[s.line - 1] = depth;
  };
  walk(doc.tree.body, (node: SyntaxNode, depth: number) => {
    if (node.kind !== 'block') {
      set(node, depth);
      return;
    }
    set(node.opener, depth);
    set(node.brace, depth);
    set(node.divider, depth);
    set(node.closer, depth);
  });
  return out;
}

interface Splice {
  start: number;
  end: number;
  text: string;
}

/** The in-line changes of one statement: separators of a well-formed call, `=`, a function header. */
function splices(s: Statement): Splice[] {
  switch (s.kind) {
    case 'call': {
      const out: Splice[] = [];
      if (s.target) out.push({ start: s.target.span.end, end: s.name.span.start, text: ' = ' });
      if (s.close && !s.flaw && !s.trailing)
        out.push({ start: s.open.end, end: s.close.start, text: s.args.map((a) => a.text).join(', ') });
      return out;
    }
    case 'assign':
      return s.flaw ? [] : [{ start: s.target.span.end, end: s.value.span.start, text: ' = ' }];
    case 'function': {
      const header = `function ${s.name.text}(${s.params.map((p) => p.text).join(', ')})${s.brace ? ' {' : ''}`;
      return [{ start: s.span.start, end: s.span.end, text: header }];
    }
    default:
      return [];
  }
}

/** A line inside a block comment, after its first: its own indentation is kept. */
function isCommentContinuation(doc: AvapDocument, s: Statement): boolean {
  if (s.kind !== 'comment') return false;
  const text = doc.text.slice(s.span.start, s.span.end);
  return !text.startsWith('//') && !text.startsWith('/*');
}

/** The formatted text of 0-based line `line` (without its line break). */
function formatLine(doc: AvapDocument, line: number, depth: number): string {
  const raw = doc.lines.lineText(line);
  const s = doc.tree.statements[line];
  if (!s || raw.trim() === '') return '';
  // An unterminated string runs to the end of the line: its blanks are its text.
  const keepEnd = (s.kind === 'call' || s.kind === 'assign') && s.flaw === 'unterminated string';
  if (isCommentContinuation(doc, s)) return keepEnd ? raw : raw.trimEnd();
  const lineStart = doc.lines.lineStart(line);
  const contentStart = lineStart + (raw.length - raw.trimStart().length);
  let text = '';
  let at = contentStart;
  for (const splice of splices(s)) {
    if (splice.start < at) continue;
    text += doc.text.slice(at, splice.start) + splice.text;
    at = splice.end;
  }
  text += doc.text.slice(at, lineStart + raw.length);
  return INDENT.repeat(depth) + (keepEnd ? text : text.trimEnd());
}

/**
 * Every line formatted (index = 0-based line), without line breaks.
 * @internal
 */
export function formatLines(doc: AvapDocument): string[] {
  const depth = depths(doc);
  return Array.from({ length: doc.lines.lineCount }, (_, line) => formatLine(doc, line, depth[line] ?? 0));
}

/** The line break the document uses (its first one), LF when it has none. */
function lineBreakOf(text: string): string {
  const i = text.search(/\r\n|\r|\n/);
  if (i < 0) return '\n';
  return text.startsWith('\r\n', i) ? '\r\n' : (text[i] as string);
}

/** The whole document formatted: the lines, no trailing blank lines, one final line break. */
export function formatDocument(text: string): string {
  const lines = formatLines(new AvapDocument(text));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.length === 0 ? '' : `${lines.join(lineBreakOf(text))}${lineBreakOf(text)}`;
}

/**
 * The edits that format `range` (the whole document when absent), one per
 * changed line — so the cursor, the selection and the undo history of the
 * untouched lines stay — and, for the whole document, the end of the file.
 */
export function formatEdits(doc: AvapDocument, range?: Range): TextEdit[] {
  const formatted = formatLines(doc);
  const edits: TextEdit[] = [];
  const first = range ? Math.max(0, range.start.line) : 0;
  // A selection that ends at the start of a line leaves that line alone.
  const last = range
    ? Math.min(
        formatted.length - 1,
        range.end.character === 0 && range.end.line > first ? range.end.line - 1 : range.end.line,
      )
    : formatted.length - 1;
  let lastContent = formatted.length - 1;
  while (!range && lastContent >= 0 && formatted[lastContent] === '') lastContent--;
  for (let line = first; line <= Math.min(last, range ? last : lastContent); line++) {
    const next = formatted[line] as string;
    if (next === doc.lines.lineText(line)) continue;
    edits.push({
      range: doc.lines.rangeOf(doc.lines.lineStart(line), doc.lines.lineEnd(line)),
      newText: next,
    });
  }
  if (!range) {
    // The end of the file: after the last line with content, exactly one line break.
    const from = lastContent >= 0 ? doc.lines.lineEnd(lastContent) : 0;
    const wanted = lastContent >= 0 ? lineBreakOf(doc.text) : '';
    if (doc.text.slice(from) !== wanted)
      edits.push({ range: doc.lines.rangeOf(from, doc.text.length), newText: wanted });
  }
  return edits;
}

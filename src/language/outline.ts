/**
 * The document's outline and its folds, from the syntax tree's blocks.
 *
 * Document symbols: every user function (its parameters as detail), every
 * endpoint registered with registerEndpoint (`GET /ping`, its handler as
 * detail), and inside them the blocks — if/else, startLoop, try/exception,
 * go_async — as children, so the Outline and the breadcrumbs show where the
 * cursor is. Folding ranges: each block and function body (an `else()` or
 * `exception()` branch folds on its own), block comments and runs of line
 * comments.
 */
import type { CallStatement, SyntaxBlock, SyntaxNode } from '../syntax';
import type { AvapDocument } from './document';
import type { Range } from './text';

export type OutlineKind = 'function' | 'endpoint' | 'block';

export interface OutlineSymbol {
  readonly name: string;
  readonly detail: string;
  readonly kind: OutlineKind;
  /** The whole construct. */
  readonly range: Range;
  /** What the cursor goes to: the name (a function's, an endpoint's path) or the block's opener. */
  readonly selectionRange: Range;
  readonly children: readonly OutlineSymbol[];
}

export interface FoldSpec {
  /** 0-based lines; the fold hides `startLine + 1 … endLine`. */
  readonly startLine: number;
  readonly endLine: number;
  readonly kind?: 'comment' | 'region';
}

const MAX_LABEL = 60;

function callLabel(doc: AvapDocument, call: CallStatement): string {
  const end = call.close ? call.close.end : call.span.end;
  const text = doc.text.slice(call.name.span.start, end);
  return text.length > MAX_LABEL ? `${text.slice(0, MAX_LABEL - 1)}…` : text;
}

function blockSymbol(doc: AvapDocument, block: SyntaxBlock): OutlineSymbol {
  const opener = block.opener;
  const children = [...childSymbols(doc, block.body), ...childSymbols(doc, block.alternate ?? [])];
  if (opener.kind === 'function') {
    return {
      name: opener.name.text,
      detail: `(${opener.params.map((p) => p.text).join(', ')})`,
      kind: 'function',
      range: doc.rangeOf(block.span),
      selectionRange: doc.rangeOf(opener.name.span),
      children,
    };
  }
  return {
    name: callLabel(doc, opener),
    detail: block.divider ? `with ${block.divider.name.text}()` : '',
    kind: 'block',
    range: doc.rangeOf(block.span),
    selectionRange: doc.rangeOf(opener.name.span),
    children,
  };
}

function endpointSymbol(doc: AvapDocument, call: CallStatement): OutlineSymbol | undefined {
  const endpoint = doc.symbols.endpoints.find((e) => e.call === call);
  if (!endpoint) return undefined;
  const where = call.args[0]?.span ?? call.name.span;
  return {
    name: `${endpoint.method || '?'} ${endpoint.path || '?'}`.trim(),
    detail: endpoint.handler ? `→ ${endpoint.handler}` : 'registerEndpoint',
    kind: 'endpoint',
    range: doc.rangeOf(call.span),
    selectionRange: doc.rangeOf(where),
    children: [],
  };
}

function childSymbols(doc: AvapDocument, nodes: readonly SyntaxNode[]): OutlineSymbol[] {
  const out: OutlineSymbol[] = [];
  for (const node of nodes) {
    if (node.kind === 'block') out.push(blockSymbol(doc, node));
    else if (node.kind === 'call' && node.name.text === 'registerEndpoint') {
      const symbol = endpointSymbol(doc, node);
      if (symbol) out.push(symbol);
    }
  }
  return out;
}

export function documentSymbols(doc: AvapDocument): OutlineSymbol[] {
  return childSymbols(doc, doc.tree.body);
}

function blockFolds(block: SyntaxBlock, lastLine: number, out: FoldSpec[]): void {
  const open = block.opener.line - 1;
  const close = block.closer ? block.closer.line - 1 : lastLine + 1;
  const divider = block.divider ? block.divider.line - 1 : undefined;
  // The closer stays visible; each branch folds on its own.
  const firstEnd = (divider ?? close) - 1;
  if (firstEnd > open) out.push({ startLine: open, endLine: firstEnd });
  if (divider !== undefined && close - 1 > divider) out.push({ startLine: divider, endLine: close - 1 });
  for (const node of [...block.body, ...(block.alternate ?? [])])
    if (node.kind === 'block') blockFolds(node, lastLine, out);
}

export function foldingRanges(doc: AvapDocument): FoldSpec[] {
  const tree = doc.tree;
  const lastLine = tree.statements.length - 1;
  const out: FoldSpec[] = [];
  for (const node of tree.body) if (node.kind === 'block') blockFolds(node, lastLine, out);
  // Comments: a block comment over several lines, or three or more line comments in a row.
  let runStart = -1;
  const flush = (end: number) => {
    if (runStart >= 0 && end - runStart >= 1) out.push({ startLine: runStart, endLine: end, kind: 'comment' });
    runStart = -1;
  };
  tree.statements.forEach((s, i) => {
    if (s.kind === 'comment') {
      if (runStart < 0) runStart = i;
    } else flush(i - 1);
  });
  flush(lastLine);
  return out.sort((a, b) => a.startLine - b.startLine);
}

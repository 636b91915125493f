/**
 * What the chat view shows for one answer. Pure: the view provider sends
 * these to the webview.
 */
import {
  attemptCount,
  blockEntries,
  codeAnswerBlocks,
  describeSkip,
  extractCode,
  shownCodeBlocks,
  type CodeBlock,
  type PipelineResult,
  type QueryType,
} from '../../core';
import type { TraceEntry } from '../../parser';
import {
  LABEL_INVALID,
  LABEL_NO_CONTEXT,
  LABEL_REPAIRED,
  LABEL_VALID,
  LABEL_VALIDATING,
  lookForPipelineStatus,
} from '../status/statusLook';
import { renderMarkdown } from './renderMarkdown';

/** A code block's verdict, in the status item's looks (`unvalidated` is its amber look). */
type BlockState = 'validating' | 'valid' | 'invalid' | 'unvalidated';

const BLOCK_LABELS: Record<BlockState, string> = {
  validating: 'validating…',
  valid: LABEL_VALID,
  invalid: LABEL_INVALID,
  unvalidated: 'AVAP: unvalidated',
};

/** One code block of an answer, as the chat shows it (the html holds a matching `.codeblock[data-block]`). */
export interface CodeBlockView {
  index: number;
  code: string;
  state: BlockState;
  label: string;
  /** The parser's entries for this block, lines relative to the block (1-based). */
  trace: TraceEntry[];
}

/** A knowledge document the answer drew on. */
interface SourceView {
  docId: string;
  title: string;
}

export interface AnswerView {
  id: string;
  html: string;
  final: boolean;
  route?: {
    queryType: string;
    /** The documents the retrieved passages come from, each once, best first. */
    sources: SourceView[];
    relevanceRetry: boolean;
    attempts: number;
    /** Set when the answer had no documentation context (retrieval failed). */
    degraded?: string;
    /** Retries that were due but not made, and why. */
    skippedRetries?: string[];
  };
  /** A draft: streamed text the parser has not judged yet (never looks valid). */
  draft?: { label: string };
  status?: { kind: string; icon: string; label: string };
  error?: string;
  generationId?: string;
  /** The answer's code blocks (drafts: `validating`; final answers: each block's verdict). */
  blocks?: CodeBlockView[];
}

/** The code blocks the pipeline validated in an answer of this route (what the chat decorates): the core's own choice. */
function answerCodeBlocks(text: string, queryType: QueryType | undefined): CodeBlock[] {
  return queryType === 'CODE_GENERATION' ? codeAnswerBlocks(text) : shownCodeBlocks(text);
}

const lineCount = (code: string) => code.split('\n').length;

/**
 * Renders an answer with its code blocks marked for the webview. Code the
 * text shows without a fence is fenced first, so every block the parser
 * judged shows as a code block with its verdict.
 */
function renderWithBlocks(text: string, blocks: readonly CodeBlock[]): string {
  if (blocks.length === 0) return renderMarkdown(text);
  const lines = text.split(/\r\n?|\n/);
  const out: string[] = [];
  const starts = new Map<number, number>();
  let next = 0;
  blocks.forEach((block, index) => {
    const from = block.startLine - 1;
    out.push(...lines.slice(next, from));
    if (block.fenced) {
      // Markdown already shows it as a code block: marked where its code starts, moved by the fences added before it.
      starts.set(out.length + 1, index);
      next = from;
      return;
    }
    out.push('```avap');
    starts.set(out.length + 1, index);
    const count = lineCount(block.code);
    out.push(...lines.slice(from, from + count), '```');
    next = from + count;
  });
  out.push(...lines.slice(next));
  return renderMarkdown(out.join('\n'), { blocks: starts });
}

/** The document behind a retrieved passage: chunk ids are `<docId>::<section>`. */
function sourceDocuments(
  sources: PipelineResult['sources'],
  docTitle: (docId: string) => string | undefined,
): SourceView[] {
  const seen = new Map<string, SourceView>();
  for (const source of sources) {
    const docId = source.id.split('::')[0] || source.id;
    if (seen.has(docId)) continue;
    seen.set(docId, { docId, title: docTitle(docId) ?? source.title.split(' — ')[0] ?? source.title });
  }
  return [...seen.values()];
}

/** Each block's verdict: from the adopted attempt's per-block verdicts, else only what the status proves. */
function blockViews(result: PipelineResult, blocks: readonly CodeBlock[]): CodeBlockView[] {
  const attempt = [...result.attempts].reverse().find((a) => a.text === result.text);
  const verdicts = attempt?.blocks?.length === blocks.length ? attempt.blocks : undefined;
  const trace = attempt?.responseTrace ?? [];
  return blocks.map((block, index) => {
    const own = blockEntries(block, trace);
    const errors = own.some((e) => e.severity === 'error');
    let state: BlockState;
    if (result.validationStatus === undefined) state = 'unvalidated';
    else if (verdicts)
      state = verdicts[index] === 'unavailable' ? 'unvalidated' : verdicts[index] === 'invalid' ? 'invalid' : 'valid';
    else if (errors) state = 'invalid';
    else state = result.validationStatus === '' ? 'valid' : 'unvalidated';
    const shown = state === 'invalid' || state === 'valid' ? own : [];
    return { index, code: block.code, state, label: BLOCK_LABELS[state], trace: shown };
  });
}

/** A streaming answer: pieces accumulate per attempt; a new attempt starts the text afresh. */
export class AnswerStream {
  private text = '';
  private attempt = 1;

  constructor(readonly id: string) {}

  /** `replace`: the piece is the attempt's whole text as the pipeline revised it (repaired by the parser's fixes). */
  push(piece: string, attempt = 1, replace = false): void {
    if (attempt !== this.attempt || replace) {
      this.attempt = attempt;
      this.text = '';
    }
    this.text += piece;
  }

  view(): AnswerView {
    // Every fenced block of a draft reads "validating…" until the verdict.
    const blocks = extractCode(this.text).filter((b) => b.fenced);
    return {
      id: this.id,
      html: renderWithBlocks(this.text, blocks),
      final: false,
      draft: { label: LABEL_VALIDATING },
      blocks: blocks.map((b, index) => ({
        index,
        code: b.code,
        state: 'validating',
        label: BLOCK_LABELS.validating,
        trace: [],
      })),
    };
  }
}

export function finalAnswerView(
  id: string,
  result: PipelineResult,
  docTitle: (docId: string) => string | undefined = () => undefined,
): AnswerView {
  const text = result.text || (result.code ? `\`\`\`avap\n${result.code}\n\`\`\`` : '');
  const blocks = answerCodeBlocks(text, result.queryType);
  const view: AnswerView = {
    id,
    html: renderWithBlocks(text, blocks),
    final: true,
    route: {
      queryType: result.queryType,
      sources: sourceDocuments(result.sources, docTitle),
      relevanceRetry: result.relevanceRetry,
      attempts: attemptCount(result),
      ...(result.retrieval?.status === 'degraded' ? { degraded: LABEL_NO_CONTEXT } : {}),
      ...(result.retry?.skipped.length ? { skippedRetries: result.retry.skipped.map(describeSkip) } : {}),
    },
    generationId: result.generationId,
  };
  // A failed or cancelled run has no status: it shows its error and claims nothing.
  const look =
    result.validationStatus === undefined
      ? undefined
      : lookForPipelineStatus(result.validationStatus, result.code.trim() !== '');
  if (look)
    view.status =
      result.validationStatus === '' && result.repair ? { ...look, label: `${look.label} — ${LABEL_REPAIRED}` } : look;
  if (result.error) view.error = `${result.error.message} (${result.error.code})`;
  if (blocks.length) view.blocks = blockViews(result, blocks);
  return view;
}

/**
 * What the chat view shows for one answer. Pure: the view provider sends
 * these to the webview.
 */
import { type PipelineResult, describeSkip } from '../../core';
import { LABEL_NO_CONTEXT, LABEL_VALIDATING, lookForPipelineStatus } from '../status/statusLook';
import { renderMarkdown } from './renderMarkdown';

export interface AnswerView {
  id: string;
  html: string;
  final: boolean;
  route?: {
    queryType: string;
    sources: { title: string; score: string }[];
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
}

/** A streaming answer: pieces accumulate per attempt; a new attempt starts the text afresh. */
export class AnswerStream {
  private text = '';
  private attempt = 1;

  constructor(readonly id: string) {}

  push(piece: string, attempt = 1): void {
    if (attempt !== this.attempt) {
      this.attempt = attempt;
      this.text = '';
    }
    this.text += piece;
  }

  view(): AnswerView {
    return { id: this.id, html: renderMarkdown(this.text), final: false, draft: { label: LABEL_VALIDATING } };
  }
}

export function finalAnswerView(id: string, result: PipelineResult): AnswerView {
  const view: AnswerView = {
    id,
    html: renderMarkdown(result.text || (result.code ? `\`\`\`avap\n${result.code}\n\`\`\`` : '')),
    final: true,
    route: {
      queryType: result.queryType,
      sources: result.sources.map((s) => ({ title: s.title, score: s.score.toFixed(3) })),
      relevanceRetry: result.relevanceRetry,
      attempts: result.attempts.length,
      ...(result.retrieval?.status === 'degraded' ? { degraded: LABEL_NO_CONTEXT } : {}),
      ...(result.retry?.skipped.length ? { skippedRetries: result.retry.skipped.map(describeSkip) } : {}),
    },
    generationId: result.generationId,
  };
  // A failed or cancelled run has no status: it shows its error and claims nothing.
  const look = result.validationStatus === undefined ? undefined : lookForPipelineStatus(result.validationStatus, result.code.trim() !== '');
  if (look) view.status = look;
  if (result.error) view.error = `${result.error.message} (${result.error.code})`;
  return view;
}

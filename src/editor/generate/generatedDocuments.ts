/**
 * Read-only `avap-generated:` documents: the preview of generated or
 * corrected code (validated like any .avap document, so it carries its
 * diagnostics at once), with the pipeline's status kept for its label.
 */
import * as vscode from 'vscode';
import type { ValidationStatus } from '../../core';

export const GENERATED_SCHEME = 'avap-generated';

export interface GeneratedEntry {
  content: string;
  /** Undefined while streaming (a draft) and for a failed run. */
  status?: ValidationStatus;
  /** Set when the run failed or was cancelled: nothing in it was validated, nothing can be accepted. */
  failed?: string;
  /** Where "accept" puts the code: a document and range, or a new document. */
  target?: { uri: vscode.Uri; range: vscode.Range; version: number };
  request: string;
  /** Set when the valid code is the model's answer repaired by the parser's proven fixes. */
  repairedBy?: 'parser-fixes';
  /** The pipeline run that produced it (the id of its training signal). */
  generationId?: string;
  /** The user's thumbs on it, once given. */
  vote?: 'up' | 'down';
}

export class GeneratedDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly entries = new Map<string, GeneratedEntry>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private counter = 0;
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(GENERATED_SCHEME, this);
  }

  create(kind: 'generated' | 'corrected' | 'original', entry: GeneratedEntry): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: GENERATED_SCHEME, path: `/${kind}-${++this.counter}.avap` });
    this.entries.set(uri.toString(), entry);
    return uri;
  }

  update(uri: vscode.Uri, patch: Partial<GeneratedEntry>): void {
    const entry = this.entries.get(uri.toString());
    if (!entry) return;
    Object.assign(entry, patch);
    this.changed.fire(uri);
  }

  get(uri: vscode.Uri): GeneratedEntry | undefined {
    return this.entries.get(uri.toString());
  }

  /** A preview that is still streaming: no verdict yet (and not failed). */
  isDraft(uri: vscode.Uri): boolean {
    const entry = uri.scheme === GENERATED_SCHEME ? this.entries.get(uri.toString()) : undefined;
    return entry !== undefined && entry.status === undefined && entry.failed === undefined;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.entries.get(uri.toString())?.content ?? '';
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}

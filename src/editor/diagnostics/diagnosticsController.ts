/**
 * Validates `.avap` documents through the ParserPort and shows the verdict:
 * on open, on save and while typing (debounced, stale results dropped, keyed
 * to the document version); diagnostics are cleared on close. An unavailable
 * parser proves nothing, so it clears squiggles instead of keeping old ones.
 */
import * as vscode from 'vscode';
import type { ParserOutcome, ParserPort } from '../../core';
import type { ValidationResult } from '../../parser';
import type { DocumentValidation } from '../status/statusLook';
import {
  countSeverities,
  DIAGNOSTIC_SOURCE,
  tracedLineLengths,
  traceToDiagnosticSpecs,
  type DiagnosticSpec,
} from '../../language/diagnostics';
import { TRACE_SCHEME, traceUriParts } from './traceDocument';
import { ValidationScheduler } from './validationScheduler';

export const AVAP_LANGUAGE_ID = 'avap';

export interface DocumentVerdict {
  version: number;
  outcome: ParserOutcome;
  specs: DiagnosticSpec[];
  state: DocumentValidation;
}

export function isAvapDocument(doc: vscode.TextDocument): boolean {
  return doc.languageId === AVAP_LANGUAGE_ID && doc.uri.scheme !== TRACE_SCHEME;
}

export function traceUriFor(uri: vscode.Uri): vscode.Uri {
  const { path, query } = traceUriParts(uri.toString());
  return vscode.Uri.from({ scheme: TRACE_SCHEME, path, query });
}

function stateFromOutcome(outcome: ParserOutcome): DocumentValidation {
  if (outcome.kind === 'unavailable') {
    return outcome.reason === 'disabled'
      ? { kind: 'disabled' }
      : { kind: 'unavailable', reason: outcome.reason, detail: outcome.detail };
  }
  const { errors, warnings } = countSeverities(outcome.result.trace);
  return errors > 0 ? { kind: 'invalid', errors, warnings } : { kind: 'valid', warnings };
}

export class DiagnosticsController implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE);
  private readonly verdicts = new Map<string, DocumentVerdict>();
  private readonly scheduler: ValidationScheduler<ParserOutcome>;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  /** Fires after a document's verdict (or pending state) changed. */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private recheckTimer: ReturnType<typeof setTimeout> | undefined;
  /** Documents whose last tab closed while an editor still showed them (see tabClosed). */
  private readonly closedWhileShown = new Map<string, vscode.Uri>();

  constructor(
    private readonly parser: ParserPort,
    private readonly debounceMs: () => number,
    private readonly log: (line: string) => void,
  ) {
    this.scheduler = new ValidationScheduler<ParserOutcome>(
      (key, _version, signal) => this.runValidation(key, signal),
      (key, version, outcome) => this.applyOutcome(key, version, outcome),
    );
    this.disposables.push(
      this.collection,
      this.changed,
      vscode.workspace.onDidOpenTextDocument((doc) => this.request(doc, 0)),
      vscode.workspace.onDidSaveTextDocument((doc) => this.request(doc, 0)),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length > 0) this.request(event.document, this.debounceMs());
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => this.forget(doc.uri)),
      // The editor may keep a document alive for a long time after its last tab closed; for the
      // user that tab was the document, so its diagnostics go with it.
      // Tab events travel apart from document and editor events: an untitled document closed and a new one
      // opened at once may share a URI, and the old tab's close can arrive after the new document is shown. A
      // document still shown in an editor is decided when the visible editors next change.
      vscode.window.tabGroups.onDidChangeTabs((event) => {
        for (const tab of event.closed) {
          const uri = tab.input instanceof vscode.TabInputText ? tab.input.uri : undefined;
          if (uri) this.tabClosed(uri);
        }
      }),
      // …and come back when it is shown again.
      vscode.window.onDidChangeVisibleTextEditors((editors) => {
        for (const uri of [...this.closedWhileShown.values()]) this.tabClosed(uri);
        for (const editor of editors) {
          const key = editor.document.uri.toString();
          if (isAvapDocument(editor.document) && !this.verdicts.has(key) && !this.scheduler.isPending(key))
            this.request(editor.document, 0);
        }
      }),
    );
    // Re-validate everything when the parser is back (the circuit closed after being open).
    let previous = parser.circuit().state;
    const unsubscribe = parser.onCircuitChange((snapshot) => {
      if (snapshot.state === 'closed' && previous !== 'closed') this.revalidateAll('parser reachable again');
      previous = snapshot.state;
      this.scheduleRecheck();
    });
    this.disposables.push({ dispose: unsubscribe });
  }

  /** Validates every open AVAP document now. */
  revalidateAll(why: string): void {
    const docs = vscode.workspace.textDocuments.filter(isAvapDocument);
    if (docs.length > 0) this.log(`re-validating ${docs.length} open AVAP document(s): ${why}`);
    for (const doc of docs) this.request(doc, 0);
  }

  /** Schedules a validation of `doc` (no-op for non-AVAP documents). */
  request(doc: vscode.TextDocument, delayMs: number): void {
    if (!isAvapDocument(doc)) return;
    this.scheduler.request(doc.uri.toString(), doc.version, delayMs);
    this.changed.fire(doc.uri);
  }

  /** Validates `doc` at once and resolves with its verdict for this version. */
  async validateNow(doc: vscode.TextDocument): Promise<DocumentVerdict | undefined> {
    if (!isAvapDocument(doc)) return undefined;
    const key = doc.uri.toString();
    const version = doc.version;
    const done = new Promise<DocumentVerdict | undefined>((resolve) => {
      const finish = (verdict: DocumentVerdict | undefined) => {
        clearTimeout(timer);
        sub.dispose();
        resolve(verdict);
      };
      const sub = this.onDidChange((uri) => {
        const verdict = this.verdicts.get(key);
        if (uri.toString() === key && verdict && verdict.version >= version && !this.scheduler.isPending(key))
          finish(verdict);
      });
      // A document closed meanwhile, or a parser call that never settles, must not hang the caller.
      const timer = setTimeout(() => finish(this.verdicts.get(key)), 60_000);
    });
    this.request(doc, 0);
    return done;
  }

  verdict(uri: vscode.Uri): DocumentVerdict | undefined {
    return this.verdicts.get(uri.toString());
  }

  isPending(uri: vscode.Uri): boolean {
    return this.scheduler.isPending(uri.toString());
  }

  /** The latest parser result for the document, if the parser gave one. */
  result(uri: vscode.Uri): ValidationResult | undefined {
    const outcome = this.verdicts.get(uri.toString())?.outcome;
    return outcome?.kind === 'validated' ? outcome.result : undefined;
  }

  private hasTab(uri: vscode.Uri): boolean {
    const key = uri.toString();
    return vscode.window.tabGroups.all.some((group) =>
      group.tabs.some(
        (tab) =>
          (tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === key) ||
          (tab.input instanceof vscode.TabInputTextDiff &&
            (tab.input.modified.toString() === key || tab.input.original.toString() === key)),
      ),
    );
  }

  /** A tab of `uri` closed: forget its verdict once no tab and no editor shows it. */
  private tabClosed(uri: vscode.Uri): void {
    const key = uri.toString();
    this.closedWhileShown.delete(key);
    if (!this.verdicts.has(key) || this.hasTab(uri)) return;
    if (vscode.window.visibleTextEditors.some((editor) => editor.document.uri.toString() === key)) {
      this.closedWhileShown.set(key, uri);
      return;
    }
    this.forget(uri);
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    this.closedWhileShown.delete(key);
    this.scheduler.forget(key);
    this.verdicts.delete(key);
    this.collection.delete(uri);
    this.changed.fire(uri);
  }

  private async runValidation(key: string, signal: AbortSignal): Promise<ParserOutcome> {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    if (!doc) return { kind: 'unavailable', reason: 'cancelled', detail: 'document closed' };
    const name = doc.uri.path.split('/').pop() ?? 'document.avap';
    return this.parser.validate(doc.getText(), name, signal);
  }

  private applyOutcome(key: string, version: number, outcome: ParserOutcome): void {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    if (!doc || doc.version !== version) return;
    if (outcome.kind === 'unavailable' && outcome.reason === 'cancelled') return;
    const uri = doc.uri;
    let specs: DiagnosticSpec[] = [];
    if (outcome.kind === 'validated') {
      const lengths = tracedLineLengths(outcome.result.trace, doc.lineCount, (line) => doc.lineAt(line).text.length);
      specs = traceToDiagnosticSpecs(outcome.result.trace, lengths);
      this.collection.set(
        uri,
        specs.map((spec) => this.toDiagnostic(uri, spec)),
      );
    } else {
      // No evidence either way: nothing was proven wrong, so no squiggles.
      this.collection.delete(uri);
      this.log(`${uri.path.split('/').pop()}: parser unavailable (${outcome.reason}: ${outcome.detail}) — unvalidated`);
    }
    this.verdicts.set(key, { version, outcome, specs, state: stateFromOutcome(outcome) });
    this.changed.fire(uri);
    this.scheduleRecheck();
  }

  private toDiagnostic(uri: vscode.Uri, spec: DiagnosticSpec): vscode.Diagnostic {
    const range = new vscode.Range(spec.line, spec.start, spec.line, spec.end);
    const severity = spec.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning;
    const diagnostic = new vscode.Diagnostic(range, spec.message, severity);
    diagnostic.source = DIAGNOSTIC_SOURCE;
    diagnostic.code = { value: spec.code, target: traceUriFor(uri) };
    return diagnostic;
  }

  /**
   * While some document is unvalidated, try again when the circuit lets a probe
   * through (or after a short pause while it is still closed), so the editor
   * recovers on its own when the parser comes back.
   */
  private scheduleRecheck(): void {
    if (this.recheckTimer) clearTimeout(this.recheckTimer);
    this.recheckTimer = undefined;
    const waiting = [...this.verdicts.values()].some((v) => v.state.kind === 'unavailable');
    if (!waiting) return;
    const circuit = this.parser.circuit();
    if (circuit.state === 'disabled') return;
    const delay =
      circuit.state === 'open' && circuit.nextProbeAt !== undefined
        ? Math.max(250, circuit.nextProbeAt - Date.now() + 50)
        : 5000;
    this.recheckTimer = setTimeout(() => {
      this.recheckTimer = undefined;
      for (const doc of vscode.workspace.textDocuments.filter(isAvapDocument)) {
        if (this.verdicts.get(doc.uri.toString())?.state.kind === 'unavailable') this.request(doc, 0);
      }
    }, delay);
  }

  dispose(): void {
    if (this.recheckTimer) clearTimeout(this.recheckTimer);
    this.scheduler.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

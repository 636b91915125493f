/**
 * The status bar item: the validation state of the active AVAP editor in one
 * of three looks (valid / invalid / unavailable), plus pending and disabled —
 * and the same state as a language status item beside the language mode (as
 * the TypeScript and JSON extensions show theirs), with the circuit breaker as
 * its detail. Both follow the active editor and nothing else: the extension
 * never changes which editor is active.
 */
import * as vscode from 'vscode';
import type { CircuitSnapshot, ParserPort } from '../../core';
import { isAvapDocument, type DiagnosticsController } from '../diagnostics/diagnosticsController';
import type { GeneratedDocuments } from '../generate/generatedDocuments';
import { draftLook, languageStatusView, sameLook, statusLook, type StatusLook } from './statusLook';
import { COMMANDS } from '../commandIds';

const STATUS_ITEM_ID = 'avap.validationStatus';
const LANGUAGE_STATUS_ID = 'avap.parserStatus';

const SEVERITY = {
  information: vscode.LanguageStatusSeverity.Information,
  warning: vscode.LanguageStatusSeverity.Warning,
  error: vscode.LanguageStatusSeverity.Error,
} as const;

/** What a click on either item does: the problems for invalid, a circuit reset for unvalidated, else the log. */
function commandFor(look: StatusLook): vscode.Command {
  return look.kind === 'invalid'
    ? { title: 'Show problems', command: 'workbench.actions.view.problems' }
    : look.kind === 'unavailable'
      ? { title: 'Reset parser circuit', command: COMMANDS.resetParserCircuit.id }
      : { title: 'Show AVAP Assistant output', command: COMMANDS.showOutput.id };
}

export class ValidationStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly language: vscode.LanguageStatusItem;
  private readonly disposables: vscode.Disposable[] = [];
  private current: StatusLook | undefined;
  private shown = false;
  private ticker: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly diagnostics: DiagnosticsController,
    private readonly parser: ParserPort,
    /** Generated previews: while one streams it is a draft, and reads "validating…" whatever its text parses as. */
    private readonly generated?: GeneratedDocuments,
  ) {
    this.item = vscode.window.createStatusBarItem(STATUS_ITEM_ID, vscode.StatusBarAlignment.Left, 100);
    this.item.name = 'AVAP Validation';
    // Shown by the workbench only while an AVAP editor is active (its selector).
    this.language = vscode.languages.createLanguageStatusItem(LANGUAGE_STATUS_ID, { language: 'avap' });
    this.language.name = 'AVAP Parser';
    this.disposables.push(
      this.item,
      this.language,
      vscode.window.onDidChangeActiveTextEditor(() => this.refresh()),
      diagnostics.onDidChange(() => this.refresh()),
      { dispose: parser.onCircuitChange(() => this.refresh()) },
      ...(generated ? [generated.onDidChange(() => this.refresh())] : []),
    );
    this.refresh();
  }

  /** What the item shows now (undefined when hidden), for the extension API and tests. */
  look(): StatusLook | undefined {
    return this.current;
  }

  refresh(): void {
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc || !isAvapDocument(doc)) {
      this.current = undefined;
      if (this.shown) this.item.hide();
      this.shown = false;
      this.setTicker(false);
      return;
    }
    // While typing, the last verdict stays until the new one arrives (no flicker); "validating…" only before the first.
    const state = this.diagnostics.verdict(doc.uri)?.state ?? { kind: 'pending' as const };
    const circuit = this.parser.circuit();
    const look = this.generated?.isDraft(doc.uri) ? draftLook() : statusLook(state, circuit, Date.now());
    // Every keystroke refreshes; only a changed look goes to the workbench (each update is a message to it).
    if (!this.shown || !sameLook(look, this.current)) {
      this.item.text = `$(${look.icon}) ${look.label}`;
      this.item.tooltip = look.tooltip;
      this.item.backgroundColor = look.background
        ? new vscode.ThemeColor(`statusBarItem.${look.background}Background`)
        : undefined;
      this.item.accessibilityInformation = { label: look.label };
      this.item.command = commandFor(look);
      this.item.show();
      this.shown = true;
    }
    this.current = look;
    this.showLanguageStatus(look, circuit);
    // Keep the "next probe in N s" tooltip current while the circuit is open.
    this.setTicker(look.kind === 'unavailable' && circuit.state === 'open');
  }

  private showLanguageStatus(look: StatusLook, circuit: CircuitSnapshot): void {
    const view = languageStatusView(look, circuit, Date.now());
    const severity = SEVERITY[view.severity];
    if (
      this.language.text === view.text &&
      this.language.detail === view.detail &&
      this.language.severity === severity &&
      this.language.busy === view.busy
    )
      return;
    this.language.text = view.text;
    this.language.detail = view.detail;
    this.language.severity = severity;
    this.language.busy = view.busy;
    this.language.command = commandFor(look);
    this.language.accessibilityInformation = { label: `AVAP parser: ${look.label}. ${view.detail}` };
  }

  private setTicker(on: boolean): void {
    if (on && !this.ticker) this.ticker = setInterval(() => this.refresh(), 1000);
    if (!on && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  dispose(): void {
    this.setTicker(false);
    for (const d of this.disposables) d.dispose();
  }
}

/**
 * CodeLens labels at the top of AVAP documents: the status of generated code
 * in a preview (valid / invalid / unvalidated) with its accept and thumbs actions, and an
 * "unvalidated" label on any document the parser could not check, until it is
 * validated.
 */
import * as vscode from 'vscode';
import type { DiagnosticsController } from '../diagnostics/diagnosticsController';
import { lookForPipelineStatus, LABEL_REPAIRED, LABEL_UNAVAILABLE, LABEL_VALIDATING } from '../status/statusLook';
import { GENERATED_SCHEME, type GeneratedDocuments } from './generatedDocuments';
import { COMMANDS } from '../commandIds';

export class StatusCodeLens implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  /** Documents whose top shows the "unvalidated" label. */
  private readonly labelled = new Set<string>();

  constructor(
    private readonly diagnostics: DiagnosticsController,
    private readonly generated: GeneratedDocuments,
  ) {
    this.subscriptions = [
      // Ask the workbench for lenses again only when a document gains or keeps (its version moved on) or loses the
      // label — not on every keystroke of a validated document, which has no lens.
      diagnostics.onDidChange((uri) => {
        const key = uri.toString();
        const unavailable = diagnostics.verdict(uri)?.state.kind === 'unavailable';
        if (!unavailable && !this.labelled.has(key)) return;
        if (unavailable) this.labelled.add(key);
        else this.labelled.delete(key);
        this.changed.fire();
      }),
      generated.onDidChange(() => this.changed.fire()),
    ];
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const top = new vscode.Range(0, 0, 0, 0);
    const lenses: vscode.CodeLens[] = [];
    if (document.uri.scheme === GENERATED_SCHEME) {
      const entry = this.generated.get(document.uri);
      if (!entry) return [];
      if (entry.failed !== undefined) {
        lenses.push(
          new vscode.CodeLens(top, {
            title: '$(error) AVAP: generation failed — nothing was validated',
            tooltip: entry.failed,
            command: '',
          }),
        );
        return lenses;
      }
      if (entry.status === undefined) {
        // A draft: streamed text the parser has not judged; no label that could read as valid, no Accept.
        lenses.push(
          new vscode.CodeLens(top, {
            title: `$(sync~spin) ${LABEL_VALIDATING}`,
            tooltip: 'Streaming; the code is validated before it can be accepted.',
            command: '',
          }),
        );
        return lenses;
      }
      const look = lookForPipelineStatus(entry.status, entry.content.trim() !== '');
      const repaired = entry.status === '' && entry.repairedBy ? ` — ${LABEL_REPAIRED}` : '';
      const label = look
        ? `$(${look.icon}) ${look.label}${entry.status ? ` — ${entry.status}` : ''}${repaired}`
        : 'AVAP: no code in the answer';
      lenses.push(
        new vscode.CodeLens(top, {
          title: label,
          command: entry.status === 'PARSER_UNAVAILABLE' ? COMMANDS.resetParserCircuit.id : '',
        }),
      );
      if (!document.uri.path.startsWith('/original-')) {
        lenses.push(
          new vscode.CodeLens(top, {
            title: entry.target ? 'Accept into editor' : 'Accept into a new .avap document',
            command: COMMANDS.acceptGenerated.id,
            arguments: [document.uri],
          }),
        );
        if (entry.generationId) {
          if (entry.vote) {
            lenses.push(
              new vscode.CodeLens(top, {
                title: `$(${entry.vote === 'up' ? 'thumbsup-filled' : 'thumbsdown-filled'}) rated`,
                command: '',
              }),
            );
          } else {
            lenses.push(
              new vscode.CodeLens(top, {
                title: '$(thumbsup)',
                tooltip: 'Good answer (recorded as a training signal)',
                command: COMMANDS.rateGenerated.id,
                arguments: [document.uri, 'up'],
              }),
            );
            lenses.push(
              new vscode.CodeLens(top, {
                title: '$(thumbsdown)',
                tooltip: 'Bad answer (recorded as a training signal)',
                command: COMMANDS.rateGenerated.id,
                arguments: [document.uri, 'down'],
              }),
            );
          }
        }
      }
      return lenses;
    }
    const verdict = this.diagnostics.verdict(document.uri);
    if (verdict?.state.kind === 'unavailable' && verdict.version === document.version) {
      lenses.push(
        new vscode.CodeLens(top, {
          title: `$(debug-disconnect) ${LABEL_UNAVAILABLE}`,
          tooltip: `Not validated: ${verdict.state.detail}. Click to reset the parser circuit and validate again.`,
          command: COMMANDS.resetParserCircuit.id,
        }),
      );
    }
    return lenses;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}

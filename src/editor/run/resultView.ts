/**
 * The result view: one webview panel beside the editor (REST Client's response view), showing the last run —
 * the HTTP status, the response body as a JSON tree that folds, with Copy; the logs, the portability notes and
 * the step trace, each line a link to its place in the program. The page (media/run.js) builds its DOM from the
 * run's view model with text nodes only, under the same strict Content-Security-Policy as the chat: nothing a
 * run returns is read as HTML. A Cancel button stops the run in progress.
 */
import * as vscode from 'vscode';
import type { RunViewModel } from '../../runs';
import { newNonce, webviewShell } from '../chat/webviewHtml';
import type { OutputLog } from '../output/outputLog';

const RESULT_VIEW_TYPE = 'avap.runResult';

type FromPage = { type: 'ready' } | { type: 'reveal'; line: number } | { type: 'copy' } | { type: 'cancel' };

export interface ResultViewOptions {
  extensionUri: vscode.Uri;
  output: OutputLog;
}

/** What the view shows now: a run going on (with its cancel), or a run's result and the program it ran. */
interface Shown {
  model: RunViewModel;
  program?: vscode.Uri;
  cancel?: () => void;
}

export class ResultView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready: Promise<void> | undefined;
  private shown: Shown | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly options: ResultViewOptions) {}

  /** Shows a run (or a run starting) beside the active editor; resolves once the page has it. */
  async show(shown: Shown, reveal = true): Promise<void> {
    this.shown = shown;
    const panel = this.open(reveal);
    await this.ready;
    await panel.webview.postMessage({ type: 'run', model: shown.model });
  }

  /** The view as the last run left it (undefined when never shown). */
  get model(): RunViewModel | undefined {
    return this.shown?.model;
  }

  private open(reveal: boolean): vscode.WebviewPanel {
    if (this.panel) {
      if (reveal && !this.panel.visible) this.panel.reveal(vscode.ViewColumn.Beside, true);
      return this.panel;
    }
    const media = vscode.Uri.joinPath(this.options.extensionUri, 'media');
    const panel = vscode.window.createWebviewPanel(
      RESULT_VIEW_TYPE,
      'AVAP Run',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      {
        enableScripts: true,
        enableCommandUris: false,
        retainContextWhenHidden: true,
        localResourceRoots: [media],
      },
    );
    const nonce = newNonce();
    const asUri = (uri: vscode.Uri) => panel.webview.asWebviewUri(uri).toString();
    let markReady!: () => void;
    this.ready = new Promise<void>((resolve) => (markReady = resolve));
    panel.webview.html = webviewShell({
      cspSource: panel.webview.cspSource,
      nonce,
      title: 'AVAP Run',
      styleUris: [asUri(vscode.Uri.joinPath(media, 'run.css'))],
      scriptUris: [asUri(vscode.Uri.joinPath(media, 'run.js'))],
      body: '<main id="run" aria-live="polite"><p class="empty">Run an AVAP file to see its response here.</p></main>',
    });
    panel.webview.onDidReceiveMessage((message: FromPage) => {
      switch (message?.type) {
        case 'ready':
          markReady();
          break;
        case 'reveal':
          void this.reveal(message.line);
          break;
        case 'copy':
          void this.copy();
          break;
        case 'cancel':
          this.shown?.cancel?.();
          break;
        default:
          break;
      }
    });
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.ready = undefined;
    });
    this.panel = panel;
    return panel;
  }

  /** Opens the program at a line the page names (a step, a log line, the error, a portability note). */
  private async reveal(line: unknown): Promise<void> {
    const program = this.shown?.program;
    if (!program || typeof line !== 'number' || !Number.isInteger(line) || line < 1) return;
    const doc = await vscode.workspace.openTextDocument(program);
    const at = Math.min(line - 1, doc.lineCount - 1);
    const text = doc.lineAt(at);
    const range = new vscode.Range(at, text.firstNonWhitespaceCharacterIndex, at, text.text.length);
    const visible = vscode.window.visibleTextEditors.find((e) => e.document === doc);
    const editor = await vscode.window.showTextDocument(doc, {
      viewColumn: visible?.viewColumn ?? vscode.ViewColumn.One,
      selection: range,
      preserveFocus: false,
    });
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private async copy(): Promise<void> {
    const text = this.shown?.model.bodyText;
    if (text === undefined) return;
    await vscode.env.clipboard.writeText(text);
    vscode.window.setStatusBarMessage('AVAP: response copied', 3000);
    this.options.output.info('run: response body copied');
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

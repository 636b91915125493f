/**
 * AVAP: Show Validation Metrics — the telemetry log as numbers and charts,
 * with the trend, needs-review and the before/after comparisons by parser
 * version and by model —
 * and AVAP: Open Evaluation Report — a report.json from `eval --out` — in
 * script-free webviews. The metrics page links to the report command through
 * a command URI (the only command the page may run).
 */
import { readFile, stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import { COMPARE_BY, compareBy, computeMetrics, parseTelemetry } from '../../core';
import { MAX_REPORT_BYTES, readEvalReport } from '../../eval';
import { newNonce, webviewShell } from '../chat/webviewHtml';
import { evalReportBody, evalReportError } from './evalReportHtml';
import { metricsBody } from './metricsHtml';
import { COMMANDS } from '../commandIds';

function scriptFreePanel(extensionUri: vscode.Uri, viewType: string, title: string, body: string): vscode.WebviewPanel {
  const media = vscode.Uri.joinPath(extensionUri, 'media');
  const panel = vscode.window.createWebviewPanel(viewType, title, vscode.ViewColumn.Active, {
    enableScripts: false,
    enableCommandUris: [COMMANDS.openEvaluationReport.id],
    localResourceRoots: [media],
  });
  panel.webview.html = webviewShell({
    cspSource: panel.webview.cspSource,
    nonce: newNonce(),
    title,
    styleUris: [panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'metrics.css')).toString()],
    body,
  });
  return panel;
}

export async function showMetricsPanel(extensionUri: vscode.Uri, telemetryFile: string): Promise<vscode.WebviewPanel> {
  let text = '';
  try {
    text = await readFile(telemetryFile, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      void vscode.window.showWarningMessage(`AVAP: cannot read ${telemetryFile}: ${(err as Error).message}`);
    }
  }
  const log = parseTelemetry(text);
  const metrics = computeMetrics(log.events, log.skipped.length);
  const comparisons = COMPARE_BY.map((by) => compareBy(log.events, by));
  const link = `<p class="source"><a href="command:${COMMANDS.openEvaluationReport.id}">Open an evaluation report (report.json from <code>eval --out</code>)…</a></p>`;
  return scriptFreePanel(
    extensionUri,
    'avap.metrics',
    'AVAP Validation Metrics',
    metricsBody(metrics, telemetryFile, comparisons) + link,
  );
}

/** Reads a report.json (asking for one when `file` is not given) and shows it; undefined when the user cancels. */
export async function showEvalReportPanel(
  extensionUri: vscode.Uri,
  file?: vscode.Uri,
): Promise<vscode.WebviewPanel | undefined> {
  const chosen =
    file ??
    (
      await vscode.window.showOpenDialog({
        title: 'AVAP: Open Evaluation Report',
        openLabel: 'Open report',
        canSelectMany: false,
        filters: { 'Evaluation report': ['json'] },
      })
    )?.[0];
  if (!chosen) return undefined;
  const source = chosen.fsPath;
  let body: string;
  try {
    const size = (await stat(source)).size;
    if (size > MAX_REPORT_BYTES) throw new Error(`${size} bytes is more than a report can be`);
    const read = readEvalReport(await readFile(source, 'utf8'));
    body = read.ok ? evalReportBody(read.value, source) : evalReportError(source, read.error.message);
    if (!read.ok)
      void vscode.window.showWarningMessage(`AVAP: ${source} is not an evaluation report — ${read.error.message}`);
  } catch (err) {
    body = evalReportError(source, (err as Error).message);
    void vscode.window.showWarningMessage(`AVAP: cannot read ${source}: ${(err as Error).message}`);
  }
  return scriptFreePanel(extensionUri, 'avap.evalReport', 'AVAP Evaluation Report', body);
}

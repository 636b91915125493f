/** AVAP: Show Validation Metrics — the telemetry log as numbers and charts in a script-free webview. */
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { computeMetrics } from '../../core/telemetry/metrics';
import { parseTelemetry } from '../../core/telemetry/read';
import { newNonce, webviewShell } from '../chat/webviewHtml';
import { metricsBody } from './metricsHtml';

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
  const media = vscode.Uri.joinPath(extensionUri, 'media');
  const panel = vscode.window.createWebviewPanel('avap.metrics', 'AVAP Validation Metrics', vscode.ViewColumn.Active, {
    enableScripts: false,
    localResourceRoots: [media],
  });
  panel.webview.html = webviewShell({
    cspSource: panel.webview.cspSource,
    nonce: newNonce(),
    title: 'AVAP Validation Metrics',
    styleUris: [panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'metrics.css')).toString()],
    body: metricsBody(metrics, telemetryFile),
  });
  return panel;
}

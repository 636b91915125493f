/**
 * The HTML shells of the webviews, with a strict Content-Security-Policy:
 * nothing by default, styles and scripts only from the extension's media/
 * folder, and a script must also carry the per-load nonce. No inline script,
 * no remote resource. Pure.
 */
import { randomBytes } from 'node:crypto';
import { escapeHtml } from '../../html';

export function newNonce(): string {
  return randomBytes(18)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '');
}

export interface ShellOptions {
  /** webview.cspSource */
  cspSource: string;
  nonce: string;
  title: string;
  styleUris: string[];
  /** Scripts, in load order, each with the nonce. Omit (or empty) for a page without any script. */
  scriptUris?: string[];
  body: string;
}

/** @internal */
export function contentSecurityPolicy(cspSource: string, nonce: string, withScript: boolean): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    withScript ? `script-src 'nonce-${nonce}'` : "script-src 'none'",
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

export function webviewShell(options: ShellOptions): string {
  const scripts = options.scriptUris ?? [];
  const csp = contentSecurityPolicy(options.cspSource, options.nonce, scripts.length > 0);
  const styles = options.styleUris.map((uri) => `<link rel="stylesheet" href="${escapeHtml(uri)}">`).join('\n  ');
  const script = scripts
    .map((uri) => `<script nonce="${escapeHtml(options.nonce)}" src="${escapeHtml(uri)}"></script>`)
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  ${styles}
  <title>${escapeHtml(options.title)}</title>
</head>
<body>
${options.body}
${script}
</body>
</html>`;
}

// Which VS Code runs the extension-host suite (test/e2e) — one test module, two hosts:
//   electron     @vscode/test-electron's runTests: a desktop VS Code, the one AVAP_VSCODE_EXECUTABLE names or
//                one it downloads (a developer's laptop, CI with internet);
//   code-server  code-server 4.100.3 in headless Chromium (scripts/install-vscode-host.sh), where VS Code cannot
//                be downloaded (this machine: no route to update.code.visualstudio.com).
// The choice is explicit and says why: --host / AVAP_VSCODE_HOST (electron | code-server | auto, default auto);
// auto takes electron when AVAP_VSCODE_EXECUTABLE is set or the download server answers within a short probe,
// code-server otherwise.

export const HOSTS = ['electron', 'code-server'];
/** Where test-electron asks which VS Code versions exist: if this answers, it can download. */
export const VSCODE_DOWNLOAD_PROBE_URL = 'https://update.code.visualstudio.com/api/releases/stable';
export const PROBE_TIMEOUT_MS = 3000;

/**
 * The host for this run, and why. `probe` is asked only when the choice depends on it; it resolves
 * `{ ok: true }` or `{ ok: false, reason }` and never rejects.
 * @param {{ requested?: string, executable?: string, probe: () => Promise<{ ok: boolean, reason?: string }> }} input
 * @returns {Promise<{ host: 'electron' | 'code-server', reason: string } | { error: string }>}
 */
export async function chooseHost({ requested, executable, probe }) {
  const wanted = (requested ?? '').trim() || 'auto';
  if (wanted !== 'auto' && !HOSTS.includes(wanted)) {
    return { error: `unknown host '${wanted}': use electron, code-server or auto` };
  }
  if (wanted === 'code-server') return { host: 'code-server', reason: 'asked for (--host / AVAP_VSCODE_HOST)' };
  if (executable) return { host: 'electron', reason: `AVAP_VSCODE_EXECUTABLE names a VS Code: ${executable}` };
  const probed = await probe();
  if (wanted === 'electron') {
    return probed.ok
      ? { host: 'electron', reason: 'asked for; VS Code will be downloaded (or taken from .vscode-test/)' }
      : {
          error: `electron asked for, but VS Code cannot be downloaded (${probed.reason}) and AVAP_VSCODE_EXECUTABLE is not set`,
        };
  }
  return probed.ok
    ? { host: 'electron', reason: 'the VS Code download server answers' }
    : {
        host: 'code-server',
        reason: `VS Code cannot be downloaded (${probed.reason}); set AVAP_VSCODE_EXECUTABLE to use a local VS Code`,
      };
}

/** Asks the download server, giving up after `timeoutMs`. Never rejects. */
export async function probeVsCodeDownload(url = VSCODE_DOWNLOAD_PROBE_URL, timeoutMs = PROBE_TIMEOUT_MS) {
  try {
    const response = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.ok ? { ok: true } : { ok: false, reason: `${url} answered ${response.status}` };
  } catch (err) {
    const cause =
      err instanceof Error
        ? err.name === 'TimeoutError'
          ? `no answer within ${timeoutMs} ms`
          : (err.cause?.code ?? err.message)
        : String(err);
    return { ok: false, reason: `${new URL(url).host}: ${cause}` };
  }
}

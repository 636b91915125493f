/**
 * The extension-host suite's host choice: @vscode/test-electron where VS Code can be
 * downloaded or AVAP_VSCODE_EXECUTABLE names one, code-server otherwise — explicit, with its reason.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

type Probe = () => Promise<{ ok: boolean; reason?: string }>;
interface HostChoice {
  chooseHost(input: {
    requested?: string;
    executable?: string;
    probe: Probe;
  }): Promise<{ host: string; reason: string } | { error: string }>;
  probeVsCodeDownload(url?: string, timeoutMs?: number): Promise<{ ok: boolean; reason?: string }>;
}

const root = path.resolve(__dirname, '..', '..', '..');
let lib: HostChoice;

async function serve(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/releases/stable`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('e2e host choice: test-electron or code-server', () => {
  before(async () => {
    lib = (await import(pathToFileURL(path.join(root, 'scripts', 'lib', 'hostChoice.mjs')).href)) as HostChoice;
  });

  const reachable: Probe = () => Promise.resolve({ ok: true });
  const offline: Probe = () => Promise.resolve({ ok: false, reason: 'update.code.visualstudio.com: ENOTFOUND' });
  const unasked: Probe = () => assert.fail('the probe is not needed');

  it('auto: electron when the download server answers, code-server (saying why) when it does not', async () => {
    assert.deepEqual(await lib.chooseHost({ probe: reachable }), {
      host: 'electron',
      reason: 'the VS Code download server answers',
    });
    const chosen = await lib.chooseHost({ requested: 'auto', probe: offline });
    assert.ok('host' in chosen);
    assert.equal(chosen.host, 'code-server');
    assert.match(
      chosen.reason,
      /VS Code cannot be downloaded \(update\.code\.visualstudio\.com: ENOTFOUND\); set AVAP_VSCODE_EXECUTABLE/,
    );
  });

  it('AVAP_VSCODE_EXECUTABLE: electron with that VS Code, no download probe', async () => {
    const chosen = await lib.chooseHost({ executable: '/opt/vscode/code', probe: unasked });
    assert.deepEqual(chosen, { host: 'electron', reason: 'AVAP_VSCODE_EXECUTABLE names a VS Code: /opt/vscode/code' });
  });

  it('asked for: code-server without a probe; electron refused when it cannot be had; unknown names refused', async () => {
    assert.equal(
      ((await lib.chooseHost({ requested: 'code-server', executable: '/x', probe: unasked })) as { host: string }).host,
      'code-server',
    );
    assert.match(
      ((await lib.chooseHost({ requested: 'electron', probe: offline })) as { error: string }).error,
      /cannot be downloaded/,
    );
    assert.equal(
      ((await lib.chooseHost({ requested: 'electron', probe: reachable })) as { host: string }).host,
      'electron',
    );
    assert.match(
      ((await lib.chooseHost({ requested: 'vscodium', probe: unasked })) as { error: string }).error,
      /unknown host 'vscodium'/,
    );
  });

  it('the probe over a real socket: 200 is reachable, an error status or silence past the timeout is not', async () => {
    const ok = await serve((_req, res) => res.end('[]'));
    const failing = await serve((_req, res) => {
      res.statusCode = 503;
      res.end();
    });
    const silent = await serve(() => undefined);
    try {
      assert.deepEqual(await lib.probeVsCodeDownload(ok.url, 2000), { ok: true });
      assert.match((await lib.probeVsCodeDownload(failing.url, 2000)).reason ?? '', /answered 503/);
      assert.match((await lib.probeVsCodeDownload(silent.url, 100)).reason ?? '', /no answer within 100 ms/);
    } finally {
      await Promise.all([ok.close(), failing.close(), silent.close()]);
    }
  });
});

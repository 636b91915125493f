// Shared pieces for running a real VS Code (code-server 4.100.3) headless:
// used by scripts/run-vscode-tests.mjs (the extension-host test suite) and scripts/start.mjs (npm start).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TOOLS_DIR = process.env.AVAP_TOOLS_DIR ?? path.join(REPO_ROOT, '.tools');
export const CODE_SERVER_BIN = path.join(TOOLS_DIR, 'code-server', 'node_modules', '.bin', 'code-server');
export const CHROMIUM_BIN = process.env.AVAP_CHROMIUM ?? '/usr/bin/chromium';
export const PARSER_SERVER_JS = path.join(REPO_ROOT, 'dist', 'parser-server.js');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function requireFile(file, hint) {
  if (!existsSync(file)) {
    const shown = file.startsWith(REPO_ROOT + path.sep) ? path.relative(REPO_ROOT, file) : file;
    throw new Error(`${shown} is missing — ${hint}`);
  }
}

/** The headless browser the editor tests and the npm start smoke check drive. */
export function requireChromium() {
  requireFile(
    CHROMIUM_BIN,
    "install Debian's Chromium: sudo apt-get install -y chromium (bash scripts/install-vscode-host.sh does it), or set AVAP_CHROMIUM to a Chromium binary",
  );
}

/** A free TCP port on loopback (asks the OS, then releases it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Tracks child processes so that every exit path can kill them all (each in its own process group). */
export class Children {
  constructor() {
    this.list = [];
  }

  spawn(command, args, options = {}) {
    const child = spawn(command, args, {
      ...options,
      detached: true,
      stdio: options.stdio ?? ['ignore', 'pipe', 'pipe'],
    });
    this.list.push(child);
    return child;
  }

  killAll() {
    for (const child of this.list) {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) continue;
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        try {
          child.kill('SIGTERM');
        } catch {
          /* already gone */
        }
      }
    }
    const stragglers = this.list.filter((c) => c.exitCode === null && c.signalCode === null && c.pid !== undefined);
    if (stragglers.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        for (const child of stragglers) {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {
            /* gone */
          }
        }
        resolve();
      }, 3000);
      let left = stragglers.length;
      for (const child of stragglers) {
        child.once('exit', () => {
          if (--left === 0) {
            clearTimeout(timer);
            resolve();
          }
        });
      }
    });
  }
}

/** Starts dist/parser-server.js on a free loopback port; resolves with its host:port. */
export function startParserService(children, { onLog } = {}) {
  requireFile(PARSER_SERVER_JS, 'run `npm run build` first');
  const child = children.spawn(process.execPath, [PARSER_SERVER_JS, '--host', '127.0.0.1', '--port', '0']);
  child.stderr.on('data', (chunk) => onLog?.(chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('parser service did not report `listening on` within 15 s')),
      15_000,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`parser service exited with ${code} before listening`));
    });
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      const match = /^listening on (\S+)$/.exec(line.trim());
      if (!match) reject(new Error(`unexpected first line from the parser service: ${line}`));
      else resolve({ address: match[1], child });
    });
  });
}

/** Writes a user-data-dir whose settings skip the trust dialog and the welcome page. */
export function prepareUserDataDir(dir, settings) {
  const userDir = path.join(dir, 'User');
  mkdirSync(userDir, { recursive: true });
  writeFileSync(
    path.join(userDir, 'settings.json'),
    `${JSON.stringify(
      {
        'security.workspace.trust.enabled': false,
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'telemetry.telemetryLevel': 'off',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'update.mode': 'none',
        ...settings,
      },
      null,
      2,
    )}\n`,
  );
}

/**
 * Starts code-server on 127.0.0.1:port without auth, telemetry or update checks.
 * Resolves once it answers HTTP. `onLog` receives its output (the extension host's
 * exit is reported there).
 */
export async function startCodeServer(children, { port, userDataDir, extensionsDir, workspace, env = {}, onLog }) {
  requireFile(CODE_SERVER_BIN, 'run `bash scripts/install-vscode-host.sh` first');
  const args = [
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--config',
    path.join(userDataDir, 'code-server.yaml'),
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
    workspace,
  ];
  writeFileSync(path.join(userDataDir, 'code-server.yaml'), 'auth: none\ncert: false\n');
  const child = children.spawn(CODE_SERVER_BIN, args, { env: { ...process.env, ...env } });
  child.stdout.on('data', (chunk) => onLog?.(chunk.toString('utf8')));
  child.stderr.on('data', (chunk) => onLog?.(chunk.toString('utf8')));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const state = await Promise.race([
      exited.then((code) => ({ exited: code })),
      probeHttp(port).then((ok) => ({ ok })),
    ]);
    if ('exited' in state) throw new Error(`code-server exited with ${state.exited} before serving`);
    if (state.ok) return child;
    if (Date.now() > deadline) throw new Error('code-server did not answer HTTP within 60 s');
    await sleep(250);
  }
}

function probeHttp(port) {
  return fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) })
    .then((res) => res.ok)
    .catch(() => false);
}

/** Installs a packaged extension into an extensions dir with code-server's CLI. */
export function installVsix(vsix, extensionsDir, userDataDir) {
  requireFile(CODE_SERVER_BIN, 'run `bash scripts/install-vscode-host.sh` first');
  return new Promise((resolve, reject) => {
    const child = spawn(
      CODE_SERVER_BIN,
      ['--extensions-dir', extensionsDir, '--user-data-dir', userDataDir, '--install-extension', vsix, '--force'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.stderr.on('data', (c) => {
      out += c;
    });
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`installing ${vsix} failed (${code}):\n${out}`)),
    );
  });
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

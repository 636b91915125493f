#!/usr/bin/env node
// `npm start`: the README's main job on a fresh machine.
//   1. installs the VS Code host if needed (scripts/install-vscode-host.sh: code-server 4.100.3 + Chromium),
//   2. builds (npm run build) and packages the extension (.tools/avap-assistant.vsix, with @vscode/vsce),
//   3. starts the bundled parser service (dist/parser-server.js) on a free loopback port,
//   4. starts code-server with the .vsix installed, the settings pointing at that parser, and the
//      examples/ folder as the workspace, and prints the URL to open.
// Ctrl+C stops everything it started.
//
// Options: --port N (default: $PORT or 8080, or a free port when that is taken; loopback only),
//          --skip-build (use the existing dist/ and .vsix), --exit-when-ready (start, print, stop: a smoke check).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  Children, REPO_ROOT, TOOLS_DIR, freePort, installVsix, prepareUserDataDir, startCodeServer, startParserService,
} from './lib/vscodeHost.mjs';

const { values: opts } = parseArgs({
  options: {
    port: { type: 'string' },
    'skip-build': { type: 'boolean', default: false },
    'exit-when-ready': { type: 'boolean', default: false },
  },
});

const children = new Children();
const log = (line) => process.stdout.write(`[start] ${line}\n`);

function run(command, args, what) {
  log(what);
  const result = spawnSync(command, args, { cwd: REPO_ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${what} failed (exit ${result.status ?? result.signal})`);
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function main() {
  run('bash', [path.join(REPO_ROOT, 'scripts', 'install-vscode-host.sh')], 'checking the VS Code host (code-server 4.100.3)');
  const vsix = path.join(TOOLS_DIR, 'avap-assistant.vsix');
  if (!opts['skip-build'] || !existsSync(vsix)) {
    run('npm', ['run', 'build'], 'building the extension');
    run('npx', ['vsce', 'package', '--no-dependencies', '--allow-missing-repository', '--out', vsix],
      'packaging the .vsix');
  }

  const home = path.join(TOOLS_DIR, 'start');
  const userDataDir = path.join(home, 'user-data');
  const extensionsDir = path.join(home, 'extensions');
  const workspace = path.join(home, 'workspace');
  mkdirSync(extensionsDir, { recursive: true });
  // A fresh copy of the examples each time, so edits made while trying things out never reach the repo.
  rmSync(workspace, { recursive: true, force: true });
  mkdirSync(workspace, { recursive: true });
  for (const file of readdirSync(path.join(REPO_ROOT, 'examples'))) {
    cpSync(path.join(REPO_ROOT, 'examples', file), path.join(workspace, file), { recursive: true });
  }

  log('installing the .vsix into code-server');
  await installVsix(vsix, extensionsDir, userDataDir);

  const parser = await startParserService(children, { onLog: (text) => process.stderr.write(text) });
  log(`parser service listening on ${parser.address}`);
  prepareUserDataDir(userDataDir, { 'avap.parser.url': parser.address });

  const wanted = Number(opts.port ?? process.env.PORT ?? 8080);
  const port = wanted > 0 && (await portIsFree(wanted)) ? wanted : await freePort();
  await startCodeServer(children, {
    port, userDataDir, extensionsDir, workspace,
    onLog: (text) => { if (/error/i.test(text)) process.stderr.write(text); },
  });
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`;
  log('ready.');
  process.stdout.write(`\n  AVAP Assistant in VS Code: ${url}\n\n  Open an example .avap file; Ctrl+C here stops code-server and the parser service.\n\n`);
  if (opts['exit-when-ready']) return;
  await new Promise(() => undefined);
}

let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  await children.killAll();
  process.exit(code);
}
process.once('SIGINT', () => void stop(0));
process.once('SIGTERM', () => void stop(0));

main().then(() => stop(0), (err) => {
  process.stderr.write(`[start] FAILED: ${err instanceof Error ? err.message : String(err)}\n`);
  void stop(1);
});

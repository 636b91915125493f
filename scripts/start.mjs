#!/usr/bin/env node
// `npm start`: the README's main job on a fresh machine.
//   1. installs the VS Code host if needed (scripts/install-vscode-host.sh: code-server 4.100.3 + Chromium),
//   2. builds the production bundles (minified, no source maps: `vscode:prepublish`, which vsce runs) and
//      packages the extension (.tools/avap-assistant.vsix, with @vscode/vsce),
//   3. starts the bundled parser service (dist/parser-server.js) on a free loopback port,
//   4. starts code-server with the .vsix installed, the settings pointing at that parser, and a copy of the
//      examples/ folder as the workspace, and prints the URL to open. The workspace lives OUTSIDE the repository
//      (under the OS temp folder, one per checkout: $TMPDIR/avap-assistant-start-<hash of the repository path>/workspace,
//      or $AVAP_START_WORKSPACE), so VS Code
//      finds no parent git repository to ask about. The URL opens an example, which activates the extension, and
//      the extension offers its Get Started walkthrough in a notification (first run: the profile is fresh each
//      time); the example keeps the editor and the focus, and the walkthrough opens from the notification's button.
// Ctrl+C stops everything it started.
// It numbers its steps ("[start] step 2/4: …", with the time elapsed) and, when one fails, says what to do.
//
// Options: --port N (default: $PORT or 8080, or a free port when that is taken; loopback only),
//          --skip-build (use the existing dist/ and .vsix), --exit-when-ready (start, print, stop: a smoke check).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  Children,
  REPO_ROOT,
  TOOLS_DIR,
  freePort,
  installVsix,
  prepareUserDataDir,
  startCodeServer,
  startParserService,
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
const startedAt = Date.now();

function elapsed() {
  const s = Math.round((Date.now() - startedAt) / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** A failure that knows which step it ended and what the person at the keyboard can do about it. */
class StepError extends Error {
  constructor(message, hint) {
    super(message);
    this.hint = hint;
  }
}

/** A path as people read it: relative inside the repository, absolute elsewhere. */
const shown = (file) => (file.startsWith(REPO_ROOT + path.sep) ? path.relative(REPO_ROOT, file) : file);

const STEPS = 4;
/** The example the start URL opens. */
const FIRST_EXAMPLE = 'hash-password.avap';
let current = { n: 0, label: 'starting', hint: '' };

function step(n, label, what, hint) {
  current = { n, label, hint };
  log(`step ${n}/${STEPS}: ${what} — ${elapsed()} elapsed`);
}

/** Runs a command with its output shown; stdout may be kept instead (the installer prints its result there). */
function run(command, args, { keepStdout = false } = {}) {
  const result = spawnSync(command, args, {
    cwd: REPO_ROOT,
    stdio: ['inherit', keepStdout ? 'pipe' : 'inherit', 'inherit'],
    encoding: 'utf8',
  });
  if (result.error) throw new StepError(`${command} could not be started: ${result.error.message}`, current.hint);
  if (result.status !== 0)
    throw new StepError(
      `${[command, ...args].join(' ')} failed (exit ${result.status ?? result.signal})`,
      current.hint,
    );
  return result.stdout;
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function main() {
  step(
    1,
    'VS Code host',
    'the VS Code host: code-server 4.100.3 and Chromium (installed on the first run, a few minutes)',
    'the installer printed what to do just above; it can be run on its own: bash scripts/install-vscode-host.sh',
  );
  run('bash', [path.join(REPO_ROOT, 'scripts', 'install-vscode-host.sh')], { keepStdout: true });
  const vsix = path.join(TOOLS_DIR, 'avap-assistant.vsix');
  if (!opts['skip-build'] || !existsSync(vsix)) {
    // vsce runs `vscode:prepublish` first: the production build (minified, no source maps) into dist/.
    step(
      2,
      'build and packaging',
      `building the production bundles and packaging the extension into ${shown(vsix)} (vsce)`,
      `read the build errors or vsce's message above; \`npm ci\` installs esbuild and @vscode/vsce; check the disk space in ${shown(TOOLS_DIR)}`,
    );
    // `npm run package` (vsce package, as for the Marketplace: no flags excuse a missing repository or README images).
    run('npm', ['run', 'package', '--', '--out', vsix]);
  } else {
    log(`step 2/${STEPS}: build and packaging skipped (--skip-build; using ${shown(vsix)})`);
  }

  const home = path.join(TOOLS_DIR, 'start');
  const userDataDir = path.join(home, 'user-data');
  const extensionsDir = path.join(home, 'extensions');
  // Outside the repository: a workspace inside it makes VS Code ask about the parent git repository.
  const workspace = path.resolve(
    process.env.AVAP_START_WORKSPACE ||
      path.join(
        os.tmpdir(),
        `avap-assistant-start-${createHash('sha1').update(REPO_ROOT).digest('hex').slice(0, 8)}`,
        'workspace',
      ),
  );
  if (workspace === REPO_ROOT || workspace.startsWith(REPO_ROOT + path.sep)) {
    throw new StepError(
      `the workspace ${workspace} is inside the repository`,
      'set AVAP_START_WORKSPACE to a folder outside the repository (or unset it)',
    );
  }
  mkdirSync(extensionsDir, { recursive: true });
  // A fresh profile each time, so the extension's first run (the Get Started notification) shows on every start.
  rmSync(userDataDir, { recursive: true, force: true });
  // A fresh copy of the examples each time, so edits made while trying things out never reach the repo.
  rmSync(workspace, { recursive: true, force: true });
  mkdirSync(workspace, { recursive: true });
  for (const file of readdirSync(path.join(REPO_ROOT, 'examples'))) {
    cpSync(path.join(REPO_ROOT, 'examples', file), path.join(workspace, file), { recursive: true });
  }

  step(
    3,
    'extension install',
    'installing the .vsix into code-server',
    `see code-server's output in the message above; delete ${shown(home)}/ and run npm start again`,
  );
  await installVsix(vsix, extensionsDir, userDataDir);

  step(
    4,
    'services',
    'starting the parser service and code-server (loopback only)',
    `is the port taken? pass --port N (or PORT=N); if code-server exits at once, reinstall it: rm -rf ${shown(path.join(TOOLS_DIR, 'code-server'))} && npm start`,
  );
  const parser = await startParserService(children, { onLog: (text) => process.stderr.write(text) });
  log(`parser service listening on ${parser.address}`);
  prepareUserDataDir(userDataDir, { 'avap.parser.url': parser.address });

  const wanted = Number(opts.port ?? process.env.PORT ?? 8080);
  const port = wanted > 0 && (await portIsFree(wanted)) ? wanted : await freePort();
  await startCodeServer(children, {
    port,
    userDataDir,
    extensionsDir,
    workspace,
    onLog: (text) => {
      if (/error/i.test(text)) process.stderr.write(text);
    },
  });
  // Opening an example activates the extension, which offers its walkthrough in a notification (never opening it).
  const firstFile = path.join(workspace, FIRST_EXAMPLE);
  const payload = existsSync(firstFile)
    ? `&payload=${encodeURIComponent(JSON.stringify([['openFile', `vscode-remote://127.0.0.1:${port}${firstFile}`]]))}`
    : '';
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}${payload}`;
  log(`ready in ${elapsed()}.`);
  process.stdout.write(
    `\n  AVAP Assistant in VS Code: ${url}\n\n  Workspace (a copy of examples/): ${workspace}\n  It opens ${FIRST_EXAMPLE}; the notification's Get Started button opens the walkthrough. Ctrl+C here stops code-server and the parser service.\n\n`,
  );
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

main().then(
  () => stop(0),
  (err) => {
    const where = current.n ? ` at step ${current.n}/${STEPS} (${current.label}) after ${elapsed()}` : '';
    process.stderr.write(`[start] FAILED${where}: ${err instanceof Error ? err.message : String(err)}\n`);
    const hint = err instanceof StepError ? err.hint : current.hint;
    if (hint) process.stderr.write(`[start] what to do: ${hint}\n`);
    void stop(1);
  },
);

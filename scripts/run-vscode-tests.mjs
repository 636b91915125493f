#!/usr/bin/env node
// Runs the extension-host test suite (test/e2e/**/*.test.ts) inside a real VS Code — one test module, two hosts
// (scripts/lib/hostChoice.mjs chooses, and the first line says which and why):
//   - electron: a desktop VS Code through @vscode/test-electron's runTests, where VS Code can be downloaded or
//     AVAP_VSCODE_EXECUTABLE names one (a developer's laptop, CI with internet);
//   - code-server: code-server 4.100.3 in headless Debian Chromium, through VS Code's `payload` test hook (the
//     same contract: the tests module's run() is called in the extension host, with the extension under
//     development loaded from this repository) — where VS Code cannot be downloaded, as on this machine.
// --host electron|code-server|auto (or AVAP_VSCODE_HOST; default auto: electron when AVAP_VSCODE_EXECUTABLE is
// set or the download server answers a 3-second probe, code-server otherwise).
//
// Assumes `npm run build` ran (dist/extension.js, dist/parser-server.js) and that
// scripts/install-vscode-host.sh installed code-server into .tools/.
//
// What it does: bundles the suite with esbuild (CommonJS, `vscode` external, mocha inside),
// starts the real parser service on a free port, starts code-server with a fresh user-data-dir,
// opens the payload URL in Chromium via playwright-core, serves workbench captures the tests ask
// for (screenshots into test-output/ and DOM facts: squiggles, status bar), waits for the results
// file the suite writes, prints them, and kills every child on every exit path.
//
// Usage: node scripts/run-vscode-tests.mjs [--grep PATTERN] [--timeout SECONDS] [--keep] [--extension-path DIR] [--host H]
//        node scripts/run-vscode-tests.mjs --suite bench --bench-out FILE   (test/e2e/bench/*.bench.ts; the
//        measurements they record are written to FILE as JSON — `npm run bench` uses this)
//        --extension-path: the extension to load (default: this repository; the bench passes a copy of what the
//        .vsix ships, with the production bundles)
/* global document, getComputedStyle, window -- used inside page.evaluate, which runs in the browser */
import * as esbuild from 'esbuild';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  appendFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import {
  CHROMIUM_ARGS,
  CHROMIUM_BIN,
  Children,
  REPO_ROOT,
  freePort,
  prepareUserDataDir,
  requireChromium,
  requireFile,
  sleep,
  startCodeServer,
  startParserService,
} from './lib/vscodeHost.mjs';
import { chooseHost, probeVsCodeDownload } from './lib/hostChoice.mjs';
import { serveWebview } from './lib/webviews.mjs';

const { values: opts } = parseArgs({
  options: {
    grep: { type: 'string' },
    timeout: { type: 'string', default: '900' },
    keep: { type: 'boolean', default: false },
    suite: { type: 'string', default: 'tests' },
    'bench-out': { type: 'string' },
    'extension-path': { type: 'string' },
    host: { type: 'string' },
  },
});

const OUT_DIR = path.join(REPO_ROOT, 'out', 'e2e');
const TEST_OUTPUT = path.join(REPO_ROOT, 'test-output');
const E2E_DIR = path.join(REPO_ROOT, 'test', 'e2e');
const children = new Children();
let browser;
let workDir;

function log(line) {
  process.stdout.write(`[e2e] ${line}\n`);
}

const BENCH = opts.suite === 'bench';
const EXTENSION_PATH = path.resolve(opts['extension-path'] ?? REPO_ROOT);
const SUFFIX = BENCH ? '.bench.ts' : '.test.ts';

function findTests(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findTests(full));
    else if (entry.name.endsWith(SUFFIX)) found.push(full);
  }
  return found.sort();
}

const QUIET_MS = 250;
const SETTLE_TIMEOUT_MS = 10_000;

/** Resolves once no frame of the page (the workbench, each webview) has seen a DOM mutation for QUIET_MS. */
async function workbenchQuiet(page) {
  const quiet = ({ quietMs, timeoutMs }) =>
    new Promise((resolve) => {
      let timer;
      const done = () => {
        observer.disconnect();
        clearTimeout(timer);
        clearTimeout(limit);
        resolve(undefined);
      };
      const observer = new MutationObserver(() => {
        clearTimeout(timer);
        timer = setTimeout(done, quietMs);
      });
      observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      timer = setTimeout(done, quietMs);
      const limit = setTimeout(done, timeoutMs);
    });
  // A frame that goes away meanwhile (a webview reloading), or whose script never runs, has nothing left to paint:
  // each frame is waited for at most the same limit.
  const limit = (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref());
  await Promise.all(
    page
      .frames()
      .map((frame) =>
        Promise.race([
          frame.evaluate(quiet, { quietMs: QUIET_MS, timeoutMs: SETTLE_TIMEOUT_MS }).catch(() => undefined),
          limit(SETTLE_TIMEOUT_MS + 1000),
        ]),
      ),
  );
}

/** One CommonJS bundle: index.ts's runSuite() plus every test file, loaded after mocha's globals exist. */
async function bundleSuite() {
  const tests = findTests(E2E_DIR);
  if (tests.length === 0) throw new Error(`no test/e2e/**/*${SUFFIX} found`);
  const loads = tests
    .map((file) => `  require(${JSON.stringify('./' + path.relative(REPO_ROOT, file).split(path.sep).join('/'))});`)
    .join('\n');
  const entry = `const { runSuite } = require('./test/e2e/index.ts');
exports.run = () => runSuite(() => {
${loads}
});
`;
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });
  await esbuild.build({
    stdin: { contents: entry, resolveDir: REPO_ROOT, sourcefile: 'e2e-entry.js', loader: 'js' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile: path.join(OUT_DIR, 'index.js'),
    // grpc-health-check reads its .proto relative to its own files: loaded from node_modules (the suite runs from
    // out/e2e inside the repository), not bundled, for tests that talk gRPC themselves (the editor bench).
    external: ['vscode', 'grpc-health-check'],
    sourcemap: 'inline',
    logLevel: 'warning',
    logOverride: { 'direct-eval': 'silent', 'require-resolve-not-external': 'silent' },
  });
  return tests.length;
}

/** Serves the suite's capture requests: a screenshot plus the DOM facts the tests assert on. */
const dialogs = [];
/** The addresses of the browser tabs the workbench opened (a link the extension opened with env.openExternal). */
const openedPages = [];

async function serveCaptures(page, bridgeDir, handled) {
  let files;
  try {
    files = readdirSync(bridgeDir).filter((f) => f.endsWith('.request.json'));
  } catch {
    return;
  }
  for (const file of files) {
    if (handled.has(file)) continue;
    handled.add(file);
    const request = JSON.parse(readFileSync(path.join(bridgeDir, file), 'utf8'));
    const response = { ok: true };
    const fullSize = page.viewportSize();
    try {
      // A webview (the chat view, the result view): its DOM read, or a click or keys in it, from outside.
      if (request.webview) {
        response.value = await serveWebview(page, request.webview);
        writeResponse(bridgeDir, file, response);
        continue;
      }
      // A narrower window (e.g. to see a view at sidebar width), restored after the capture.
      if (request.viewport) await page.setViewportSize(request.viewport);
      // Keys pressed and text typed into the focused part of the workbench, as a developer would (F12, F2 …).
      for (const key of request.keys ?? []) {
        if (key.type !== undefined) await page.keyboard.type(key.type, { delay: 20 });
        if (key.press !== undefined) await page.keyboard.press(key.press);
        // Then wait for what the key opens (`until`, a CSS selector: the rename box, the hints widget) or, without
        // one, for the workbench to be quiet — never a fixed pause.
        if (key.until !== undefined) await page.waitForSelector(key.until, { state: 'visible', timeout: 15_000 });
        else await workbenchQuiet(page);
      }
      // Let the workbench paint what the extension host just changed: wait until no frame's DOM has changed for
      // QUIET_MS (a condition, not a fixed pause), at most SETTLE_TIMEOUT_MS (then capture what there is).
      await workbenchQuiet(page);
      Object.assign(
        response,
        await page.evaluate(() => {
          const visible = (el) => el.getClientRects().length > 0;
          const count = (selector) => [...document.querySelectorAll(selector)].filter(visible).length;
          const statusItems = [...document.querySelectorAll('.statusbar-item')].filter(visible).map((el) => ({
            id: el.id,
            text: el.innerText.trim(),
            ariaLabel:
              el.getAttribute('aria-label') ?? el.querySelector('[aria-label]')?.getAttribute('aria-label') ?? '',
            className: el.className,
            icons: [...el.querySelectorAll('.codicon')].map(
              (i) => [...i.classList].find((c) => c.startsWith('codicon-') && c !== 'codicon-modifier-spin') ?? '',
            ),
            background: getComputedStyle(el).backgroundColor,
          }));
          return {
            squigglyErrors: count('.squiggly-error'),
            squigglyWarnings: count('.squiggly-warning'),
            codeLenses: [...document.querySelectorAll('.contentWidgets .codelens-decoration')]
              .filter(visible)
              .map((el) => el.innerText.trim()),
            // The colour of each token text in the active editor (first occurrence), as the theme paints it.
            editorTokenColors: Object.fromEntries(
              [...document.querySelectorAll('.editor-group-container.active .monaco-editor .view-line span span')]
                .filter(visible)
                .reverse()
                .map((el) => [el.textContent.trim(), getComputedStyle(el).color]),
            ),
            statusItems,
            // The parameter hints (signature help) widget's text, when it is on screen.
            parameterHints: [...document.querySelectorAll('.parameter-hints-widget')]
              .filter(visible)
              .map((el) => el.innerText.trim())
              .join('\n'),
            // The rows of the Outline view, when it is open.
            outlineRows: [...document.querySelectorAll('.outline-pane .monaco-list-row')]
              .filter(visible)
              .map((el) => el.innerText.trim()),
            notifications: [
              ...document.querySelectorAll(
                '.notification-toast, .notifications-list-container .notification-list-item',
              ),
            ]
              .filter(visible)
              .map((el) => el.innerText.trim()),
            // Text an extension puts after a line's end (decorations' `after.contentText`, drawn by CSS ::after) in
            // the active editor, line by line: values in the code after an AVAP run.
            afterDecorations: [
              ...document.querySelectorAll('.editor-group-container.active .monaco-editor .view-line span'),
            ]
              .filter(visible)
              .map((el) => getComputedStyle(el, '::after').content)
              .filter((content) => content && content !== 'none' && content !== 'normal' && content !== '""')
              .map((content) => content.replace(/^"|"$/g, '').replace(/\\"/g, '"')),
            // The Testing view's rows (their accessible labels name the test and its state) and its peek on an editor.
            testingRows: [...document.querySelectorAll('.test-explorer .monaco-list-row')]
              .filter(visible)
              .map((el) => `${el.innerText.trim().replace(/\s+/g, ' ')} — ${el.getAttribute('aria-label') ?? ''}`),
            testingPeek: [...document.querySelectorAll('.peekview-widget')].filter(visible).map((el) => ({
              title: el.querySelector('.peekview-title')?.innerText.trim() ?? '',
              diffEditors: el.querySelectorAll('.monaco-diff-editor').length,
              text: el.innerText.trim().slice(0, 2000),
            })),
            // Test state icons in the active editor's glyph margin (VS Code draws each test's last outcome there).
            testingGlyphs: [
              ...document.querySelectorAll(
                '.editor-group-container.active .monaco-editor .glyph-margin-widgets .codicon, .editor-group-container.active .monaco-editor .margin-view-overlays .codicon',
              ),
            ]
              .filter(visible)
              .map((el) => [...el.classList].find((c) => c.startsWith('codicon-testing')) ?? '')
              .filter(Boolean),
            editorTabs: [...document.querySelectorAll('.tabs-container .tab')]
              .filter(visible)
              .map((el) => el.innerText.trim()),
            // The same notifications' severities, from their icons: error, warning or info.
            notificationSeverities: [
              ...document.querySelectorAll(
                '.notification-toast, .notifications-list-container .notification-list-item',
              ),
            ]
              .filter(visible)
              .map((el) =>
                el.querySelector('.notification-list-item-icon.codicon-error')
                  ? 'error'
                  : el.querySelector('.notification-list-item-icon.codicon-warning')
                    ? 'warning'
                    : 'info',
              ),
          };
        }),
      );
      response.dialogs = dialogs.length;
      response.openedPages = [...openedPages];
      // Did anything a model wrote run? Look into every frame, webviews included.
      response.xssMarkers = 0;
      for (const frame of page.frames()) {
        try {
          if (await frame.evaluate(() => typeof window.__avapXss !== 'undefined')) response.xssMarkers++;
        } catch {
          // a frame that went away
        }
      }
      if (request.screenshot) {
        mkdirSync(TEST_OUTPUT, { recursive: true });
        const target = path.join(TEST_OUTPUT, `${request.screenshot}.png`);
        await page.screenshot({ path: target });
        response.screenshotPath = target;
      }
    } catch (err) {
      response.ok = false;
      response.error = err instanceof Error ? err.message : String(err);
    }
    if (request.viewport && fullSize) await page.setViewportSize(fullSize).catch(() => undefined);
    writeResponse(bridgeDir, file, response);
  }
}

function writeResponse(bridgeDir, file, response) {
  const responsePath = path.join(bridgeDir, file.replace('.request.json', '.response.json'));
  writeFileSync(`${responsePath}.tmp`, JSON.stringify(response));
  cpSync(`${responsePath}.tmp`, responsePath);
}

function printResults(results) {
  for (const test of results.tests) {
    const mark = test.state === 'passed' ? '  ✓' : test.state === 'failed' ? '  ✗' : '  -';
    log(`${mark} ${test.fullTitle}${test.duration !== undefined ? ` (${test.duration} ms)` : ''}`);
    if (test.error) log(`      ${test.error.split('\n').join('\n        ')}`);
  }
  const { passes, failures, pending } = results.stats;
  log(`extension-host suite: ${passes} passing, ${failures} failing, ${pending} pending`);
  // The plain closing line CI reads.
  process.stdout.write(`${BENCH ? 'e2e-bench' : 'e2e'}: ${passes} passed, ${failures} failed\n`);
}

/** The suite in code-server: the payload URL opened in headless Chromium, which also serves the captures. */
async function runInCodeServer({
  timeoutMs,
  userDataDir,
  extensionsDir,
  workspace,
  bridgeDir,
  resultsFile,
  serverLog,
}) {
  const port = await freePort();
  let hostExit;
  const codeServer = await startCodeServer(children, {
    port,
    userDataDir,
    extensionsDir,
    workspace,
    onLog: (text) => {
      appendFileSync(serverLog, text);
      const match = /Extension Host Process exited with code: (-?\d+|null)/.exec(text);
      if (match && hostExit === undefined) hostExit = match[1];
    },
  });
  log(`code-server on http://127.0.0.1:${port} (log: ${path.relative(REPO_ROOT, serverLog)})`);

  const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [
    ['extensionDevelopmentPath', remote(EXTENSION_PATH)],
    ['extensionTestsPath', remote(path.join(OUT_DIR, 'index'))],
  ];
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;

  browser = await chromium.launch({ executablePath: CHROMIUM_BIN, headless: true, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  watchPage(page, serverLog);
  // A loaded machine can take a while to serve the workbench: wait for it rather than fail the run.
  await page.goto(url, { timeout: 180_000 });
  await page.waitForSelector('.monaco-workbench', { timeout: 180_000 });
  log('workbench loaded; running the suite in the extension host');

  const handled = new Set();
  const deadline = Date.now() + timeoutMs;
  let exitSeenAt;
  for (;;) {
    await serveCaptures(page, bridgeDir, handled);
    if (existsSync(resultsFile)) break;
    if (codeServer.exitCode !== null)
      throw new Error(`code-server exited (${codeServer.exitCode}) before the suite finished`);
    if (hostExit !== undefined) {
      exitSeenAt ??= Date.now();
      // Give the results file a moment; then the host died without reporting.
      if (Date.now() - exitSeenAt > 5000) {
        throw new Error(`the extension host exited with code ${hostExit} without writing results — see ${serverLog}`);
      }
    }
    if (Date.now() > deadline) throw new Error(`the suite did not finish within ${opts.timeout} s — see ${serverLog}`);
    await sleep(200);
  }
}

/** The desktop VS Code that @vscode/test-electron downloads when AVAP_VSCODE_EXECUTABLE is not set: the VS Code of code-server 4.100.3. */
const ELECTRON_VERSION = process.env.AVAP_VSCODE_VERSION || '1.100.3';

/** Logs the workbench page's errors and counts (and dismisses) any dialog: one would mean model output ran as script. */
function watchPage(page, serverLog) {
  page.on('console', (msg) => {
    if (msg.type() === 'error') appendFileSync(serverLog, `[browser] ${msg.text()}\n`);
  });
  page.on('pageerror', (err) => appendFileSync(serverLog, `[browser] page error: ${err.message}\n`));
  const watchDialogs = (p) =>
    p.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss().catch(() => undefined);
    });
  watchDialogs(page);
  page.context().on('page', (opened) => {
    watchDialogs(opened);
    // The workbench opened a tab (a link): once its address is noted (below), it is closed as a user would, and the
    // workbench is the page in front again — a background workbench has no editor focus for the keys tests press.
    void opened
      .waitForLoadState('domcontentloaded')
      .catch(() => undefined)
      .then(() => opened.close())
      .then(() => page.bringToFront())
      .catch(() => undefined);
  });
  // A tab the workbench opens (a link the extension opened with env.openExternal): its address is the tab's first
  // navigation, seen on the context from its start (nothing needs to answer it; the tab itself starts blank).
  page.context().on('request', (request) => {
    if (!request.isNavigationRequest() || request.serviceWorker()) return;
    let frame;
    try {
      frame = request.frame();
    } catch {
      // A new tab's first navigation is issued before its frame exists.
    }
    if (frame && (frame.parentFrame() !== null || frame.page() === page)) return;
    if (!openedPages.includes(request.url())) openedPages.push(request.url());
  });
}

/**
 * The suite in a desktop VS Code through @vscode/test-electron's runTests (the design's runner): the same bundle
 * (out/e2e/index.js exports run()), the same user settings and workspace. The workbench is reached over the
 * Chrome DevTools protocol (--remote-debugging-port) to serve the same captures (screenshots, DOM facts).
 * On Linux without a display, run it under xvfb-run.
 */
async function runInElectron({ timeoutMs, userDataDir, extensionsDir, workspace, bridgeDir, resultsFile, serverLog }) {
  const { runTests } = await import('@vscode/test-electron');
  const cdpPort = await freePort();
  const executable = process.env.AVAP_VSCODE_EXECUTABLE || undefined;
  log(`VS Code: ${executable ?? `${ELECTRON_VERSION}, downloaded by @vscode/test-electron into .vscode-test/ (once)`}`);
  let settled = false;
  let runError;
  const running = runTests({
    ...(executable ? { vscodeExecutablePath: executable } : { version: ELECTRON_VERSION }),
    extensionDevelopmentPath: EXTENSION_PATH,
    extensionTestsPath: path.join(OUT_DIR, 'index.js'),
    launchArgs: [
      workspace,
      `--user-data-dir=${userDataDir}`,
      `--extensions-dir=${extensionsDir}`,
      `--remote-debugging-port=${cdpPort}`,
      '--disable-extensions',
      '--disable-telemetry',
    ],
  }).then(
    () => {
      settled = true;
    },
    (err) => {
      settled = true;
      runError = err;
    },
  );

  const handled = new Set();
  const deadline = Date.now() + timeoutMs;
  let page;
  for (;;) {
    if (!page) {
      try {
        browser ??= await chromium.connectOverCDP(`http://127.0.0.1:${cdpPort}`, { timeout: 2000 });
        page = browser
          .contexts()
          .flatMap((c) => c.pages())
          .find((p) => /workbench/.test(p.url()));
        if (page) {
          watchPage(page, serverLog);
          log('workbench reached over CDP; running the suite in the extension host');
        }
      } catch {
        // VS Code is still starting
      }
    }
    if (page) await serveCaptures(page, bridgeDir, handled);
    if (existsSync(resultsFile)) break;
    if (settled)
      throw new Error(`VS Code exited without writing results${runError ? ` (${runError.message ?? runError})` : ''}`);
    if (Date.now() > deadline) throw new Error(`the suite did not finish within ${opts.timeout} s`);
    await sleep(200);
  }
  await running;
}

async function main() {
  const timeoutMs = Number(opts.timeout) * 1000;
  requireFile(path.join(EXTENSION_PATH, 'dist', 'extension.js'), 'run `npm run build` first');
  const host = await chooseHost({
    requested: opts.host ?? process.env.AVAP_VSCODE_HOST,
    executable: process.env.AVAP_VSCODE_EXECUTABLE,
    probe: () => probeVsCodeDownload(),
  });
  if ('error' in host) throw new Error(host.error);
  log(`host: ${host.host} — ${host.reason}`);
  // Playwright drives the workbench on both hosts (code-server's in Chromium; desktop VS Code's over CDP).
  if (host.host === 'code-server') requireChromium();

  const testCount = await bundleSuite();
  log(`bundled ${testCount} test file(s) into ${path.relative(REPO_ROOT, OUT_DIR)}/index.js`);

  workDir = mkdtempSync(path.join(os.tmpdir(), 'avap-e2e-'));
  const userDataDir = path.join(workDir, 'user-data');
  const extensionsDir = path.join(workDir, 'extensions');
  const workspace = path.join(workDir, 'workspace');
  const bridgeDir = path.join(workDir, 'bridge');
  const resultsFile = path.join(workDir, 'results.json');
  const benchFile = path.join(workDir, 'bench.json');
  mkdirSync(extensionsDir, { recursive: true });
  mkdirSync(bridgeDir, { recursive: true });
  cpSync(path.join(E2E_DIR, 'workspace'), workspace, { recursive: true });
  mkdirSync(TEST_OUTPUT, { recursive: true });
  const serverLog = path.join(TEST_OUTPUT, 'e2e-code-server.log');
  writeFileSync(serverLog, '');

  const parser = await startParserService(children, { onLog: (text) => appendFileSync(serverLog, `[parser] ${text}`) });
  log(`parser service on ${parser.address}`);

  prepareUserDataDir(userDataDir, {
    'avap.parser.url': parser.address,
    'avap.parser.timeout': 5,
    // Nothing listens there: tests that need a model start a scripted Ollama server and point the setting at it.
    'avap.ollama.url': 'http://127.0.0.1:9',
  });
  writeFileSync(
    path.join(OUT_DIR, 'config.json'),
    JSON.stringify(
      {
        repoRoot: REPO_ROOT,
        extensionPath: EXTENSION_PATH,
        workspace,
        bridgeDir,
        resultsFile,
        benchFile,
        parserAddress: parser.address,
        parserServerJs: path.join(REPO_ROOT, 'dist', 'parser-server.js'),
        grep: opts.grep ?? '',
      },
      null,
      2,
    ),
  );

  const run = { timeoutMs, userDataDir, extensionsDir, workspace, bridgeDir, resultsFile, serverLog };
  if (host.host === 'electron') await runInElectron(run);
  else await runInCodeServer(run);
  await sleep(100);
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  printResults(results);
  if (BENCH && opts['bench-out']) {
    if (!existsSync(benchFile)) throw new Error('the bench suite recorded no measurements');
    cpSync(benchFile, path.resolve(opts['bench-out']));
  }
  if (results.stats.tests === 0) {
    log('no test ran');
    return 1;
  }
  return results.stats.failures === 0 ? 0 : 1;
}

async function cleanup() {
  try {
    await browser?.close();
  } catch {
    /* already closed */
  }
  await children.killAll();
  if (workDir && !opts.keep) rmSync(workDir, { recursive: true, force: true });
  else if (workDir) log(`kept ${workDir}`);
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    void cleanup().finally(() => process.exit(130));
  });
}

let code;
try {
  code = await main();
} catch (err) {
  log(`FAILED: ${err instanceof Error ? err.message : String(err)}`);
  code = 1;
} finally {
  await cleanup();
}
process.exit(code);

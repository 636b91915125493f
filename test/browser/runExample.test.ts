/**
 * Running AVAP as a new user meets it, in the real VS Code (code-server 4.100.3) driven through
 * headless Chromium as a person drives it: the packaged extension (`npm run package`) installed into a fresh
 * profile, a folder holding a copy of the examples the repository ships (as `npm start` opens), an example opened
 * through Quick Open and run with its keybinding; the response read from the result view's page, the values from
 * the editor; the example broken by typing a line and run again — the run-time error's squiggle; the Testing view
 * run from the command palette. Everything is read from the DOM (the workbench's and the result view's frame) and
 * waited for, never paced. This is what the extension-host suite cannot see: the .vsix's own files (the
 * production bundles, the runtime's worker, PGlite's files) working together.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { VscodeHost } from './vscodeHost';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';

const root = path.resolve(__dirname, '..', '..');
const TEST_OUTPUT = path.join(root, 'test-output');
const EXAMPLE = 'age-check.avap';

/** What the result view's page shows (read in its own frame). */
interface RunPage {
  title: string;
  status: string;
  body: string;
  error: string;
  steps: number;
}

describe('running an example as a new user: the packaged extension in the real VS Code', function () {
  this.timeout(600_000);
  let host: VscodeHost;
  let work: string;
  let children: InstanceType<VscodeHost['Children']>;
  let browser: Browser | undefined;
  let page: Page;

  /** Waits until `expression` (over the page's DOM) is truthy; fails with a screenshot. */
  async function until<T>(what: string, expression: string, timeout = 90_000): Promise<T> {
    try {
      const handle = await page.waitForFunction(expression, undefined, { timeout });
      return (await handle.jsonValue()) as T;
    } catch (err) {
      await shot(`failure-${what.replace(/\W+/g, '-').slice(0, 50)}`);
      throw new Error(`${what}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`, { cause: err });
    }
  }

  async function shot(name: string): Promise<void> {
    mkdirSync(TEST_OUTPUT, { recursive: true });
    await page.screenshot({ path: path.join(TEST_OUTPUT, `run-example-${name}.png`) }).catch(() => undefined);
  }

  /** The result view's page, from whichever frame holds it (webviews are nested frames). */
  async function runPage(): Promise<RunPage | undefined> {
    for (const frame of page.frames()) {
      const read = await frameRunPage(frame).catch(() => undefined);
      if (read) return read;
    }
    return undefined;
  }

  function frameRunPage(frame: Frame): Promise<RunPage | undefined> {
    return frame.evaluate<RunPage | undefined>(`(() => {
      const text = (selector) => (document.querySelector(selector)?.textContent ?? '').trim();
      if (!document.getElementById('run') || !document.querySelector('.status')) return undefined;
      return {
        title: text('.file'),
        status: text('.status'),
        body: text('.json'),
        error: text('.error'),
        steps: document.querySelectorAll('table.steps tr.step').length,
      };
    })()`);
  }

  async function resultView(what: string, done: (p: RunPage) => boolean): Promise<RunPage> {
    const deadline = Date.now() + 90_000;
    let last: RunPage | undefined;
    while (Date.now() < deadline) {
      last = await runPage();
      if (last && !/Running/.test(last.status) && done(last)) return last;
      await page.waitForTimeout(200);
    }
    await shot(`failure-${what.replace(/\W+/g, '-').slice(0, 50)}`);
    assert.fail(`${what}: the result view shows ${JSON.stringify(last)}`);
  }

  /** The command palette (F1), a command's title, Enter once its row is selected. */
  async function runCommand(title: string): Promise<void> {
    await page.keyboard.press('F1');
    await until('the command palette', `document.activeElement?.closest('.quick-input-widget')`);
    await page.keyboard.type(title);
    await until(
      `the palette offers "${title}"`,
      `[...document.querySelectorAll('.quick-input-list .monaco-list-row.focused')].some((r) => r.innerText.includes(${JSON.stringify(title)}))`,
    );
    await page.keyboard.press('Enter');
  }

  const AFTER_TEXTS = `[...document.querySelectorAll('.editor-group-container .monaco-editor .view-line span')]
    .map((el) => getComputedStyle(el, '::after').content).filter((c) => c && c !== 'none' && c !== 'normal')`;

  before(async () => {
    host = (await import(pathToFileURL(path.join(root, 'scripts', 'lib', 'vscodeHost.mjs')).href)) as VscodeHost;
    host.requireChromium();
    host.requireFile(host.CODE_SERVER_BIN, 'run `bash scripts/install-vscode-host.sh` first');
    work = mkdtempSync(path.join(os.tmpdir(), 'avap-run-example-'));
    const vsix = path.join(work, 'avap-assistant.vsix');
    const packaged = spawnSync('npm', ['run', 'package', '--', '--out', vsix], { cwd: root, encoding: 'utf8' });
    assert.equal(packaged.status, 0, `npm run package failed:\n${packaged.stdout}\n${packaged.stderr}`);
    const userDataDir = path.join(work, 'user-data');
    const extensionsDir = path.join(work, 'extensions');
    const workspace = path.join(work, 'examples');
    for (const d of [path.join(userDataDir, 'User'), extensionsDir, workspace]) mkdirSync(d, { recursive: true });
    // The folder a new user opens: a copy of the examples (programs, their request and test files).
    for (const file of readdirSync(path.join(root, 'examples')).filter((f) => !f.startsWith('.')))
      cpSync(path.join(root, 'examples', file), path.join(workspace, file));
    writeFileSync(
      path.join(userDataDir, 'User', 'settings.json'),
      JSON.stringify({
        'telemetry.telemetryLevel': 'off',
        'update.mode': 'none',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'workbench.startupEditor': 'none',
      }),
    );
    await host.installVsix(vsix, extensionsDir, userDataDir);
    children = new host.Children();
    const port = await host.freePort();
    await host.startCodeServer(children, { port, userDataDir, extensionsDir, workspace });
    browser = await chromium.launch({ executablePath: host.CHROMIUM_BIN, headless: true, args: host.CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`, { timeout: 180_000 });
    await page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 180_000 });
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await children?.killAll();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('open an example, run it (Ctrl+Alt+R), read its response beside it, and the values in the code', async () => {
    await page.keyboard.press('Control+KeyP');
    await until('Quick Open', `document.activeElement?.closest('.quick-input-widget')`);
    await page.keyboard.type(EXAMPLE);
    await until(
      `Quick Open selects ${EXAMPLE}`,
      `[...document.querySelectorAll('.quick-input-list .monaco-list-row.focused')].some((r) => r.innerText.includes('${EXAMPLE}'))`,
    );
    await page.keyboard.press('Enter');
    await until(
      'the example open with the Run lens',
      `[...document.querySelectorAll('.editor-group-container.active .codelens-decoration')].some((l) => l.innerText.includes('Run'))`,
    );
    await page.keyboard.press('Control+Alt+KeyR');
    const view = await resultView('the response', (p) => p.title === EXAMPLE);
    assert.equal(view.status, '200 OK');
    assert.match(view.body, /"verdict"\s*:\s*"adult"/, 'the request file beside the example asks for age 30');
    assert.ok(view.steps >= 3, `the steps are listed: ${view.steps}`);
    const values = await until<string[]>(
      'the values at the ends of the lines',
      `(${AFTER_TEXTS}).some((c) => c.includes('verdict = ')) && (${AFTER_TEXTS})`,
    );
    assert.ok(
      values.some((v) => v.includes('years = 30')),
      values.join(' | '),
    );
    await shot('response');
  });

  it('break it by typing a line, run it again: the run-time error on its line, a 500 in the result view', async () => {
    const squiggles = `document.querySelectorAll('.editor-group-container.active .squiggly-error').length`;
    // The end of the line that sets "adult", then a new line that fails at run time (a text is not a list).
    await page.locator('.editor-group-container.active .view-line', { hasText: 'addVar(verdict, "adult")' }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('itemFromList(verdict, 9, letter)');
    await until('the values cleared by the edit', `!(${AFTER_TEXTS}).some((c) => c.includes('verdict = '))`);
    await page.keyboard.press('Control+Alt+KeyR');
    const view = await resultView('the failed run', (p) => p.status.startsWith('500'));
    assert.match(view.error, /line 5/);
    assert.match(view.error, /itemFromList/);
    await until('the run-time error squiggle', `${squiggles} > 0`);
    await shot('runtime-error');
    // Taking the line out again (Delete Line) is an edit: the run-time error goes with it.
    await page.keyboard.press('Control+Shift+KeyK');
    await until('the squiggle gone with the edit', `${squiggles} === 0`);
    await until(
      'the example as it was',
      `!document.querySelector('.editor-group-container.active .view-lines')?.innerText.includes('itemFromList')`,
    );
    await page.keyboard.press('Control+KeyS');
  });

  it("open the Testing view and run the examples' cases: they pass", async () => {
    await runCommand('View: Show Testing');
    const rows = `[...document.querySelectorAll('.test-explorer .monaco-list-row')].map((r) => r.getAttribute('aria-label') ?? '')`;
    // The view lists every example with a test file (found when the view opened), then runs them all.
    await until('the examples listed', `(${rows}).length >= 4`);
    await runCommand('Test: Run All Tests');
    const labels = await until<string[]>(
      'the examples in the Testing view, run',
      `(${rows}).some((r) => r.startsWith('${EXAMPLE}') && /Passed/.test(r)) && (${rows})`,
    );
    const failed = labels.filter((r) => /Failed|Errored/.test(r));
    assert.deepEqual(failed, [], labels.join(' | '));
    assert.ok(labels.filter((r) => /Passed/.test(r)).length >= 4, labels.join(' | '));
    await shot('testing');
  });
});

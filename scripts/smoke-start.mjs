#!/usr/bin/env node
// Smoke check of `npm start`: runs scripts/start.mjs (build, `npm run package`, install the .vsix into
// code-server, start the parser service), opens the printed URL in headless Chromium, and checks as a person
// would: the workspace is outside the repository; the example the URL opens keeps the active editor and the
// keyboard focus, with its AVAP status item, while the extension's first run offers the Get Started walkthrough
// in a notification (it never opens an editor by itself); the invalid example, opened through Quick Open, shows
// squiggles and the "AVAP: invalid" status from the *installed* extension (test-output/npm-start.png); last, the
// notification's button opens the walkthrough (test-output/npm-start-walkthrough.png). Every step waits on what
// the workbench shows (DOM), never a fixed pause. Exits non-zero on failure; always stops what it started.
/* global document -- used inside page.evaluate, which runs in the browser */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_BIN, REPO_ROOT, requireChromium } from './lib/vscodeHost.mjs';

const log = (line) => process.stdout.write(`[smoke-start] ${line}\n`);
const TEST_OUTPUT = path.join(REPO_ROOT, 'test-output');

const start = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts', 'start.mjs'), '--port', '0'], {
  cwd: REPO_ROOT,
  stdio: ['ignore', 'pipe', 'inherit'],
  detached: true,
});
let browser;

function stopStart() {
  if (start.exitCode !== null || start.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-start.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
      resolve();
    }, 10_000);
    start.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      process.kill(start.pid, 'SIGTERM');
    } catch {
      resolve();
    }
  });
}

/** Waits (at every frame) until `predicate` holds in the page; fails saying what it waited for. */
async function waitFor(page, what, predicate, arg, timeout = 60_000) {
  try {
    await page.waitForFunction(predicate, arg, { timeout });
  } catch (err) {
    const seen = await page
      .evaluate(() => ({
        tabs: [...document.querySelectorAll('.tabs-container .tab')].map((el) => el.innerText.trim()),
        active: document.querySelector('.editor-group-container.active .tab.active')?.innerText.trim(),
        focus: `${document.activeElement?.tagName}.${String(document.activeElement?.className).slice(0, 80)}`,
      }))
      .catch(() => 'no page');
    throw new Error(
      `waiting for ${what}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}; on screen: ${JSON.stringify(seen)}`,
      { cause: err },
    );
  }
}

async function main() {
  requireChromium();
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('npm start did not print its URL within 5 minutes')), 300_000);
    start.once('exit', (code) => reject(new Error(`npm start exited with ${code} before it was ready`)));
    createInterface({ input: start.stdout }).on('line', (line) => {
      process.stdout.write(`${line}\n`);
      const match = /AVAP Assistant in VS Code: (\S+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  browser = await chromium.launch({ executablePath: CHROMIUM_BIN, headless: true, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(url);
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
  const folder = new URL(url).searchParams.get('folder') ?? '';
  if (!path.isAbsolute(folder) || folder === REPO_ROOT || folder.startsWith(REPO_ROOT + path.sep)) {
    throw new Error(
      `the workspace ${folder} is not outside the repository (VS Code would ask about its git repository)`,
    );
  }
  // The example the URL opens is the active editor, with the focus, and the installed extension shows its status.
  const first = 'hash-password.avap';
  await waitFor(
    page,
    `${first} active with the keyboard focus and its AVAP status item`,
    (name) => {
      const active = document.querySelector('.editor-group-container.active .tab.active');
      const focused = document.activeElement?.closest('.editor-group-container.active .monaco-editor');
      const status = [...document.querySelectorAll('.statusbar-item')].some((el) => /AVAP: /.test(el.innerText));
      return Boolean(active?.innerText.includes(name) && focused && status);
    },
    first,
  );
  // First run: a notification offers the walkthrough; nothing opens by itself, so the example keeps the editor.
  await waitFor(page, 'the first-run notification with Get Started', () =>
    [...document.querySelectorAll('.notification-toast')].some(
      (el) => el.innerText.includes('AVAP Assistant is on') && el.innerText.includes('Get Started'),
    ),
  );
  const facts = await page.evaluate(() => ({
    tabs: [...document.querySelectorAll('.tabs-container .tab')].map((el) => el.innerText.trim()),
    focused: Boolean(document.activeElement?.closest('.editor-group-container.active .monaco-editor')),
  }));
  if (facts.tabs.some((t) => t.includes('Walkthrough')) || !facts.focused) {
    throw new Error(
      `the first run took the editor: tabs ${JSON.stringify(facts.tabs)}, focus in the example: ${facts.focused}`,
    );
  }
  log(`workspace ${folder} (outside the repository); ${first} kept the editor and the focus; Get Started offered`);
  // Open the invalid example through Quick Open, as a user would: Enter only once its row is the selected one.
  const example = 'invalid-made-up-command.avap';
  await page.keyboard.press('Control+KeyP');
  await waitFor(page, 'Quick Open', () =>
    Boolean(document.activeElement?.closest('.quick-input-widget') && document.activeElement.tagName === 'INPUT'),
  );
  await page.keyboard.type(example);
  await waitFor(
    page,
    `Quick Open selecting ${example}`,
    (name) =>
      [...document.querySelectorAll('.quick-input-list .monaco-list-row.focused')].some((el) =>
        el.innerText.includes(name),
      ),
    example,
  );
  await page.keyboard.press('Enter');
  await waitFor(
    page,
    `${example} active`,
    (name) => document.querySelector('.editor-group-container.active .tab.active')?.innerText.includes(name) ?? false,
    example,
  );
  await page.waitForSelector('.squiggly-error', { timeout: 60_000 });
  const status = await page.waitForFunction(
    () => {
      const item = [...document.querySelectorAll('.statusbar-item')].find((el) => el.innerText.includes('AVAP:'));
      return item && item.innerText.includes('AVAP: invalid') ? item.innerText.trim() : undefined;
    },
    undefined,
    { timeout: 30_000 },
  );
  const squiggles = await page.evaluate(() => document.querySelectorAll('.squiggly-error').length);
  mkdirSync(TEST_OUTPUT, { recursive: true });
  const shot = path.join(TEST_OUTPUT, 'npm-start.png');
  await page.screenshot({ path: shot });
  log(
    `installed extension works: ${squiggles} error squiggle(s), status "${await status.jsonValue()}", screenshot ${path.relative(REPO_ROOT, shot)}`,
  );
  // Then the walkthrough, from the first-run notification's button (the developer asks for it, so it may take the
  // focus; it comes last, as its page focuses its first step some time after it shows). The toast hides after a
  // while: then the button is in the notification centre (the bell in the status bar).
  const toastButton = page.locator('.notification-toast .monaco-button', { hasText: 'Get Started' });
  const clicked = await toastButton.click({ timeout: 5_000 }).then(
    () => true,
    () => false,
  );
  if (!clicked) {
    await page.locator('[id="status.notifications"]').click();
    await page.locator('.notifications-center .monaco-button', { hasText: 'Get Started' }).click({ timeout: 30_000 });
  }
  await waitFor(page, 'the Get Started walkthrough', () =>
    Boolean(
      document
        .querySelector('.editor-group-container.active .tab.active')
        ?.innerText.includes('Walkthrough: AVAP Assistant'),
    ),
  );
  await page.screenshot({ path: path.join(TEST_OUTPUT, 'npm-start-walkthrough.png') });
  log(`Get Started (${clicked ? 'the toast' : 'the notification centre'}) opened the walkthrough`);
}

let code = 0;
try {
  await main();
  process.stdout.write('smoke-start: 1 passed, 0 failed\n');
} catch (err) {
  log(`FAILED: ${err instanceof Error ? err.message : String(err)}`);
  try {
    const [page] = browser?.contexts()[0]?.pages() ?? [];
    if (page) {
      mkdirSync(TEST_OUTPUT, { recursive: true });
      await page.screenshot({ path: path.join(TEST_OUTPUT, 'npm-start-failure.png') });
      log('what the browser showed: test-output/npm-start-failure.png');
    }
  } catch {
    /* no page to show */
  }
  process.stdout.write('smoke-start: 0 passed, 1 failed\n');
  code = 1;
} finally {
  try {
    await browser?.close();
  } catch {
    /* closed */
  }
  await stopStart();
}
process.exit(code);

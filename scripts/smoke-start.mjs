#!/usr/bin/env node
// Smoke check of `npm start`: runs scripts/start.mjs (build, package the .vsix, install it into
// code-server, start the parser service), opens the printed URL in headless Chromium, checks that the
// workspace is outside the repository and that the extension's Get Started walkthrough opens on its
// own (first run; test-output/npm-start-walkthrough.png), opens the invalid example from the examples
// workspace, and checks that the *installed* extension shows squiggles and the "AVAP: invalid" status.
// Saves test-output/npm-start.png. Exits non-zero on
// failure; always stops what it started.
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
  // First run: the extension (activated by the example the URL opens) shows its walkthrough.
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('.tabs-container .tab')].some((el) =>
        el.innerText.includes('Walkthrough: AVAP Assistant'),
      ),
    undefined,
    { timeout: 60_000 },
  );
  mkdirSync(TEST_OUTPUT, { recursive: true });
  await page.waitForTimeout(1500);
  await page.screenshot({ path: path.join(TEST_OUTPUT, 'npm-start-walkthrough.png') });
  log(`workspace ${folder} (outside the repository); the Get Started walkthrough opened`);
  // Open the invalid example through Quick Open, as a user would.
  // The workbench may still be settling the first-run walkthrough (code-server registers it late and the
  // extension reopens it once), which can take the focus from Quick Open: try again until the file's tab is up.
  await page.waitForSelector('.explorer-folders-view', { timeout: 60_000 });
  const example = 'invalid-made-up-command.avap';
  const exampleTabOpen = () =>
    page.evaluate(
      (name) => [...document.querySelectorAll('.tabs-container .tab')].some((el) => el.innerText.includes(name)),
      example,
    );
  for (let attempt = 1; !(await exampleTabOpen()); attempt++) {
    if (attempt > 4) throw new Error(`Quick Open did not open ${example} in 4 attempts`);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+P');
    await page.waitForSelector('.quick-input-widget input', { timeout: 15_000 });
    await page.keyboard.type(example);
    await page.waitForSelector('.quick-input-list .monaco-list-row', { timeout: 15_000 });
    await page.keyboard.press('Enter');
    await page
      .waitForFunction(
        (name) => [...document.querySelectorAll('.tabs-container .tab')].some((el) => el.innerText.includes(name)),
        example,
        { timeout: 10_000 },
      )
      .catch(() => undefined);
  }
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

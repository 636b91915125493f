#!/usr/bin/env node
// Renders media/icon.svg (the activity-bar glyph of media/avap.svg on a coloured tile) into media/icon.png, the
// Marketplace icon package.json names (vsce wants a PNG, at least 128×128; this one is 256×256), with the same
// headless Chromium the editor tests use. Run it after changing media/icon.svg and commit both files.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_BIN, REPO_ROOT, requireChromium } from './lib/vscodeHost.mjs';

const SIZE = 256;
const svg = readFileSync(path.join(REPO_ROOT, 'media', 'icon.svg'), 'utf8');
const target = path.join(REPO_ROOT, 'media', 'icon.png');

requireChromium();
const browser = await chromium.launch({ executablePath: CHROMIUM_BIN, headless: true, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
  await page.setContent(
    `<!doctype html><html><body style="margin:0;background:transparent">${svg.replace(
      /<svg /,
      `<svg style="display:block;width:${SIZE}px;height:${SIZE}px" `,
    )}</body></html>`,
  );
  await page.screenshot({ path: target, omitBackground: true, clip: { x: 0, y: 0, width: SIZE, height: SIZE } });
  process.stdout.write(`${path.relative(REPO_ROOT, target)}: ${SIZE}×${SIZE} PNG\n`);
} finally {
  await browser.close();
}

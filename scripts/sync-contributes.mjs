#!/usr/bin/env node
// Writes `contributes` and `activationEvents` from scripts/contributes.mjs into package.json,
// leaving every other field as it is. `--check` exits 1 when package.json is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { activationEvents, contributes } from './contributes.mjs';

const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
const text = readFileSync(file, 'utf8');
const pkg = JSON.parse(text);
const same = JSON.stringify(pkg.contributes) === JSON.stringify(contributes)
  && JSON.stringify(pkg.activationEvents) === JSON.stringify(activationEvents);
if (process.argv.includes('--check')) {
  if (!same) {
    console.error('package.json contributes/activationEvents differ from scripts/contributes.mjs — run node scripts/sync-contributes.mjs');
    process.exit(1);
  }
  process.exit(0);
}
if (!same) {
  pkg.activationEvents = activationEvents;
  pkg.contributes = contributes;
  writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
  console.log('package.json: contributes and activationEvents updated');
}

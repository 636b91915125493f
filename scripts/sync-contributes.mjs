#!/usr/bin/env node
// Writes the editor's contribution points (each key of `contributes` in scripts/contributes.mjs)
// and `activationEvents` into package.json, leaving every other field as it is — including
// contribution points other work generates (e.g. languageModelTools).
// `--check` exits 1 when package.json is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { activationEvents, contributes } from './contributes.mjs';

const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
const pkg = JSON.parse(readFileSync(file, 'utf8'));
const current = pkg.contributes ?? {};
const stale = Object.keys(contributes).filter(
  (key) => JSON.stringify(current[key]) !== JSON.stringify(contributes[key]),
);
const eventsStale = JSON.stringify(pkg.activationEvents) !== JSON.stringify(activationEvents);
if (process.argv.includes('--check')) {
  if (stale.length > 0 || eventsStale) {
    console.error(
      `package.json differs from scripts/contributes.mjs in: ${[...stale, ...(eventsStale ? ['activationEvents'] : [])].join(', ')} — run node scripts/sync-contributes.mjs`,
    );
    process.exit(1);
  }
  process.exit(0);
}
if (stale.length > 0 || eventsStale) {
  pkg.activationEvents = activationEvents;
  pkg.contributes = { ...current, ...contributes };
  writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
  console.log(`package.json updated: ${[...stale, ...(eventsStale ? ['activationEvents'] : [])].join(', ')}`);
}

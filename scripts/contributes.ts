/**
 * Writes package.json's `contributes` and `activationEvents` and the README's settings table from their
 * declarations (src/surface; the language-model tools from src/tools), leaving everything else as it is:
 *
 *   npm run contributes            # write
 *   npm run contributes -- --check # exit 1 when a file is out of date (the unit test
 *                                  # test/unit/surface/manifest.test.ts checks the same in CI)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generatedFiles } from './lib/contributes';

const root = path.join(__dirname, '..');
const check = process.argv.includes('--check');
const stale: string[] = [];
for (const file of generatedFiles(root)) {
  const current = readFileSync(file.path, 'utf8');
  if (current === file.text) continue;
  stale.push(path.relative(root, file.path));
  if (!check) writeFileSync(file.path, file.text);
}
if (stale.length === 0) process.stdout.write('package.json and README.md match the declarations\n');
else if (check) {
  process.stderr.write(`out of date: ${stale.join(', ')} — run npm run contributes\n`);
  process.exitCode = 1;
} else process.stdout.write(`written: ${stale.join(', ')}\n`);

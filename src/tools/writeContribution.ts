/**
 * Writes `contributes.languageModelTools` into package.json from the tool
 * definitions, changing only that key:
 *
 *   npx tsx src/tools/writeContribution.ts [path/to/package.json]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { withLanguageModelTools } from './packageContribution';

function main(): void {
  const file = path.resolve(process.argv[2] ?? 'package.json');
  const text = readFileSync(file, 'utf8');
  const indent = /^\{\r?\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
  const updated = `${JSON.stringify(withLanguageModelTools(JSON.parse(text) as Record<string, unknown>), null, indent)}\n`;
  if (updated === text) {
    process.stdout.write(`${file}: languageModelTools already up to date\n`);
    return;
  }
  writeFileSync(file, updated);
  process.stdout.write(`${file}: languageModelTools written\n`);
}

main();

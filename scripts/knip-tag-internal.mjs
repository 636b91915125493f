// Tags with `@internal` every value export `knip --production --exclude types` reports: exports only tests reach.
// Usage: node scripts/knip-tag-internal.mjs   (npm run knip:tag-internal; then `npm run format`)
//
// Run it after `npm run knip:fix` and after a merge, then READ THE DIFF: each tag claims that a test reaches the
// export on purpose. Where production no longer needs the code, delete it (and its test) instead; where a test
// could go through what production uses, change the test and drop the export. ARCHITECTURE.md ("Unused code")
// has the rule.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TAG = '@internal';

/** knip's JSON report (it exits 1 when it reports something; the report is on stdout either way). */
function report() {
  const bin = path.join(root, 'node_modules', 'knip', 'bin', 'knip.js');
  const args = [bin, '--production', '--exclude', 'types', '--no-progress', '--no-config-hints', '--reporter', 'json'];
  try {
    return JSON.parse(execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' }));
  } catch (err) {
    const stdout = /** @type {{ stdout?: string }} */ (err).stdout;
    if (!stdout) throw err;
    return JSON.parse(stdout);
  }
}

const leading = (line) => line.slice(0, line.length - line.trimStart().length);

/**
 * Tags one export in `lines` (edited in place). A declaration (`export function f`) gets the tag in its JSDoc, or a
 * JSDoc of its own; a name in an export list (`export { a, b } from './x'`) is tagged where it stands.
 */
function tag(lines, { line, col, name }) {
  const at = line - 1;
  // Another name of the same `export { a, b };` has put the tag above it already.
  if (lines[at].trim() === `/** ${TAG} */`) return;
  const text = lines[at];
  if (text.slice(col - 1, col - 1 + name.length) !== name) throw new Error(`${name} is not at ${line}:${col}`);
  const statement = text.trimStart();
  // `export { a, b };` of local bindings: knip reads the tag on the statement, not on the names (so it covers them all).
  const localList = /^export\s*\{[^}]*\};?$/.test(statement.trimEnd());
  if (!localList && (!/^export\s/.test(statement) || /^export\s+(type\s+)?\{/.test(statement))) {
    lines[at] = `${text.slice(0, col - 1)}/** ${TAG} */ ${text.slice(col - 1)}`;
    return;
  }
  const above = at - 1;
  const closing = above >= 0 ? lines[above].trim() : '';
  if (closing.endsWith('*/')) {
    let start = above;
    while (start >= 0 && !lines[start].trim().startsWith('/*')) start--;
    if (!localList && start >= 0 && lines[start].trim().startsWith('/**')) {
      const indent = leading(lines[start]);
      if (start === above) {
        const body = closing.slice(3, -2).trim();
        lines.splice(above, 1, `${indent}/**`, `${indent} * ${body}`, `${indent} * ${TAG}`, `${indent} */`);
      } else if (closing === '*/') {
        lines.splice(above, 0, lines[above].replace('*/', `* ${TAG}`));
      } else {
        const lead = leading(lines[above]);
        lines.splice(above, 1, lines[above].trimEnd().slice(0, -2).trimEnd(), `${lead}* ${TAG}`, `${lead}*/`);
      }
      return;
    }
  }
  lines.splice(at, 0, `${leading(text)}/** ${TAG} */`);
}

let tagged = 0;
for (const issue of report().issues) {
  if (!issue.exports?.length) continue;
  const file = path.join(root, issue.file);
  const lines = readFileSync(file, 'utf8').split('\n');
  // Bottom up, so the positions of the others stay right.
  for (const item of [...issue.exports].sort((a, b) => b.line - a.line || b.col - a.col)) {
    tag(lines, item);
    tagged++;
    console.log(`${issue.file}:${item.line}  ${item.name}`);
  }
  writeFileSync(file, lines.join('\n'));
}
console.log(`${tagged} export(s) tagged ${TAG}; read the diff, then npm run format`);

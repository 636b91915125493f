/**
 * The parser's full output over every program the repository holds, as one text: for a speed change, the
 * output before and after must be byte-identical (`npx tsx bench/parser/outputs.ts BUNDLE > out.txt` with the
 * bundle of each side, then `cmp`). It covers every tracked .avap file, the bench's unseen corpus (the knowledge
 * base's programs and the generated endpoints, both seeds), its adversarial shapes and the fix-its' mutants, each validated as shipped
 * (the trace with its fixes, messages and positions, rendered too), without fix proofs, with a small trace cap,
 * with the parser's line-by-line analysis, and as a streamed prefix (`partial`) at every fifth line.
 *
 * BUNDLE defaults to dist/parser.js; a path to any build of src/parser/index.ts works (esbuild it to /tmp).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type * as ParserModule from '../../src/parser';
import { REPO_ROOT } from '../../test/support/parserProcess';
import { mutationSeeds, MUTATION_SEED } from '../../test/support/corpus/repairSets';
import { mutations } from '../../test/support/corpus/mutations';
import { generatedEndpoints } from './generated';
import { adversarialShapes } from './shapes';
import { unseenCorpus } from './unseen';

const bundle = path.resolve(process.argv[2] ?? path.join(REPO_ROOT, 'dist', 'parser.js'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const parser = require(bundle) as typeof ParserModule;

function programs(): { name: string; text: string }[] {
  const files = execFileSync('git', ['ls-files', '*.avap'], { cwd: REPO_ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f !== '');
  const out = files.map((f) => ({ name: f, text: readFileSync(path.join(REPO_ROOT, f), 'utf8') }));
  unseenCorpus(parser.validateAvap).parts.forEach((part) =>
    part.programs.forEach((text, i) => out.push({ name: `${part.label} #${i}`, text })),
  );
  for (const seed of [31, 32])
    generatedEndpoints(seed, 40).forEach((text, i) => out.push({ name: `seed ${seed} #${i}`, text }));
  for (const shape of adversarialShapes()) out.push({ name: shape.name, text: shape.build(40) });
  // Every mutant of the fix-its' mutation set, valid or not (the set's filter would run a parser of its own).
  for (const m of mutations(mutationSeeds(), { seed: MUTATION_SEED, perKind: 40 }))
    out.push({ name: m.id, text: m.source });
  return out;
}

function write(label: string, value: unknown): void {
  process.stdout.write(`${label}\t${JSON.stringify(value)}\n`);
}

for (const { name, text } of programs()) {
  const full = parser.validateAvap(text);
  write(`${name}\tfull`, full);
  write(`${name}\trendered`, parser.renderTrace(full.trace, { truncated: full.truncated }));
  write(`${name}\tunproven`, parser.validateAvap(text, { maxFixProofs: 0 }));
  write(`${name}\tcapped`, parser.validateAvap(text, { maxTraceEntries: 3, maxFixProofs: 2 }));
  const lines = text.split('\n');
  const stream = new parser.LineAnalysis();
  write(
    `${name}\tlines`,
    lines.map((line) => stream.line(line)),
  );
  for (let n = 1; n < lines.length; n += 5) {
    write(`${name}\tprefix ${n}`, parser.validateAvap(`${lines.slice(0, n).join('\n')}\n`, { partial: true }));
  }
}

/**
 * The failure corpus (test/corpus/failures): programs with the mistakes models
 * make — Go, Python and JavaScript slips, invented commands, unclosed blocks,
 * braces, semicolons — each an answer to a plausible request. Applying the
 * parser's fixes alone (every error fix of a run at once, re-validated, up to
 * three rounds; no model) must repair at least 60 % of them.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { renderTrace, repairWithFixes, validateAvap, type RepairOutcome } from '../../../src/parser';

const CORPUS = path.join(__dirname, '..', '..', 'corpus');
const GOAL = 0.6;

function programs(dir: string): { file: string; source: string }[] {
  return readdirSync(path.join(CORPUS, dir))
    .filter((f) => f.endsWith('.avap'))
    .sort()
    .map((file) => ({ file, source: readFileSync(path.join(CORPUS, dir, file), 'utf8') }));
}

async function repairAll(dir: string): Promise<{ file: string; outcome: RepairOutcome }[]> {
  const out = [];
  for (const { file, source } of programs(dir))
    out.push({ file, outcome: await repairWithFixes(source, (text) => validateAvap(text)) });
  return out;
}

const share = (runs: { outcome: RepairOutcome }[]) => runs.filter((r) => r.outcome.repaired).length / runs.length;
const percent = (x: number) => `${(100 * x).toFixed(1)} %`;

describe('parser: the failure corpus is repaired by fixes alone', function () {
  this.timeout(60_000);

  it('has at least 35 programs, every one invalid as written', () => {
    const all = programs('failures');
    assert.ok(all.length >= 35, `${all.length} programs`);
    for (const { file, source } of all) assert.equal(validateAvap(source).valid, false, `${file} should be a failure`);
  });

  it(`repairs at least ${GOAL * 100} % of it (all error fixes at once, re-validated, up to three rounds)`, async () => {
    const runs = await repairAll('failures');
    const repaired = runs.filter((r) => r.outcome.repaired).length;
    const left = runs
      .filter((r) => !r.outcome.repaired)
      .map(
        (r) =>
          `${r.file} (${r.outcome.stop}): ${renderTrace(r.outcome.result?.trace ?? [], { includeWarnings: false }).split('\n')[0]}`,
      );
    console.log(
      `      failure corpus repaired by fixes alone: ${repaired}/${runs.length} = ${percent(share(runs))} (goal ≥ ${GOAL * 100} %)`,
    );
    for (const line of left) console.log(`        not repaired: ${line}`);
    for (const { file, outcome } of runs) {
      assert.ok(outcome.rounds <= 3, file);
      if (outcome.repaired) assert.equal(validateAvap(outcome.source).valid, true, `${file} repaired means valid`);
    }
    assert.ok(share(runs) >= GOAL, `only ${percent(share(runs))} repaired`);
  });

  it('reports the share on the rule fixtures of test/corpus/invalid too (made to trip rules, many on purpose without a repair)', async () => {
    const runs = await repairAll('invalid');
    console.log(
      `      rule fixtures repaired by fixes alone: ${runs.filter((r) => r.outcome.repaired).length}/${runs.length} = ${percent(share(runs))}`,
    );
    for (const { file, outcome } of runs) {
      const before = validateAvap(readFileSync(path.join(CORPUS, 'invalid', file), 'utf8'));
      const errors = (trace: typeof before.trace) => trace.filter((e) => e.severity === 'error').length;
      assert.ok(
        outcome.result && errors(outcome.result.trace) <= errors(before.trace),
        `${file}: the fixes never add errors`,
      );
    }
  });

  it('repairs the same way every time (no model, no randomness)', async () => {
    const [a, b] = [await repairAll('failures'), await repairAll('failures')];
    assert.deepEqual(
      a.map((r) => r.outcome.source),
      b.map((r) => r.outcome.source),
    );
  });
});

/**
 * The share of failing programs the parser's proven fixes repair
 * alone (no model), on three sets measured apart — the tuned corpus the fixes
 * were written against, a held-out set they were never tuned on (the figure
 * that counts: at least 70 %), and seeded mutations of valid programs — and
 * that a repair keeps the meaning: a repaired program that comes with run
 * cases answers each exactly as the program it was meant to be, both run by
 * src/runtime. See test/support/corpus/repairSets.ts and test/corpus/held-out/README.md.
 */
import assert from 'node:assert/strict';
import { renderTrace, validateAvap } from '../../../src/parser';
import {
  behaviourDifferences,
  heldOutHash,
  heldOutSet,
  intendedMisses,
  MUTANTS_PER_KIND,
  MUTATION_SEED,
  mutationSet,
  percent,
  repairAll,
  share,
  tunedSet,
  type FailureProgram,
  type Repaired,
} from '../../support/corpus/repairSets';
import { MUTATION_KINDS } from '../../support/corpus/mutations';

/** The content hash of test/corpus/held-out/{programs,intended}: the set is frozen (its README says why). */
const HELD_OUT_SHA256 = 'bfeff2734091dd18dc12fbb15088a0abcb8a46770c738ca2149317021ca87ba5';
const HELD_OUT_GOAL = 0.7;

const count = (runs: readonly Repaired[]) =>
  `${runs.filter((r) => r.outcome.repaired).length}/${runs.length} = ${percent(share(runs))}`;

const memo = new Map<string, Promise<Repaired[]>>();
const repaired = (set: string, load: () => FailureProgram[]) => {
  let runs = memo.get(set);
  if (!runs) memo.set(set, (runs = repairAll(load())));
  return runs;
};
const tuned = () => repaired('tuned', tunedSet);
const heldOut = () => repaired('held-out', heldOutSet);
const mutants = () => repaired('mutations', mutationSet);

/** Where the repaired programs of a set answer differently from their intended programs. */
async function behaviourChanges(runs: readonly Repaired[], set: string): Promise<string[]> {
  const differences: string[] = [];
  let checked = 0;
  for (const { program, outcome } of runs) {
    if (!outcome.repaired || program.intended === undefined || program.cases.length === 0) continue;
    checked++;
    for (const d of await behaviourDifferences(program, outcome.source))
      differences.push(`${program.name}: ${d}\n--- repaired:\n${outcome.source}`);
  }
  console.log(
    `      ${set}: ${checked} repaired programs with run cases, ${differences.length} answering differently from the intended program`,
  );
  return differences;
}

describe('parser: repair shares on the tuned, held-out and mutation sets', function () {
  this.timeout(600_000);

  it('the held-out set is frozen: its content hash is the recorded one', () => {
    assert.equal(heldOutHash(), HELD_OUT_SHA256, 'test/corpus/held-out changed: see its README before touching it');
  });

  it('every program of each set is invalid as written, and every intended program is valid and answers its cases', async () => {
    for (const program of [...tunedSet(), ...heldOutSet()]) {
      assert.equal(validateAvap(program.source).valid, false, `${program.set} ${program.name} should fail`);
      if (program.intended === undefined) continue;
      const intended = validateAvap(program.intended);
      assert.ok(intended.valid, `${program.name}: intended program\n${renderTrace(intended.trace)}`);
      assert.ok(program.cases.length > 0, `${program.name}: an intended program comes with cases`);
      assert.deepEqual(await intendedMisses(program), [], program.name);
    }
  });

  it('the mutation generator is deterministic and covers every kind', () => {
    const [a, b] = [mutationSet(), mutationSet()];
    assert.deepEqual(
      a.map((m) => m.source),
      b.map((m) => m.source),
    );
    for (const kind of MUTATION_KINDS)
      assert.ok(
        a.some((m) => m.kind === kind),
        `no mutant of kind ${kind}`,
      );
    for (const m of a) assert.equal(validateAvap(m.source).valid, false, m.name);
  });

  it('tuned set: prints the share its fixes repair', async () => {
    const runs = await tuned();
    console.log(`      tuned (test/corpus/failures): repaired by fixes alone ${count(runs)}`);
    for (const r of runs.filter((x) => !x.outcome.repaired))
      console.log(
        `        not repaired: ${r.program.name} (${r.outcome.stop}): ${renderTrace(r.outcome.result?.trace ?? [], { includeWarnings: false }).split('\n')[0]}`,
      );
  });

  it(`held-out set: at least ${HELD_OUT_GOAL * 100} % repaired by the proven fixes alone (the tuned share beside it)`, async () => {
    const [held, tune] = [await heldOut(), await tuned()];
    console.log(
      `      held-out (test/corpus/held-out): repaired by fixes alone ${count(held)} (goal ≥ ${HELD_OUT_GOAL * 100} %); tuned ${count(tune)}`,
    );
    console.log(
      `        not repaired: ${held
        .filter((r) => !r.outcome.repaired)
        .map((r) => r.program.name)
        .join(', ')}`,
    );
    for (const { program, outcome } of held)
      if (outcome.repaired) assert.equal(validateAvap(outcome.source).valid, true, program.name);
    assert.ok(share(held) >= HELD_OUT_GOAL, `only ${percent(share(held))} of the held-out set repaired`);
  });

  it('mutations: prints the share repaired, per kind', async () => {
    const runs = await mutants();
    console.log(
      `      mutations (seed ${MUTATION_SEED}, ≤ ${MUTANTS_PER_KIND} per kind, of the valid corpus and the pool): repaired ${count(runs)}`,
    );
    for (const kind of MUTATION_KINDS) {
      const mine = runs.filter((r) => r.program.kind === kind);
      console.log(`        ${kind.padEnd(16)} ${count(mine)}`);
    }
  });

  it('a repaired program answers each of its run cases as its intended program does (tuned, held-out, mutations)', async () => {
    const differences = [
      ...(await behaviourChanges(await tuned(), 'tuned')),
      ...(await behaviourChanges(await heldOut(), 'held-out')),
      ...(await behaviourChanges(await mutants(), 'mutations')),
    ];
    assert.deepEqual(differences, [], differences.join('\n'));
  });
});

/**
 * The knowledge base's examples RUN: every
 * example that states an outcome is executed by the project's runtime
 * (src/runtime, which follows the specification) and its outcome checked —
 *
 * - documents: each `Outcome…:` line (status and the whole result, request
 *   built from its query string). An outcome marked `(specification)` must
 *   differ from the reference implementation somewhere, so its run names a
 *   portability note (a command AVAP Lite does not run, or a listed
 *   divergence); a plain `Outcome:` is also what AVAP Lite answered, as
 *   recorded in docs/facts/reference/outcomes/ (reference-outcomes.test.ts);
 * - the example pool: every example carries cases (request, fixtures, seed SQL,
 *   clock) with the status and result its description states, or says why
 *   it has none (what the runtime refuses, or a random answer);
 * - the golden set: every code question carries the cases the evaluation
 *   runs generated answers against, and the reference code passes them.
 *
 * Runs happen in the sandbox's ports: recorded HTTP only, an embedded
 * PostgreSQL made fresh for every run, a fixed clock.
 *
 * Each example declares the divergences between the specification and AVAP
 * Lite its runs depend on, exactly (divergences.ts): what the runs report as
 * portability notes is what the example declares.
 *
 * Where a case fails because of a runtime bug, the bug is listed in
 * KNOWN_RUNTIME_BUGS with the file, the behaviour and the source that says
 * otherwise: the case must fail exactly that way (and pass once the bug's
 * workaround is applied), so the entry goes the day the runtime is fixed.
 */
import assert from 'node:assert/strict';
import { loadDocs, loadExamplePool, loadGoldenSet, type RunCaseData } from '../../../src/knowledge';
import { PORTABILITY_RULES, type RunResult } from '../../../src/runtime';
import { repoKnowledgeDir, unwrap } from './helpers';
import {
  commandsMissingInReference,
  declarationMismatch,
  MISSING_COMMAND,
  reportedDivergences,
  reportsMissingCommand,
} from './divergences';
import { outcomes, queryOf } from './outcomes';
import { CaseRunner, describeRun } from './runCases';

interface KnownBug {
  /** Where the bug is, what it does, and the source it contradicts (as reported to the runtime's owner). */
  report: string;
  /** The run shows the bug. */
  symptom(run: RunResult): boolean;
  /** The same program with the bug avoided (the case must pass then); undefined when no rewrite avoids it. */
  workaround?(code: string): string;
}

const KNOWN_RUNTIME_BUGS: Readonly<Record<string, KnownBug>> = {
  // None today: ormCheckTable's 42P08 and getDateTime's empty-text format were fixed in the runtime.
};

/** A key of KNOWN_RUNTIME_BUGS. */
type BugId = string;

/** The examples whose cases fail because of a known runtime bug, by where they are. */
const AFFECTED: Readonly<Record<string, BugId>> = {};

/** What the runtime refuses, by the command a `casesOmitted` reason names. */
const REFUSED = ['registerEndpoint', 'avapConnector', 'randomString'];

describe('knowledge: the examples run and give the outcome they state', function () {
  // The first database run builds the embedded PostgreSQL (about a second, more on a busy machine).
  this.timeout(120_000);
  const dir = repoKnowledgeDir();
  const docs = unwrap(loadDocs(dir));
  const pool = unwrap(loadExamplePool(dir)).examples;
  const golden = unwrap(loadGoldenSet(dir)).entries;
  const runner = new CaseRunner();
  after(() => runner.close());

  /** Runs every case of a program; known runtime bugs must show as reported. Answers the runs. */
  async function checkCases(where: string, code: string, cases: readonly RunCaseData[]): Promise<RunResult[]> {
    const bugId = AFFECTED[where];
    const bug: KnownBug | undefined = bugId ? KNOWN_RUNTIME_BUGS[bugId] : undefined;
    let failed = 0;
    const runs: RunResult[] = [];
    for (const data of cases) {
      const label = `${where} / ${data.name}`;
      const { run, failures } = await runner.run(code, data, label);
      runs.push(run);
      if (!bug) {
        assert.deepEqual(failures, [], describeRun(label, failures, run));
        continue;
      }
      if (failures.length === 0) continue;
      failed++;
      assert.ok(
        bug.symptom(run),
        `${label} fails otherwise than the known bug ${bugId}: ${describeRun(label, failures, run)}`,
      );
      if (bug.workaround) {
        const fixed = await runner.run(bug.workaround(code), data, label);
        assert.deepEqual(
          fixed.failures,
          [],
          `${label}, with the bug avoided: ${describeRun(label, fixed.failures, fixed.run)}`,
        );
      }
    }
    if (bug) assert.ok(failed > 0, `${where} passes now: the runtime bug ${bugId} is fixed, remove it from AFFECTED`);
    return runs;
  }

  /** The example declares exactly the divergences its runs depend on. */
  function checkDeclared(where: string, declared: readonly string[] | undefined, runs: readonly RunResult[]): void {
    const mismatch = declarationMismatch(declared, reportedDivergences(runs));
    assert.equal(mismatch, undefined, `${where}: ${mismatch ?? ''}`);
  }

  it('declares divergences by their portability rule ids, sorted, never the missing command', () => {
    const known = new Set<string>(PORTABILITY_RULES.map((r) => r.id));
    const declarations: [string, readonly string[]][] = [
      ...pool.map((e): [string, readonly string[]] => [`pool ${e.id}`, e.divergences ?? []]),
      ...golden.map((e): [string, readonly string[]] => [`golden ${e.id}`, e.divergences ?? []]),
      ...docs.flatMap((d) => outcomes(d).found.map((o): [string, readonly string[]] => [o.where, o.divergences])),
    ];
    for (const [where, ids] of declarations) {
      assert.deepEqual(
        ids.filter((id) => !known.has(id) || id === MISSING_COMMAND),
        [],
        `${where}: not a divergence to declare`,
      );
      assert.deepEqual([...ids], [...new Set(ids)].sort(), `${where}: divergences are sorted and unique`);
    }
    // Only what runs can be checked: an example without cases declares nothing.
    assert.deepEqual(
      [...pool, ...golden].filter((e) => !e.cases && e.divergences).map((e) => e.id),
      [],
    );
  });

  describe('documents: every stated outcome', () => {
    const all = docs.flatMap((d) => outcomes(d).found);

    it('finds the outcomes (the format is checked in sources.test.ts)', () => {
      assert.ok(all.length >= 50, `${all.length} outcomes`);
    });

    for (const o of all) {
      it(`${o.where} (${o.marker})`, async () => {
        const run = await runner.execute(o.code, { method: 'GET', query: queryOf(o.query), headers: {}, body: null });
        const got = `status ${run.status}, result ${JSON.stringify(run.result)}${run.error ? `, error ${run.error.message}` : ''}`;
        assert.equal(run.status, o.status, got);
        assert.deepEqual(run.result, o.result, got);
        if (o.marker === 'specification')
          assert.ok(
            run.portability.length > 0,
            'marked as the specification\'s outcome, but nothing in the run differs on the reference implementation: write "Outcome:"',
          );
        checkDeclared(o.where, o.divergences, [run]);
      });
    }
  });

  describe('the example pool: every example has cases, and they pass', () => {
    it('gives every example cases or the reason it has none', () => {
      const bare = pool.filter((e) => !e.cases && !e.casesOmitted).map((e) => e.id);
      assert.deepEqual(bare, []);
      const withCases = pool.filter((e) => e.cases).length;
      assert.ok(withCases >= 200, `only ${withCases} examples have cases`);
    });

    for (const e of pool) {
      if (!e.cases) continue;
      const cases = e.cases;
      it(`${e.id} (${cases.length} case${cases.length === 1 ? '' : 's'})`, async () => {
        const runs = await checkCases(`pool ${e.id}`, e.code, cases);
        checkDeclared(`pool ${e.id}`, e.divergences, runs);
        // The command AVAP Lite lacks is declared by the example's commands.
        const missing = commandsMissingInReference(e.commands);
        assert.equal(
          reportsMissingCommand(runs),
          missing.length > 0,
          `pool ${e.id}: its runs ${reportsMissingCommand(runs) ? 'call' : 'call no'} command AVAP Lite lacks, its commands name ${missing.join(', ') || 'none'}`,
        );
      });
    }

    it('an example without cases is one the runtime refuses, or one whose answer is random', async () => {
      for (const e of pool.filter((x) => x.casesOmitted)) {
        const reason = e.casesOmitted ?? '';
        const refused = REFUSED.find(
          (name) => reason.startsWith(name) || reason.includes(`refuses the two-argument ${name}`),
        );
        if (refused) {
          const run = await runner.execute(e.code, { method: 'GET', query: {}, headers: {}, body: null });
          assert.equal(run.error?.code, 'not-supported', `${e.id}: ${reason}`);
          assert.equal(run.error?.command, refused, `${e.id}: ${reason}`);
        } else {
          assert.match(reason, /random/, `${e.id}: ${reason}`);
          assert.match(e.code, /randomString\(/, `${e.id}: ${reason}`);
        }
      }
    });
  });

  describe('the golden set: code questions carry the cases the evaluation runs', () => {
    const code = golden.filter((e) => e.queryType === 'CODE_GENERATION');

    it('gives every code question cases or the reason it has none, and no other entry cases', () => {
      assert.deepEqual(
        code.filter((e) => !e.cases && !e.casesOmitted).map((e) => e.id),
        [],
      );
      assert.deepEqual(
        golden.filter((e) => e.queryType !== 'CODE_GENERATION' && (e.cases || e.casesOmitted)).map((e) => e.id),
        [],
      );
      assert.ok(code.filter((e) => e.cases).length >= 25, 'too few code questions with cases');
    });

    for (const e of code) {
      if (!e.cases) continue;
      const cases = e.cases;
      it(`${e.id}: the reference code passes its ${cases.length} case(s)`, async () => {
        const runs = await checkCases(`golden ${e.id}`, e.referenceCode ?? '', cases);
        checkDeclared(`golden ${e.id}`, e.divergences, runs);
      });
    }

    it('a question without cases is refused by the runtime, random, or states no response', async () => {
      for (const e of code.filter((x) => x.casesOmitted)) {
        const reason = e.casesOmitted ?? '';
        const refused = REFUSED.find((name) => reason.startsWith(name));
        if (refused) {
          const run = await runner.execute(e.referenceCode ?? '', {
            method: 'GET',
            query: {},
            headers: {},
            body: null,
          });
          assert.equal(run.error?.code, 'not-supported', `${e.id}: ${reason}`);
        } else assert.match(reason, /random|states no response/, `${e.id}: ${reason}`);
      }
    });
  });

  it('every known runtime bug is reported with its file and still affects an example', () => {
    for (const [id, bug] of Object.entries(KNOWN_RUNTIME_BUGS)) {
      assert.match(bug.report, /^src\/runtime\/[\w/]+\.ts \(\w+\): /, id);
      assert.ok(Object.values(AFFECTED).includes(id), `${id} affects no example: remove it`);
    }
  });
});

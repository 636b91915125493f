/**
 * The failure sets the repair share is measured on, and what a
 * repair must keep: each program is repaired by the parser's proven fixes
 * alone (repairWithFixes: every error fix of a round at once, re-validated, up
 * to three rounds, no model), and a repaired program that came with run cases
 * must answer each case exactly as its intended program does (status and
 * result, both run by src/runtime in the same sandbox).
 *
 *  - tuned:     test/corpus/failures (the fixes were written against it), intended programs and cases in
 *               test/corpus/failures-intended;
 *  - held-out:  test/corpus/held-out (programs/, intended/), never tuned on and frozen by hash;
 *  - mutations: seeded mutants of the valid corpus and of the knowledge pool's examples (their cases and
 *               answers are the intended ones), test/support/corpus/mutations.ts.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repairWithFixes, validateAvap, type RepairOutcome } from '../../../src/parser';
import { fail } from '../../../src/result';
import { execute, type RunResult } from '../../../src/runtime';
import { caseFromData, caseFailures, createClock, createRandom, createSandboxHttp } from '../../../src/runtime/host';
import { loadExamplePool, knowledgeDirectory } from '../../../src/knowledge';
import { mutations, type Mutant, type MutationKind, type MutationSeed } from './mutations';

const CORPUS = path.join(__dirname, '..', '..', 'corpus');

/** One failing program of a set: its intended program and run cases when it has them. */
export interface FailureProgram {
  set: 'tuned' | 'held-out' | 'mutations';
  name: string;
  source: string;
  /** The mutation kind, for mutants. */
  kind?: MutationKind;
  intended?: string;
  cases: unknown[];
}

interface IntendedMeta {
  task?: string;
  cases?: unknown[];
  noCases?: string;
}

function readIntended(dir: string, name: string): { intended?: string; cases: unknown[] } {
  const meta = path.join(dir, `${name}.json`);
  if (!existsSync(meta)) return { cases: [] };
  const data = JSON.parse(readFileSync(meta, 'utf8')) as IntendedMeta;
  const code = path.join(dir, `${name}.avap`);
  return existsSync(code) ? { intended: readFileSync(code, 'utf8'), cases: data.cases ?? [] } : { cases: [] };
}

function programsIn(set: 'tuned' | 'held-out', dir: string, intendedDir: string): FailureProgram[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.avap'))
    .sort()
    .map((file) => {
      const name = file.slice(0, -'.avap'.length);
      return { set, name, source: readFileSync(path.join(dir, file), 'utf8'), ...readIntended(intendedDir, name) };
    });
}

export const tunedSet = (): FailureProgram[] =>
  programsIn('tuned', path.join(CORPUS, 'failures'), path.join(CORPUS, 'failures-intended'));

const HELD_OUT = path.join(CORPUS, 'held-out');

export const heldOutSet = (): FailureProgram[] =>
  programsIn('held-out', path.join(HELD_OUT, 'programs'), path.join(HELD_OUT, 'intended'));

/** SHA-256 over every file of the held-out programs and intended programs: path, NUL, bytes, NUL, in path order. */
export function heldOutHash(): string {
  const hash = createHash('sha256');
  for (const sub of ['intended', 'programs']) {
    for (const file of readdirSync(path.join(HELD_OUT, sub)).sort()) {
      hash.update(`${sub}/${file}\0`);
      hash.update(readFileSync(path.join(HELD_OUT, sub, file)));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}

/** The seeds of the mutations: the valid corpus, and the pool examples with their cases (those without seed SQL). */
export function mutationSeeds(): MutationSeed[] {
  const seeds: MutationSeed[] = [];
  const valid = path.join(CORPUS, 'valid');
  for (const file of readdirSync(valid)
    .filter((f) => f.endsWith('.avap'))
    .sort())
    seeds.push({ id: `valid/${file}`, source: readFileSync(path.join(valid, file), 'utf8') });
  const dir = knowledgeDirectory();
  if (!dir.ok) throw new Error(dir.error.message);
  const pool = loadExamplePool(dir.value);
  if (!pool.ok) throw new Error(pool.error.message);
  for (const example of pool.value.examples) {
    const cases = (example.cases ?? []).filter((c) => c.sql === undefined);
    seeds.push({ id: `pool/${example.id}`, source: example.code, cases });
  }
  return seeds;
}

export const MUTATION_SEED = 30;
export const MUTANTS_PER_KIND = 40;

/** The mutants measured: invalid ones only (a slip the parser accepts is not a failure). */
export function mutationSet(): FailureProgram[] {
  return mutations(mutationSeeds(), { seed: MUTATION_SEED, perKind: MUTANTS_PER_KIND })
    .filter((m: Mutant) => !validateAvap(m.source).valid)
    .map((m) => ({
      set: 'mutations' as const,
      name: m.id,
      kind: m.kind,
      source: m.source,
      intended: m.seed.source,
      cases: [...(m.seed.cases ?? [])],
    }));
}

export interface Repaired {
  program: FailureProgram;
  outcome: RepairOutcome;
}

export async function repairAll(programs: readonly FailureProgram[]): Promise<Repaired[]> {
  const out: Repaired[] = [];
  for (const program of programs)
    out.push({ program, outcome: await repairWithFixes(program.source, (text) => validateAvap(text)) });
  return out;
}

const noDatabase = {
  query: () => Promise.resolve(fail('unavailable' as const, 'no database in the repair-share test')),
};

const FIXED_NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

/** Runs a program for one case in the sandbox the case describes (fixtures, clock, generator; no database). */
async function runCase(source: string, raw: unknown, where: string): Promise<RunResult> {
  const parsed = caseFromData(raw, where);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const c = parsed.value;
  return execute(
    source,
    c.request,
    {
      http: createSandboxHttp({ fixtures: c.fixtures ?? [], allow: [] }),
      db: noDatabase,
      // Fixed unless the case fixes them: both programs of a comparison see the same clock and numbers.
      clock: createClock(c.nowMs ?? FIXED_NOW),
      random: createRandom(c.seed ?? 30),
    },
    { maxSteps: 200_000 },
  );
}

/** Why the intended program does not answer a case as the case expects (empty when it does). */
export async function intendedMisses(program: FailureProgram): Promise<string[]> {
  const out: string[] = [];
  if (program.intended === undefined) return out;
  for (const [i, raw] of program.cases.entries()) {
    const parsed = caseFromData(raw, `${program.name} case ${i}`);
    if (!parsed.ok) {
      out.push(parsed.error.message);
      continue;
    }
    const run = await runCase(program.intended, raw, program.name);
    for (const miss of caseFailures(parsed.value.expect, run)) out.push(`${parsed.value.name}: ${miss}`);
  }
  return out;
}

const answer = (r: RunResult) => JSON.stringify({ status: r.status, result: r.result, error: r.error?.code ?? null });

/**
 * Where a repaired program answers differently from its intended program (empty when every case agrees):
 * status, result and the code of an uncaught error, compared whole.
 */
export async function behaviourDifferences(program: FailureProgram, repaired: string): Promise<string[]> {
  const out: string[] = [];
  if (program.intended === undefined) return out;
  for (const [i, raw] of program.cases.entries()) {
    const name = (raw as { name?: string }).name ?? `case ${i}`;
    const [meant, got] = [await runCase(program.intended, raw, name), await runCase(repaired, raw, name)];
    if (answer(meant) !== answer(got)) out.push(`${name}: intended ${answer(meant)}, repaired ${answer(got)}`);
  }
  return out;
}

export const share = (runs: readonly Repaired[]) =>
  runs.length === 0 ? 0 : runs.filter((r) => r.outcome.repaired).length / runs.length;

export const percent = (x: number) => `${(100 * x).toFixed(1)} %`;

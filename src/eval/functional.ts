/**
 * Functional correctness: an answer's code is run against
 * its golden question's cases in the runtime's sandbox — the worker pool of
 * src/runtime/host, a fresh database seeded with the case's SQL, recorded
 * HTTP only, the case's clock — and passes when every case passes. Code the
 * parser rejects, and an answer with no code, fail without running: a
 * question with cases asked for a program that does something.
 *
 * This is execution-based scoring as HumanEval and MBPP do it (pass@1 with
 * one sample per run): the share of answers whose cases all pass.
 */
import type { GoldenEntry } from '../knowledge';
import type { RunJob, RunResult } from '../runtime/host';
// The case module alone (a light entry): this module reaches the editor's report view, which must not carry the
// run pool and the embedded database.
import { caseFailures, caseFromData, caseSandbox } from '../runtime/host/cases';

/** Runs one program for one request in the sandbox (the run pool). */
export interface RuntimePort {
  run(job: RunJob): Promise<RunResult>;
}

interface CaseOutcome {
  name: string;
  passed: boolean;
  /** Why the run did not meet the case (empty when it passed). */
  failures: string[];
}

export interface FunctionalOutcome {
  /** Every case passed. */
  passed: boolean;
  /** Why no case ran: the answer had no code, or the parser rejected it. */
  skipped?: 'no-code' | 'invalid-code';
  cases: CaseOutcome[];
}

/** Whether the question is scored for functional correctness (it carries cases). */
function hasCases(entry: GoldenEntry): boolean {
  return (entry.cases?.length ?? 0) > 0;
}

/**
 * Runs the answer's code against the entry's cases; undefined when the entry has none. `valid` is the parser's
 * verdict (undefined when there is no code).
 */
export async function checkFunctional(
  runtime: RuntimePort,
  entry: GoldenEntry,
  answer: { code: string; valid: boolean | undefined },
  signal?: AbortSignal,
): Promise<FunctionalOutcome | undefined> {
  if (!hasCases(entry)) return undefined;
  if (answer.code.trim() === '' || answer.valid === undefined) return { passed: false, skipped: 'no-code', cases: [] };
  if (!answer.valid) return { passed: false, skipped: 'invalid-code', cases: [] };
  const cases: CaseOutcome[] = [];
  for (const [i, data] of (entry.cases ?? []).entries()) {
    const parsed = caseFromData(data, `${entry.id} cases[${i}]`);
    if (!parsed.ok) {
      cases.push({ name: data.name, passed: false, failures: [`the case cannot be run: ${parsed.error.message}`] });
      continue;
    }
    const test = parsed.value;
    // Cancelled, the pool answers at once and the runner drops the question.
    const run = await runtime.run({
      source: answer.code,
      request: test.request,
      sandbox: caseSandbox(test),
      ...(signal ? { signal } : {}),
    });
    const failures = caseFailures(test.expect, run);
    // What stopped the run, when the expectations did not already say so: the reader sees why without re-running.
    if (failures.length > 0 && run.error && !failures.some((f) => f.includes(run.error?.message ?? '')))
      failures.push(
        `the run stopped on line ${run.error.line} (${run.error.command}): ${run.error.message} [${run.error.code}]`,
      );
    cases.push({ name: test.name, passed: failures.length === 0, failures });
  }
  return { passed: cases.every((c) => c.passed), cases };
}

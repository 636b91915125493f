/**
 * Runs the knowledge base's programs in-process for the unit suite, in the
 * sandbox's own ports: recorded HTTP responses only (the case's fixtures), the
 * embedded PostgreSQL made fresh for every run (seeded with the case's SQL),
 * the clock and the generator the case fixes. The worker pool around them is
 * the evaluation's and has its own tests; here the interpreter runs on the
 * test's thread so the suite needs no build.
 */
import assert from 'node:assert/strict';
import type { RunCaseData } from '../../../src/knowledge';
import { execute, type RunRequest, type RunResult } from '../../../src/runtime';
import {
  caseFailures,
  caseFromData,
  createClock,
  createRandom,
  createSandboxHttp,
  DEFAULT_LIMITS,
  SandboxDatabase,
  type SandboxSpec,
} from '../../../src/runtime/host';

/** A fixed default time, so examples that read the clock answer the same on every run (2026-03-02 09:30 UTC). */
const DEFAULT_NOW = Date.UTC(2026, 2, 2, 9, 30, 0);

export interface CaseRun {
  run: RunResult;
  /** Why the run does not meet the case's expectations (empty when it does). */
  failures: string[];
}

/**
 * One embedded PostgreSQL for every runner of the test process (building one costs about a second, more on a busy
 * machine): runners made while the suite loads share it, and the last one closed closes it.
 */
let shared: { database: SandboxDatabase; users: number } | undefined;

export class CaseRunner {
  private readonly database: SandboxDatabase;
  private closed = false;

  constructor() {
    shared ??= { database: new SandboxDatabase(), users: 0 };
    shared.users++;
    this.database = shared.database;
  }

  /** Runs `code` for one request in a fresh sandbox. */
  async execute(
    code: string,
    request: RunRequest,
    sandbox: Pick<SandboxSpec, 'fixtures' | 'sql' | 'nowMs' | 'seed'> = {},
  ): Promise<RunResult> {
    // One instance for every run (a new one per seed costs up to a second): the seed runs inside the run's
    // transaction, which the reset rolls back, so each run still starts from its own fresh, seeded database.
    const db = this.database.forRun(undefined);
    try {
      if (sandbox.sql !== undefined) {
        const seeded = await db.port.query(sandbox.sql, [], new AbortController().signal);
        assert.ok(seeded.ok, `the seed SQL failed: ${seeded.ok ? '' : seeded.error.message}`);
      }
      return await execute(
        code,
        request,
        {
          http: createSandboxHttp({ fixtures: sandbox.fixtures ?? [], allow: [] }),
          db: db.port,
          clock: createClock(sandbox.nowMs ?? DEFAULT_NOW),
          random: createRandom(sandbox.seed ?? 1),
        },
        { maxSteps: DEFAULT_LIMITS.maxSteps },
      );
    } finally {
      await db.finish();
    }
  }

  /** Runs `code` for a case of the knowledge base and judges it. */
  async run(code: string, data: RunCaseData, where: string): Promise<CaseRun> {
    const parsed = caseFromData(data, where);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.error.message);
    const test = parsed.value;
    const run = await this.execute(code, test.request, test);
    return { run, failures: caseFailures(test.expect, run) };
  }

  async close(): Promise<void> {
    if (this.closed || !shared) return;
    this.closed = true;
    if (--shared.users > 0) return;
    const { database } = shared;
    shared = undefined;
    await database.close();
  }
}

/** One line per failed case, with what the run answered (for assertion messages). */
export function describeRun(where: string, failures: readonly string[], run: RunResult): string {
  const error = run.error ? ` error ${run.error.code} line ${run.error.line}: ${run.error.message}` : '';
  return `${where}: ${failures.join('; ')} — got status ${run.status}, result ${JSON.stringify(run.result)}${error}`;
}

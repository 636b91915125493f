/**
 * `test [PATH...]` — runs the test cases of AVAP programs (`NAME.avap.test.json` beside `NAME.avap`; see
 * src/cli/runtime/testFiles.ts for the format) in the sandboxed runtime, prints a line per case and ends with
 * `N passed, N failed`.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { DEFAULT_MAX_BYTES, guardInput, validateAvap } from '../../parser';
import { createRunPool, type SandboxSpec } from '../../runtime/host';
import type { RunResult } from '../../runtime/host';
import { EXIT, UsageError, type CliCommand, type CliIO } from '../command';
import {
  LIMIT_OPTIONS,
  LIMITS_USAGE,
  limitsFromFlags,
  SANDBOX_OPTIONS,
  SANDBOX_USAGE,
  sandboxFromFlags,
} from '../runtime/options';
import { caseFailures, findTestFiles, loadTestFile, TEST_SUFFIX, type TestFile } from '../runtime/testFiles';

const USAGE = `Usage: node dist/cli.js test [PATH...] [--fixtures F] [--sql F] [--allow-http HOST[:PORT]]... [--now ISO]
                              [--seed N] [--timeout S] [--max-steps N] [--max-memory MB]
  Runs the test cases of AVAP programs: NAME${TEST_SUFFIX} beside NAME.avap holds
  {"cases": [{"name", "request": {method?, query?, headers?, body?}, "fixtures"?, "sql"?, "now"?, "seed"?,
              "expect": {"status"?, "result"?, "error"?}}]}
  "result" is compared as a deep subset; "error" is true/false, an error code, or a subset of
  {line, command, message, code}; "fixtures" a list or a file, "sql" SQL text or a .sql file (paths relative
  to the test file). PATH is a directory (searched for *${TEST_SUFFIX}), a test file or a program
  (default: the current directory). The flags below are defaults a case's own fixtures/sql/now/seed replace.
${SANDBOX_USAGE}
${LIMITS_USAGE}
Prints one line per case and ends with "N passed, N failed".
Exit codes: 0 every case passed, 1 any failed (a test file that cannot be read or whose program the parser
            rejects counts as failed), 2 usage error or no test file found.`;

interface Outcome {
  label: string;
  failures: string[];
}

async function programSource(test: TestFile): Promise<{ source?: string; problem?: string }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(test.program);
  } catch (e) {
    return {
      problem: `cannot read the program ${test.program}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    };
  }
  const guarded = guardInput(bytes, DEFAULT_MAX_BYTES);
  if (!guarded.ok) return { problem: `${test.program}: ${guarded.error.message}` };
  const verdict = validateAvap(guarded.value, { filename: test.program });
  if (!verdict.valid) {
    const first = verdict.trace.find((e) => e.severity === 'error') ?? verdict.trace[0];
    return { problem: `the parser rejects ${test.program}${first ? ` (line ${first.line}: ${first.message})` : ''}` };
  }
  return { source: guarded.value };
}

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { ...SANDBOX_OPTIONS, ...LIMIT_OPTIONS },
    allowPositionals: true,
    strict: true,
  });
  const defaults = await sandboxFromFlags(values, io.env);
  const limits = limitsFromFlags(values, io.env);
  const found = await findTestFiles(positionals.length ? positionals : ['.']);
  if (!found.ok) throw new UsageError(found.error.message);
  if (found.value.length === 0) throw new UsageError(`no ${TEST_SUFFIX} file under ${positionals.join(', ') || '.'}`);
  const pool = createRunPool(limits);
  if (!pool.ok) {
    io.stderr(`avap test: ${pool.error.message}\n`);
    return EXIT.usage;
  }
  try {
    // Every case of every file goes to the pool at once; lines are printed in file and case order.
    const pending: Promise<Outcome[]>[] = found.value.map(async (file) => {
      const loaded = await loadTestFile(file);
      if (!loaded.ok) return [{ label: file, failures: [loaded.error.message] }];
      const test = loaded.value;
      const program = await programSource(test);
      return Promise.all(
        test.cases.map(async (one): Promise<Outcome> => {
          const label = `${file} › ${one.name}`;
          if (program.source === undefined) return { label, failures: [program.problem ?? 'no program'] };
          const sandbox: SandboxSpec = {
            ...defaults,
            ...(one.fixtures ? { fixtures: one.fixtures } : {}),
            ...(one.sql !== undefined ? { sql: one.sql } : {}),
            ...(one.nowMs !== undefined ? { nowMs: one.nowMs } : {}),
            ...(one.seed !== undefined ? { seed: one.seed } : {}),
          };
          const result: RunResult = await pool.value.run({
            source: program.source,
            request: one.request,
            sandbox,
            signal: io.signal,
          });
          return { label, failures: caseFailures(one.expect, result) };
        }),
      );
    });
    let passed = 0;
    let failed = 0;
    for (const outcomes of pending) {
      for (const outcome of await outcomes) {
        if (outcome.failures.length === 0) {
          passed++;
          io.stdout(`ok    ${outcome.label}\n`);
        } else {
          failed++;
          io.stdout(`FAIL  ${outcome.label}\n${outcome.failures.map((f) => `      ${f}\n`).join('')}`);
        }
      }
    }
    io.stdout(`${passed} passed, ${failed} failed\n`);
    return failed > 0 ? EXIT.invalid : EXIT.ok;
  } finally {
    await pool.value.close();
  }
}

export const testCommand: CliCommand = {
  name: 'test',
  summary: 'run the test cases (NAME.avap.test.json) of AVAP programs in the sandboxed runtime',
  usage: USAGE,
  run,
};

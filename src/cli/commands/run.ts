/**
 * `run FILE [request] [sandbox] [budgets] [--json]` — runs an AVAP program in the sandboxed runtime for one
 * request. The parser checks it first: code it rejects is not run (its trace is printed, exit 3).
 */
import { parseArgs } from 'node:util';
import {
  DEFAULT_MAX_BYTES,
  guardInput,
  PARSER_VERSION,
  renderEntry,
  validateAvap,
  type ValidationResult,
} from '../../parser';
import { validationToJson } from '../../protocol';
import { createRunPool } from '../../runtime/host';
import { EXIT, UsageError, type CliCommand, type CliIO } from '../command';
import {
  LIMIT_OPTIONS,
  LIMITS_USAGE,
  limitsFromFlags,
  REQUEST_OPTIONS,
  requestFromFlags,
  SANDBOX_OPTIONS,
  SANDBOX_USAGE,
  sandboxFromFlags,
} from '../runtime/options';
import { overLimitEntry, readFileLimited, type LimitedInput } from '../readInput';
import { runJson, runText } from '../runtime/render';

/** `run`'s exit codes (0 and 2 as everywhere). */
const RUN_EXIT = { completed: 0, runError: 1, usage: 2, rejected: 3 } as const;

const USAGE = `Usage: node dist/cli.js run FILE|- [--query k=v]... [--header k:v]... [--body JSON|@FILE] [--method M]
                              [--fixtures F] [--sql F] [--allow-http HOST[:PORT]]... [--now ISO] [--seed N]
                              [--timeout S] [--max-steps N] [--max-memory MB] [--json]
  Runs an AVAP program in the sandboxed runtime for one request and prints the HTTP status and the response
  body (what addResult built). The parser checks the program first; code it rejects is not run.
  --query k=v           a request parameter (repeatable; a repeated name makes a list)
  --header k:v          a request header (repeatable)
  --body JSON|@FILE     the request body, JSON text or a JSON file (makes the method POST)
  --method M            the request method (default GET, or POST with --body)
${SANDBOX_USAGE}
${LIMITS_USAGE}
  --json                one JSON object: {status, result, variables, logs, error, portability}
Exit codes: 0 the run completed (whatever its HTTP status), 1 an uncaught run-time error or a budget stop,
            2 usage error, 3 the parser rejects the program (its trace is printed, nothing runs).`;

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { ...REQUEST_OPTIONS, ...SANDBOX_OPTIONS, ...LIMIT_OPTIONS, json: { type: 'boolean', default: false } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 1)
    throw new UsageError(positionals.length ? 'give one program' : 'no program given (use - for standard input)');
  const file = positionals[0] as string;
  const request = await requestFromFlags(values);
  const sandbox = await sandboxFromFlags(values, io.env);
  const limits = limitsFromFlags(values, io.env);
  let input: LimitedInput;
  try {
    // Never read past the source limit (an endless stdin, /dev/zero).
    input =
      file === '-' ? await io.readStdin(DEFAULT_MAX_BYTES) : await readFileLimited(file, DEFAULT_MAX_BYTES, io.signal);
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const name = file === '-' ? '<stdin>' : file;
  const guarded = input.over
    ? { ok: false as const, error: overLimitEntry(input, DEFAULT_MAX_BYTES) }
    : guardInput(input.bytes, DEFAULT_MAX_BYTES);
  const verdict: ValidationResult = guarded.ok
    ? validateAvap(guarded.value, { filename: name })
    : { valid: false, trace: [guarded.error], truncated: false, parserVersion: PARSER_VERSION };
  if (!verdict.valid) {
    if (values.json) io.stdout(`${JSON.stringify(validationToJson(name, verdict))}\n`);
    else for (const entry of verdict.trace) io.stdout(`${name}: ${renderEntry(entry)}\n`);
    io.stderr(`avap run: the parser rejects ${name}; nothing was run\n`);
    return RUN_EXIT.rejected;
  }
  const source = guarded.ok ? guarded.value : '';
  const pool = createRunPool({ size: 1, ...limits });
  if (!pool.ok) {
    io.stderr(`avap run: ${pool.error.message}\n`);
    return EXIT.usage;
  }
  try {
    const result = await pool.value.run({ source, request, sandbox, signal: io.signal });
    if (values.json) io.stdout(`${JSON.stringify(runJson(result))}\n`);
    else {
      const text = runText(result);
      io.stdout(text.stdout);
      if (text.stderr) io.stderr(text.stderr);
    }
    return result.error ? RUN_EXIT.runError : RUN_EXIT.completed;
  } finally {
    await pool.value.close();
  }
}

export const runCommand: CliCommand = {
  name: 'run',
  summary: 'run an AVAP program in the sandboxed runtime for one request',
  usage: USAGE,
  run,
};

/**
 * `validate [--json] [--parser-url URL] [--timeout S] [--max-bytes N] FILE... | -`
 * Validates files with the parser library in-process, or through the parser
 * service when a URL is given (flag or AVAP_PARSER_URL). Output is identical
 * either way: size, binary and encoding checks run locally in both modes.
 * Input is read up to the byte limit and no further (./readInput.ts); a file
 * that gets no verdict is said so — on stderr, and with --json as an error
 * object of its own — and a service that gives no verdict is
 * PARSER_UNAVAILABLE (exit 4), never a silent success.
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
import { fail, ok, type Failure, type Result } from '../../result';
import { type ParserPort, ConfigError, parseParserTimeout } from '../../core';
import { openParserConnection, type ParserConnection } from '../../core/parser/connection';
import { validationToJson } from '../../protocol';
import { EXIT, UsageError, type CliCommand, type CliIO } from '../command';
import { EXIT_INTERRUPTED } from '../lifecycle';
import { overLimitEntry, readFileLimited, type LimitedInput } from '../readInput';

const USAGE = `Usage: node dist/cli.js validate [--json] [--parser-url URL] [--timeout S] [--max-bytes N] FILE... | -
  Validates AVAP files (- reads standard input).
  --parser-url URL  call the parser service (host:port, grpc://host:port, grpcs://host:port, a
                    comma-separated list of those or dns:///name:port, balanced round-robin);
                    default: $AVAP_PARSER_URL, else the parser library in-process
  --timeout S       seconds per service call, decimals allowed (default: $AVAP_PARSER_TIMEOUT, else 2);
                    seconds, like AVAP_PARSER_TIMEOUT (both were milliseconds before)
  --max-bytes N     refuse files larger than N bytes (default ${DEFAULT_MAX_BYTES}); no input, not even
                    standard input or a device, is read past it
  --json            one JSON object per file: {file, valid, trace, parserVersion, truncated}, or
                    {file, error: {code, message}} for a file that got no verdict (unreadable,
                    parser-unavailable, not-validated, interrupted)
Exit codes: 0 all valid, 1 any invalid, 2 usage error or unreadable file,
            4 PARSER_UNAVAILABLE (the service gave no verdict in time: unreachable, timed out, too busy,
            circuit open; the files after it are not validated), 130 interrupted (SIGINT/SIGTERM).`;

/** Why a file got no verdict (the `code` of its --json error object). */
type NoVerdict = 'unreadable' | 'parser-unavailable' | 'not-validated' | 'interrupted';

type Validator = (text: string, file: string) => Promise<Result<ValidationResult, Failure<'parser-unavailable'>>>;

function integerOption(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new UsageError(`${name} must be an integer ≥ ${min}, got '${raw}'`);
  return value;
}

/** --timeout, else AVAP_PARSER_TIMEOUT, else 2 s: seconds, returned in ms. */
function parserTimeout(flag: string | undefined, env: string | undefined): number {
  try {
    if (flag !== undefined && flag !== '') return parseParserTimeout('--timeout', flag);
    if (env !== undefined && env.trim() !== '') return parseParserTimeout('AVAP_PARSER_TIMEOUT', env);
    return 2000;
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(err.message);
    throw err;
  }
}

function serviceValidator(port: ParserPort, url: string, timeoutMs: number, signal: AbortSignal): Validator {
  return async (text, file) => {
    const outcome = await port.validate(text, file, signal);
    if (outcome.kind === 'validated') return ok(outcome.result);
    return fail(
      'parser-unavailable',
      `parser service at ${url} ${outcome.reason === 'timeout' ? `did not answer within ${timeoutMs} ms` : `failed (${outcome.reason}): ${outcome.detail}`}`,
    );
  };
}

/** Where the verdicts go: the command's streams, as lines of text or (--json) one JSON object per file. */
interface Output {
  io: CliIO;
  json: boolean;
}

function printResult(out: Output, file: string, result: ValidationResult): void {
  const { io, json } = out;
  if (json) {
    io.stdout(`${JSON.stringify(validationToJson(file, result))}\n`);
    return;
  }
  for (const entry of result.trace) io.stdout(`${file}: ${renderEntry(entry)}\n`);
  if (result.truncated) io.stdout(`${file}: (trace truncated: more findings were not listed)\n`);
  if (result.valid) io.stdout(`${file}: valid\n`);
}

/** A file without a verdict: one line on stderr, and with --json its own object on stdout. */
function printNoVerdict(out: Output, file: string, error: { code: NoVerdict; message: string }): void {
  const { io, json } = out;
  const { code, message } = error;
  io.stderr(`avap validate: ${message}\n`);
  if (json) io.stdout(`${JSON.stringify({ file, error: { code, message } })}\n`);
}

const shownName = (file: string) => (file === '-' ? '<stdin>' : file);

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      json: { type: 'boolean', default: false },
      'parser-url': { type: 'string' },
      timeout: { type: 'string' },
      'max-bytes': { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length === 0) throw new UsageError('no file given (use - for standard input)');
  if (positionals.filter((p) => p === '-').length > 1) throw new UsageError('standard input (-) can be read only once');
  const maxBytes = integerOption('--max-bytes', values['max-bytes'], DEFAULT_MAX_BYTES, 1);
  const url = values['parser-url'] ?? io.env.AVAP_PARSER_URL ?? '';
  const json = values.json ?? false;
  const out: Output = { io, json };

  let validate: Validator = (text, file) => Promise.resolve(ok(validateAvap(text, { maxBytes, filename: file })));
  let connection: ParserConnection | undefined;
  if (url) {
    const timeoutMs = parserTimeout(values.timeout, io.env.AVAP_PARSER_TIMEOUT);
    if (timeoutMs === 0) throw new UsageError('a parser timeout of 0 disables validation; give a positive --timeout');
    // The same connection as everywhere else (balancing, retry on another endpoint, admission); the breaker
    // never matters here, since the first unanswered file ends the run.
    const opened = await openParserConnection({ url, timeoutMs, breakerThreshold: 3, breakerCooldownMs: 30_000 });
    if (!opened.ok) throw new UsageError(opened.error.message);
    connection = opened.value;
    validate = serviceValidator(connection.port, url, timeoutMs, io.signal);
  }
  const interrupted = (file: string) => {
    const reason = io.signal.reason instanceof Error ? ` (${io.signal.reason.message})` : '';
    printNoVerdict(out, file, { code: 'interrupted', message: `interrupted${reason}; ${file} was not validated` });
    return EXIT_INTERRUPTED;
  };

  let exit: number = EXIT.ok;
  try {
    for (const [index, file] of positionals.entries()) {
      const name = shownName(file);
      if (io.signal.aborted) return interrupted(name);
      let input: LimitedInput;
      try {
        input = file === '-' ? await io.readStdin(maxBytes) : await readFileLimited(file, maxBytes, io.signal);
      } catch (err) {
        if (io.signal.aborted) return interrupted(name);
        const code = (err as NodeJS.ErrnoException).code;
        const why = code === 'EISDIR' ? 'EISDIR (a directory)' : (code ?? (err as Error).message);
        printNoVerdict(out, name, { code: 'unreadable', message: `cannot read ${file}: ${why}` });
        exit = EXIT.usage;
        continue;
      }
      const guarded = input.over
        ? { ok: false as const, error: overLimitEntry(input, maxBytes) }
        : guardInput(input.bytes, maxBytes);
      let result: ValidationResult;
      if (guarded.ok) {
        const verdict = await validate(guarded.value, file);
        if (io.signal.aborted) return interrupted(name);
        if (!verdict.ok) {
          printNoVerdict(out, name, {
            code: 'parser-unavailable',
            message: `PARSER_UNAVAILABLE — ${verdict.error.message}; ${name} was not validated`,
          });
          if (json) {
            for (const rest of positionals.slice(index + 1)) {
              const message = `not validated: the parser service gave no verdict for ${name}`;
              io.stdout(`${JSON.stringify({ file: shownName(rest), error: { code: 'not-validated', message } })}\n`);
            }
          }
          return EXIT.parserUnavailable;
        }
        result = verdict.value;
      } else {
        result = { valid: false, trace: [guarded.error], truncated: false, parserVersion: PARSER_VERSION };
      }
      printResult(out, name, result);
      if (!result.valid && exit === EXIT.ok) exit = EXIT.invalid;
    }
  } finally {
    await connection?.close();
  }
  return exit;
}

export const validateCommand: CliCommand = {
  name: 'validate',
  summary: 'validate AVAP files with the parser (in-process or over gRPC)',
  usage: USAGE,
  run,
};

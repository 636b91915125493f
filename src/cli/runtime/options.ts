/**
 * What `run`, `test` and `serve` share about the runtime: the request a run answers (`--query`, `--header`,
 * `--body`, `--method`), its sandbox (`--fixtures`, `--sql`, `--allow-http`, `--now`, `--seed`) and the pool's
 * budgets (`--timeout`, `--max-steps`, `--max-memory`), each with its environment variable where one exists.
 * Bad values are usage errors that name the flag.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  DEFAULT_LIMITS,
  parseAllowList,
  parseFixtures,
  parseNow,
  parseSeed,
  type HttpFixture,
  type RunPoolOptions,
  type SandboxSpec,
} from '../../runtime/host';
import type { RunRequest } from '../../runtime/host';
import { SETTINGS } from '../../surface';
import { defaultCacheDir } from '../cacheDir';

/** The variables the editor's `avap.run.*` settings mirror (declared in src/surface), read here by run, test and serve. */
const RUN_ENV = {
  allowHttp: SETTINGS.run.allowHttp.env.name,
  timeout: SETTINGS.run.timeoutSeconds.env.name,
  maxSteps: SETTINGS.run.maxSteps.env.name,
  maxMemory: SETTINGS.run.maxMemoryMb.env.name,
};
import { UsageError } from '../command';

export const REQUEST_OPTIONS = {
  method: { type: 'string' },
  query: { type: 'string', multiple: true },
  header: { type: 'string', multiple: true },
  body: { type: 'string' },
} as const;

export const SANDBOX_OPTIONS = {
  fixtures: { type: 'string' },
  sql: { type: 'string' },
  'allow-http': { type: 'string', multiple: true },
  now: { type: 'string' },
  seed: { type: 'string' },
} as const;

export const LIMIT_OPTIONS = {
  timeout: { type: 'string' },
  'max-steps': { type: 'string' },
  'max-memory': { type: 'string' },
} as const;

export const SANDBOX_USAGE = `  --fixtures F          recorded HTTP responses: a JSON list of {method, url, status, headers, body};
                        RequestGet/RequestPost to anything else fail (catchable) naming the URL
  --sql F               seed the run's database (an embedded PostgreSQL, fresh for every run) with this SQL
  --allow-http HOST[:PORT]  let runs really call this host (repeatable; default $AVAP_RUN_ALLOW_HTTP,
                        comma-separated); a recorded response still wins
  --now ISO             fix the clock (ISO 8601 date-time, or epoch milliseconds)
  --seed N              seed the random generator (0 … 4294967295)`;

export const LIMITS_USAGE = `  --timeout S           wall-time budget of a run, seconds (default $AVAP_RUN_TIMEOUT, else ${DEFAULT_LIMITS.timeoutMs / 1000})
  --max-steps N         steps a run may take (default $AVAP_RUN_MAX_STEPS, else ${DEFAULT_LIMITS.maxSteps})
  --max-memory MB       heap cap of a run's worker, MiB (default $AVAP_RUN_MAX_MEMORY, else ${DEFAULT_LIMITS.memoryMb})`;

export interface RequestFlags {
  method?: string;
  query?: string[];
  header?: string[];
  body?: string;
}

export interface SandboxFlags {
  fixtures?: string;
  sql?: string;
  'allow-http'?: string[];
  now?: string;
  seed?: string;
}

export interface LimitFlags {
  timeout?: string;
  'max-steps'?: string;
  'max-memory'?: string;
}

async function readText(flag: string, file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    throw new UsageError(`${flag}: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

function pairs(flag: string, values: readonly string[], separator: string): [string, string][] {
  return values.map((raw) => {
    const at = raw.indexOf(separator);
    if (at <= 0) throw new UsageError(`${flag} takes NAME${separator}VALUE, got '${raw}'`);
    return [raw.slice(0, at).trim(), raw.slice(at + 1).trim()];
  });
}

/** The request of `run`: GET unless a body is given (then POST) or --method says otherwise. */
export async function requestFromFlags(flags: RequestFlags): Promise<RunRequest> {
  // Maps, then objects that define each name: `--query toString=1` is a parameter like any (not Object's toString).
  const queryByName = new Map<string, string | string[]>();
  for (const [name, value] of pairs('--query', flags.query ?? [], '=')) {
    const seen = queryByName.get(name);
    queryByName.set(name, seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value]);
  }
  const query = Object.fromEntries(queryByName);
  const headers: Record<string, string> = Object.fromEntries(
    pairs('--header', flags.header ?? [], ':').map(([name, value]) => [name.toLowerCase(), value]),
  );
  let body: unknown = undefined;
  if (flags.body !== undefined) {
    const text = flags.body.startsWith('@') ? await readText('--body', flags.body.slice(1)) : flags.body;
    try {
      body = JSON.parse(text);
    } catch (e) {
      throw new UsageError(`--body is not JSON (${(e as Error).message}); give JSON text or @FILE`);
    }
  }
  const method = (flags.method ?? (body === undefined ? 'GET' : 'POST')).toUpperCase();
  if (!/^[A-Z]+$/.test(method)) throw new UsageError(`--method must be an HTTP method, got '${flags.method}'`);
  return { method, query, headers, body: body ?? null };
}

async function fixturesFromFile(flag: string, file: string): Promise<HttpFixture[]> {
  const parsed = parseFixtures(await readText(flag, file));
  if (!parsed.ok) throw new UsageError(`${flag} ${file}: ${parsed.error.message}`);
  return parsed.value;
}

/** The sandbox of `run` and the defaults of `test` (a test case's own fixtures and SQL take their place). */
export async function sandboxFromFlags(flags: SandboxFlags, env: NodeJS.ProcessEnv): Promise<SandboxSpec> {
  const allowValues =
    flags['allow-http'] ??
    (env[RUN_ENV.allowHttp] ?? '')
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
  const allow = parseAllowList(allowValues);
  if (!allow.ok)
    throw new UsageError(`${flags['allow-http'] ? '--allow-http' : RUN_ENV.allowHttp}: ${allow.error.message}`);
  const spec: SandboxSpec = { allowHttp: allow.value };
  if (flags.fixtures !== undefined) spec.fixtures = await fixturesFromFile('--fixtures', flags.fixtures);
  if (flags.sql !== undefined) spec.sql = await readText('--sql', flags.sql);
  if (flags.now !== undefined) {
    const now = parseNow(flags.now);
    if (now === undefined)
      throw new UsageError(`--now must be an ISO 8601 date-time or epoch milliseconds, got '${flags.now}'`);
    spec.nowMs = now;
  }
  if (flags.seed !== undefined) {
    const seed = parseSeed(flags.seed);
    if (seed === undefined) throw new UsageError(`--seed must be an integer from 0 to 4294967295, got '${flags.seed}'`);
    spec.seed = seed;
  }
  return spec;
}

function positive(flag: string, envName: string, raw: string | undefined, integer: boolean): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value)))
    throw new UsageError(`${flag} (or ${envName}) must be a positive ${integer ? 'integer' : 'number'}, got '${raw}'`);
  return value;
}

/**
 * The pool's budgets from flags, else the environment, else the defaults; and where it keeps the empty database
 * cluster between invocations ($AVAP_CACHE_DIR, else the user's cache directory), so initdb runs once.
 */
export function limitsFromFlags(
  flags: LimitFlags,
  env: NodeJS.ProcessEnv,
): Pick<RunPoolOptions, 'timeoutMs' | 'maxSteps' | 'memoryMb' | 'cacheDir'> {
  const seconds = positive('--timeout', RUN_ENV.timeout, flags.timeout ?? env[RUN_ENV.timeout], false);
  const steps = positive('--max-steps', RUN_ENV.maxSteps, flags['max-steps'] ?? env[RUN_ENV.maxSteps], true);
  const memory = positive('--max-memory', RUN_ENV.maxMemory, flags['max-memory'] ?? env[RUN_ENV.maxMemory], true);
  return {
    cacheDir: env.AVAP_CACHE_DIR?.trim() || defaultCacheDir(env),
    ...(seconds !== undefined ? { timeoutMs: Math.max(1, Math.round(seconds * 1000)) } : {}),
    ...(steps !== undefined ? { maxSteps: steps } : {}),
    ...(memory !== undefined ? { memoryMb: Math.max(16, memory) } : {}),
  };
}

/** A path in a test file, relative to that file. */
export function besides(file: string, relative: string): string {
  return path.resolve(path.dirname(file), relative);
}

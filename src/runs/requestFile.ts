/**
 * The request a program is run with in the editor: `NAME.avap.request.json` beside `NAME.avap`, versioned with
 * it. It is a test case without a name and expectations, so a run and a case read the same way and a run becomes
 * a case by adding `expect` (./caseFromRun.ts):
 *
 *   {"request": {"method"?, "query"?, "headers"?, "body"?}, "fixtures"?, "sql"?, "now"?, "seed"?}
 *
 * `fixtures` is a list of recorded HTTP responses or the name of a file holding one; `sql` seeds the run's
 * database (SQL text or a `.sql` file); `now` fixes the clock, `seed` the generator. No file: a GET without
 * parameters. Pure; files named inside are read through the caller's `read`.
 */
import { fail, ok, type Failure, type Result } from '../result';
import { caseSandbox, type RunRequest, type SandboxSpec } from '../runtime/host';
import { parseSyntax } from '../syntax';
import { loadCase, type ReadBeside } from './cases';

export interface RunSetup {
  request: RunRequest;
  /** The sandbox of the file (fixtures, seed SQL, clock, generator); the editor adds the allow-list. */
  sandbox: SandboxSpec;
}

export type BadRequestFile = Failure<'bad-request-file'>;

/** A GET without parameters: what a program runs with when it has no request file. */
export function defaultSetup(): RunSetup {
  return { request: { method: 'GET', query: {}, headers: {}, body: null }, sandbox: {} };
}

/**
 * The keys a request file may hold (the case's keys without `name` and `expect`).
 * @internal
 */
export const REQUEST_FILE_KEYS = ['request', 'fixtures', 'sql', 'now', 'seed'] as const;

/** Reads a request file's text; the error names the field. */
export async function loadRunSetup(text: string, read: ReadBeside): Promise<Result<RunSetup, BadRequestFile>> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return fail('bad-request-file', `not JSON: ${(e as Error).message}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return fail('bad-request-file', 'expected {"request": {method?, query?, headers?, body?}, "fixtures"?, "sql"?}');
  const unknown = Object.keys(data).filter((k) => !(REQUEST_FILE_KEYS as readonly string[]).includes(k));
  if (unknown.length > 0)
    return fail(
      'bad-request-file',
      `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => JSON.stringify(k)).join(', ')} (a request file holds ${REQUEST_FILE_KEYS.join(', ')})`,
    );
  const loaded = await loadCase({ ...data, name: 'request', expect: {} }, 'the request file', read);
  if (!loaded.ok) return fail('bad-request-file', loaded.error.message);
  return ok({ request: loaded.value.request, sandbox: caseSandbox(loaded.value) });
}

/**
 * The names of the request parameters a program reads (`addParam(name, …)`), in order, once each.
 * @internal
 */
export function requestParameters(source: string): string[] {
  const names: string[] = [];
  for (const statement of parseSyntax(source).statements) {
    if (statement.kind !== 'call' || statement.name.text !== 'addParam') continue;
    const first = statement.args[0]?.text.trim() ?? '';
    const name = /^(["'])(.*)\1$/.exec(first)?.[2] ?? first;
    if (/^[\w.-]+$/.test(name) && !names.includes(name)) names.push(name);
  }
  return names;
}

/** The text of a new request file for a program: a GET with each parameter it reads, to fill in. */
export function requestTemplate(source: string): string {
  const query = Object.fromEntries(requestParameters(source).map((name) => [name, '']));
  const file = { request: { method: 'GET', query, headers: {}, body: null }, fixtures: [], sql: '' };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** One line for people: `GET ?age=30&x=1` (with `+ body`, `+ 2 fixtures`, `+ SQL` when there are). */
export function describeRequest(setup: RunSetup): string {
  const query = Object.entries(setup.request.query).flatMap(([k, v]) =>
    (Array.isArray(v) ? v : [v]).map((one) => `${encodeURIComponent(k)}=${encodeURIComponent(one)}`),
  );
  const parts = [`${setup.request.method}${query.length ? ` ?${query.join('&')}` : ''}`];
  if (setup.request.body !== null && setup.request.body !== undefined) parts.push('body');
  const fixtures = setup.sandbox.fixtures?.length ?? 0;
  if (fixtures) parts.push(`${fixtures} fixture${fixtures > 1 ? 's' : ''}`);
  if (setup.sandbox.sql !== undefined) parts.push('SQL seed');
  return parts.join(' + ');
}

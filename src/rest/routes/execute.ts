/**
 * POST /v1/execute: AVAP Lite's execute call, answered in its shape so its clients can use this server.
 * The body is `{script, variables}`, the request parameters come from the query string. A run that completes
 * answers `{success: true, result, variables, logs}` with the run's HTTP status (`_status`, default 200);
 * code the parser rejects, a bad body and an uncaught run-time error (budget stops included) answer
 * `{success: false, error}` with 400. The run happens in the sandboxed runtime's pool with the server's
 * sandbox (fixtures, seed SQL, allowed hosts) and is cancelled when the client goes away.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { DEFAULT_MAX_BYTES, guardInput, validateAvap } from '../../parser';
import { clientSignal, type RestContext } from '../context';
import { ExecuteBodySchema } from '../schemas';

/**
 * The parser's verdict on scripts seen lately: clients send the same endpoint code again and again (AVAP Lite
 * caches its parse the same way), and a verdict depends on the text alone.
 */
const VERDICTS = new Map<string, string | undefined>();
const VERDICTS_KEPT = 256;

/** Why the parser rejects the script, or undefined when it accepts it. */
function rejection(script: string): string | undefined {
  if (VERDICTS.has(script)) return VERDICTS.get(script);
  const verdict = validateAvap(script, { filename: 'script.avap' });
  const why = verdict.valid
    ? undefined
    : `the AVAP parser rejects the script (${verdict.trace
        .filter((e) => e.severity === 'error')
        .map((e) => `line ${e.line}: ${e.message}`)
        .join('; ')})`;
  if (VERDICTS.size >= VERDICTS_KEPT) VERDICTS.delete(VERDICTS.keys().next().value as string);
  VERDICTS.set(script, why);
  return why;
}

/** Request headers a script never sees: the caller's credentials. */
const HIDDEN_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

// Both built with Object.fromEntries, which defines each name: a parameter named `__proto__` reaches the script.
function queryOf(request: FastifyRequest): Record<string, string | string[]> {
  const out: [string, string | string[]][] = [];
  for (const [name, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
    if (Array.isArray(value)) out.push([name, value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)))]);
    else if (typeof value === 'string') out.push([name, value]);
  }
  return Object.fromEntries(out);
}

function headersOf(request: FastifyRequest): Record<string, string> {
  const out: [string, string][] = [];
  for (const [name, value] of Object.entries(request.headers)) {
    if (HIDDEN_HEADERS.has(name) || value === undefined) continue;
    out.push([name, Array.isArray(value) ? value.join(', ') : value]);
  }
  return Object.fromEntries(out);
}

export const executeRoutes: FastifyPluginAsync<{ ctx: RestContext }> = (app, { ctx }) => {
  const { deps, inflight } = ctx;

  app.post('/v1/execute', async (request, reply) => {
    const refuse = (error: string, status = 400) => reply.code(status).send({ success: false, error });
    const runtime = deps.runtime;
    if (!runtime) return refuse('this server runs no AVAP runtime', 503);
    const parsed = ExecuteBodySchema.safeParse(request.body ?? undefined);
    if (!parsed.success)
      return refuse(
        `the body must be {"script": "...", "variables": {...}}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'} ${i.message}`).join('; ')}`,
      );
    const { script, variables } = parsed.data;
    if (script.trim() === '') return refuse('Script cannot be empty');
    const guarded = guardInput(script, DEFAULT_MAX_BYTES);
    if (!guarded.ok) return refuse(`the script cannot be read: ${guarded.error.message}`);
    const rejected = rejection(guarded.value);
    if (rejected) return refuse(rejected);
    const { signal, done } = clientSignal(reply, inflight);
    try {
      const result = await runtime.pool.run({
        source: guarded.value,
        request: {
          method: 'POST',
          path: '/v1/execute',
          query: queryOf(request),
          headers: headersOf(request),
          body: request.body,
          ...(variables ? { variables } : {}),
        },
        sandbox: runtime.sandbox,
        signal,
      });
      if (result.error) return refuse(result.error.message);
      return reply
        .code(result.status)
        .send({ success: true, result: result.result, variables: result.variables, logs: result.logs });
    } finally {
      done();
    }
  });
  return Promise.resolve();
};

/**
 * POST /v1/execute over a real socket (the real `serve`): AVAP Lite's request and answer shapes — parameters from
 * the query string, `variables` as the starting namespace, `{success: true, result, variables, logs}` with the
 * run's status, `{success: false, error}` with 400 for a bad body, rejected code or an uncaught error — and the
 * same Host and token rules as the other routes; the route is in the OpenAPI document.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { REPO_ROOT } from '../../support/dist';
import { startServe, type ServeProcess } from './serveProcess';

const TOKEN = 'execute-token-0123456789';

/** A recorded answer of AVAP Lite's /api/v1/execute (docs/facts/reference). */
interface Fact {
  variables: Record<string, unknown>;
  query: string;
  http_status: number;
  response: {
    success: boolean;
    result?: unknown;
    variables?: unknown;
    logs?: { command: string; success: boolean }[];
    error?: string;
  };
}

function fact(slug: string): { script: string; fact: Fact } {
  const dir = path.join(REPO_ROOT, 'docs', 'facts', 'reference');
  return {
    script: readFileSync(path.join(dir, `${slug}.avap`), 'utf8'),
    fact: JSON.parse(readFileSync(path.join(dir, `${slug}.json`), 'utf8')) as Fact,
  };
}

function post(server: ServeProcess, body: unknown, options: { path?: string; token?: string; raw?: string } = {}) {
  return fetch(`${server.url}${options.path ?? '/v1/execute'}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.raw ?? JSON.stringify(body),
  });
}

/** A POST with a chosen Host header (fetch does not let a caller set it). */
function postWithHost(port: number, host: string, body: unknown): Promise<number> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/execute',
        agent: false,
        headers: { host, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

describe('REST POST /v1/execute (AVAP Lite shape)', function () {
  this.timeout(60_000);
  let open: ServeProcess;
  let guarded: ServeProcess;

  before(async () => {
    [open, guarded] = await Promise.all([
      startServe(['--port', '0', '--ollama-url', 'http://127.0.0.1:9', '--quiet']),
      startServe(['--port', '0', '--ollama-url', 'http://127.0.0.1:9', '--quiet', '--token', TOKEN]),
    ]);
  });
  after(async () => {
    await Promise.all([open?.stop(), guarded?.stop()]);
  });

  it('answers as AVAP Lite did (recorded facts): the same status, keys, result, variables and log entries', async () => {
    for (const slug of ['execute-answer-shape', 'execute-error-shape']) {
      const { script, fact: recorded } = fact(slug);
      const response = await post(
        open,
        { script, variables: recorded.variables },
        { path: `/v1/execute${recorded.query ? `?${recorded.query}` : ''}` },
      );
      assert.equal(response.status, recorded.http_status, slug);
      const body = (await response.json()) as Fact['response'];
      assert.deepEqual(Object.keys(body).sort(), Object.keys(recorded.response).sort(), slug);
      if (!recorded.response.success) {
        assert.deepEqual(body, recorded.response, slug);
        continue;
      }
      assert.deepEqual(body.result, recorded.response.result, slug);
      assert.deepEqual(body.variables, recorded.response.variables, slug);
      assert.deepEqual(
        (body.logs ?? []).map((l) => [l.command, l.success]),
        (recorded.response.logs ?? []).map((l) => [l.command, l.success]),
        slug,
      );
    }
  });

  it('runs the script with the query string as parameters and answers {success, result, variables, logs}', async () => {
    const script = 'addParam(postcode, pc)\naddVar(city, "BCN")\naddResult(pc)\naddResult(city)\n';
    const response = await post(open, { script, variables: {} }, { path: '/v1/execute?postcode=08001' });
    assert.equal(response.status, 200);
    const body = (await response.json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), ['logs', 'result', 'success', 'variables']);
    assert.equal(body.success, true);
    assert.deepEqual(body.result, { pc: 8001, city: 'BCN' });
    assert.deepEqual(body.variables, { pc: 8001, city: 'BCN' });
    assert.ok(Array.isArray(body.logs) && body.logs.length === 4);
  });

  it('passes query parameters named after Object.prototype members to the script like any other', async () => {
    const script = 'addParam("__proto__", p)\naddParam(toString, t)\naddResult(p)\naddResult(t)\n';
    const response = await post(open, { script }, { path: '/v1/execute?__proto__=7&toString=x' });
    assert.equal(response.status, 200);
    const body = (await response.json()) as Record<string, unknown>;
    assert.deepEqual(body.result, { p: 7, t: 'x' });
  });

  it('starts the namespace from "variables" and answers with the run status (_status)', async () => {
    const script = 'addResult(who)\n_status = 201\n';
    const response = await post(open, { script, variables: { who: 'ana' } });
    assert.equal(response.status, 201);
    const body = (await response.json()) as Record<string, unknown>;
    assert.equal(body.success, true);
    assert.deepEqual(body.result, { who: 'ana' });
  });

  it('an uncaught run-time error is 400 {success: false, error}', async () => {
    const response = await post(open, { script: 'addVar(a, 1)\nRequestGet("https://api.example.com/x", "", "", r)\n' });
    assert.equal(response.status, 400);
    const body = (await response.json()) as { success: boolean; error: string };
    assert.deepEqual(Object.keys(body).sort(), ['error', 'success']);
    assert.equal(body.success, false);
    assert.match(body.error, /https:\/\/api\.example\.com\/x/);
  });

  it('a bad body, an empty script, code the parser rejects and non-JSON are 400 {success: false, error}', async () => {
    const cases: [unknown, RegExp, string?][] = [
      [{ variables: {} }, /the body must be \{"script"/],
      [{ script: '   ' }, /^Script cannot be empty$/],
      [{ script: 'addVar(a, 1)\nconsole.log(a)\n' }, /the AVAP parser rejects the script \(line 2: /],
      [undefined, /the body is not JSON/, '{"script": '],
    ];
    for (const [body, message, raw] of cases) {
      const response = await post(open, body, raw ? { raw } : {});
      assert.equal(response.status, 400, JSON.stringify(body));
      const answer = (await response.json()) as { success: boolean; error: string };
      assert.equal(answer.success, false);
      assert.match(answer.error, message);
    }
  });

  it('follows the Host allow-list (421) and the bearer token (401) like every /v1 route', async () => {
    const script = { script: 'addVar(a, 1)\naddResult(a)\n' };
    assert.equal(await postWithHost(open.port, 'rebound.attacker.example', script), 421);
    assert.equal(await postWithHost(open.port, `localhost:${open.port}`, script), 200);
    assert.equal((await post(guarded, script)).status, 401);
    const allowed = await post(guarded, script, { token: TOKEN });
    assert.equal(allowed.status, 200);
    assert.deepEqual(((await allowed.json()) as { result: unknown }).result, { a: 1 });
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${open.url}/openapi.json`)).json()) as {
      paths: Record<string, { post?: { responses: Record<string, unknown> } }>;
      components: { schemas: Record<string, unknown> };
    };
    const route = doc.paths['/v1/execute']?.post;
    assert.ok(route);
    for (const status of ['200', '400', '401', '421', '503']) assert.ok(status in route.responses, status);
    assert.ok(doc.components.schemas.ExecuteBody && doc.components.schemas.ExecuteAnswer);
  });
});

/**
 * The REST server as a process (`node dist/cli.js serve`), over real HTTP:
 * health, OpenAPI, /v1/validate against `validate --json`, and the request
 * guards (bad bodies, oversize bodies, media types, unknown routes).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT, runCliProcess } from '../../support/dist';
import { startScriptedOllama, type ScriptedOllama } from '../../support/scriptedOllama';
import { startServe, type ServeProcess } from './serveProcess';

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('REST server: health, OpenAPI, validate and request guards (dist/cli.js serve)', function () {
  this.timeout(60_000);
  let server: ServeProcess;
  let small: ServeProcess;
  let ollama: ScriptedOllama;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'avap-rest-'));
    ollama = await startScriptedOllama({ models: ['qwen3:1.7b', 'qwen3:0.6b', 'qwen3-embedding:0.6b'] });
    [server, small] = await Promise.all([
      startServe(['--port', '0', '--ollama-url', ollama.url, '--quiet']),
      startServe(['--port', '0', '--ollama-url', ollama.url, '--max-body-bytes', '4096', '--quiet']),
    ]);
  });
  after(async () => {
    const codes = await Promise.all([server?.stop(), small?.stop()]);
    await ollama?.close();
    rmSync(dir, { recursive: true, force: true });
    assert.deepEqual(codes, [0, 0], 'SIGINT stops the server cleanly with exit code 0');
  });

  it('prints "listening on HOST:PORT" first', () => {
    assert.match(server.banner, /^listening on 127\.0\.0\.1:\d+$/);
    assert.notEqual(server.port, 0);
  });

  it('GET /health → status ok with the parser endpoint and circuit state', async () => {
    const response = await fetch(`${server.url}/health`);
    assert.equal(response.status, 200);
    const body = (await response.json()) as {
      status: string;
      parser: { endpoint: string; circuit: { state: string; consecutiveFailures: number } };
      judge: { enabled: boolean };
      llm: { host: string };
    };
    assert.equal(body.status, 'ok');
    assert.match(body.parser.endpoint, /^bundled 127\.0\.0\.1:\d+$/);
    assert.equal(body.parser.circuit.state, 'closed');
    assert.equal(body.parser.circuit.consecutiveFailures, 0);
    assert.equal(body.judge.enabled, false);
    assert.equal(body.llm.host, ollama.url);
  });

  it('GET /openapi.json documents every route, and every documented route exists', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, { required?: string[]; additionalProperties?: boolean }> };
    };
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(Object.keys(doc.paths).sort(), [
      '/health',
      '/openapi.json',
      '/v1/batch',
      '/v1/execute',
      '/v1/feedback',
      '/v1/generate',
      '/v1/models',
      '/v1/validate',
    ]);
    assert.deepEqual(doc.components.schemas.ValidateBody?.required, ['source', 'filename']);
    assert.equal(doc.components.schemas.ValidateBody?.additionalProperties, false);
    for (const [route, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods)) {
        const response = await fetch(`${server.url}${route}`, {
          method: method.toUpperCase(),
          ...(method === 'post' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}),
        });
        await response.arrayBuffer();
        assert.notEqual(response.status, 404, `${method} ${route} exists`);
      }
    }
  });

  describe('POST /v1/validate answers exactly what `validate --json` prints for one file', () => {
    const sources: { name: string; source: string }[] = [
      { name: 'corpus-http.avap', source: readFileSync(path.join(REPO_ROOT, 'test/corpus/valid/http.avap'), 'utf8') },
      { name: 'invented-command.avap', source: 'addParam(password, p)\ngetSHA256(p, h)\naddResult(h)\n' },
      { name: 'python.avap', source: 'import hashlib\ndef f(x):\n    return hashlib.sha256(x)\n' },
      { name: 'unbalanced.avap', source: 'if(a, 1, =)\n  addVar(b, 2)\n' },
      {
        name: 'fixes.avap',
        source:
          'readParam("user")\r\nhashed = getSHA256(user);\r\nr = httpGet("https://a.example")\r\nif(hashed, "x", =) {\r\n  addResult(r)\r\n}\r\n',
      },
      { name: 'empty.avap', source: '' },
      { name: 'unicode.avap', source: 'addVar(saludo, "¡hola, señor! 👋")\naddResult(saludo)\n' },
      { name: 'binary.avap', source: 'addVar(a, 1)\u0000\u0001\u0002\u0003\u0000\u0000' },
      { name: 'oversize.avap', source: `// ${'x'.repeat(1024 * 1024)}\n` },
    ];
    for (const { name, source } of sources) {
      it(name, async () => {
        const file = path.join(dir, name);
        writeFileSync(file, source);
        const cli = await runCliProcess(['validate', '--json', file]);
        assert.ok(cli.code === 0 || cli.code === 1, cli.stderr);
        const response = await post(`${server.url}/v1/validate`, { source, filename: file });
        assert.equal(response.status, 200);
        assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
        assert.equal(await response.text(), cli.stdout.trimEnd(), 'byte-identical JSON');
      });
    }
  });

  describe('bad bodies get a clear 400 {valid:false, error, suggestions}', () => {
    const cases: { name: string; body: string; error: string; suggestion?: string }[] = [
      { name: 'not JSON', body: '{"source": "x",', error: 'Invalid POST /v1/validate body: not JSON' },
      { name: 'empty JSON body', body: '', error: 'Invalid POST /v1/validate body: the JSON body is empty' },
      { name: 'an array', body: '[]', error: 'the input must be a JSON object, got array' },
      {
        name: 'missing filename',
        body: '{"source": "addVar(a, 1)"}',
        error: "missing required parameter 'filename' (string)",
      },
      {
        name: 'source as a number',
        body: '{"source": 5, "filename": "a.avap"}',
        error: "'source' must be a string, got integer",
      },
      {
        name: 'unknown field',
        body: '{"source": "", "filename": "a.avap", "fileName": "b"}',
        error: "unknown parameter 'fileName'",
        suggestion: "Did you mean 'filename' instead of 'fileName'?",
      },
      { name: 'empty filename', body: '{"source": "", "filename": ""}', error: "'filename' must not be empty" },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const response = await post(`${server.url}/v1/validate`, c.body);
        assert.equal(response.status, 400);
        const body = (await response.json()) as { valid: boolean; error: string; suggestions: string[] };
        assert.equal(body.valid, false);
        assert.ok(body.error.includes(c.error), body.error);
        assert.ok(Array.isArray(body.suggestions) && body.suggestions.length > 0);
        if (c.suggestion) assert.ok(body.suggestions.includes(c.suggestion), JSON.stringify(body.suggestions));
      });
    }

    it('generate: a blank query', async () => {
      const response = await post(`${server.url}/v1/generate`, { query: '   ' });
      assert.equal(response.status, 400);
      assert.match(((await response.json()) as { error: string }).error, /'query' is empty \(only whitespace\)/);
    });

    it('generate: a force_type outside the enum', async () => {
      const response = await post(`${server.url}/v1/generate`, { query: 'x', force_type: 'CODE' });
      assert.equal(response.status, 400);
      assert.match(
        ((await response.json()) as { error: string }).error,
        /'force_type' must be one of "CODE_GENERATION", "RETRIEVAL", "CONVERSATIONAL", "PLATFORM", got "CODE"/,
      );
    });

    it('batch: the failing item is named', async () => {
      const response = await post(`${server.url}/v1/batch`, {
        requests: [
          { kind: 'validate', source: '', filename: 'a.avap' },
          { kind: 'validate', source: 1, filename: 'b.avap' },
        ],
      });
      assert.equal(response.status, 400);
      assert.match(
        ((await response.json()) as { error: string }).error,
        /^Invalid POST \/v1\/batch body, requests\[1\]: 'source' must be a string/,
      );
    });

    it('batch: an unknown kind and too many items', async () => {
      const kind = await post(`${server.url}/v1/batch`, { requests: [{ kind: 'explain' }] });
      assert.equal(kind.status, 400);
      assert.match(
        ((await kind.json()) as { error: string }).error,
        /'requests\[0\]\.kind' must be one of "validate", "generate"/,
      );
      const many = await post(`${server.url}/v1/batch`, {
        requests: Array.from({ length: 33 }, () => ({ kind: 'validate', source: '', filename: 'a.avap' })),
      });
      assert.equal(many.status, 400);
      assert.match(((await many.json()) as { error: string }).error, /'requests' must have at most 32 items/);
    });
  });

  it('a body over the limit gets 413 and the server keeps serving', async () => {
    const response = await post(`${small.url}/v1/validate`, { source: 'x'.repeat(5000), filename: 'big.avap' });
    assert.equal(response.status, 413);
    assert.deepEqual(await response.json(), {
      error: 'body-too-large',
      message: 'the request body is larger than 4096 bytes',
    });
    const ok = await post(`${small.url}/v1/validate`, { source: 'addVar(a, 1)\n', filename: 'a.avap' });
    assert.equal(ok.status, 200);
    assert.equal(((await ok.json()) as { valid: boolean }).valid, true);
  });

  it('a non-JSON media type gets 415', async () => {
    const response = await fetch(`${server.url}/v1/validate`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'addVar(a, 1)',
    });
    assert.equal(response.status, 415);
    assert.match(
      ((await response.json()) as { message: string }).message,
      /send the body as application\/json \(got text\/plain\)/,
    );
  });

  it('a POST without a body gets 400', async () => {
    const response = await fetch(`${server.url}/v1/validate`, { method: 'POST' });
    assert.equal(response.status, 400);
    assert.match(((await response.json()) as { error: string }).error, /the request has no JSON body/);
  });

  it('an unknown route gets 404 pointing at the OpenAPI document', async () => {
    const response = await fetch(`${server.url}/v2/validate`);
    assert.equal(response.status, 404);
    assert.match(
      ((await response.json()) as { message: string }).message,
      /no route GET \/v2\/validate; the API is described at \/openapi\.json/,
    );
  });
});

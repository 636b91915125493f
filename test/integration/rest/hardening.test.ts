/**
 * REST hardening over real sockets, against the running `dist/cli.js serve`:
 * the Host allow-list (DNS rebinding), slow-client timeouts, error bodies
 * without paths or peer addresses, /health and /v1/feedback when the signal
 * store or the telemetry log cannot be written, and a torn telemetry tail.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promptTask, type PromptTask, parseTelemetry } from '../../../src/core';
import { unusedPort } from '../../support/ports';
import {
  startScriptedOllama,
  systemPrompt,
  type RecordedRequest,
  type ScriptedOllama,
} from '../../support/scriptedOllama';
import { ndjson, serveExpectingExit, startServe, type ServeProcess } from './serveProcess';

const MODELS = ['qwen3:1.7b', 'qwen3:0.6b', 'qwen3-embedding:0.6b'];
const VALID_CODE = 'addParam(password, p)\nencodeSHA256(p, h)\naddResult(h)';
const fenced = (code: string) => `Here is the program:\n\`\`\`avap\n${code}\n\`\`\`\n`;
const task = (name: PromptTask) => (r: RecordedRequest) => promptTask(systemPrompt(r)) === name;

interface Answer {
  status: number;
  body: string;
  json: () => Record<string, unknown>;
}

/** One HTTP request with a chosen Host header (fetch does not let a caller set it). */
function request(
  port: number,
  options: { method?: string; path?: string; host?: string; body?: unknown } = {},
): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path ?? '/health',
        agent: false,
        headers: {
          ...(options.host !== undefined ? { host: options.host } : {}),
          ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: text, json: () => JSON.parse(text) as Record<string, unknown> }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Opens a raw connection, writes `chunks` and never finishes; resolves with what came back once the server closes it. */
function heldOpen(port: number, chunks: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    for (const chunk of chunks) socket.write(chunk);
  });
}

/** Waits for a condition on the pipe or the disk (never for a fixed time). */
async function until(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400 && !(await condition()); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(await condition(), `timed out waiting for ${what}`);
}

const ATTEMPT_EVENT = {
  schema_version: 1,
  generation_id: 'before-crash',
  timestamp: '2026-01-01T00:00:00.000Z',
  attempt: 1,
  max_attempts: 2,
  query_type: 'CODE_GENERATION',
  verdict: 'valid',
  errors: [],
  converged: true,
  validation_status: '',
  final: true,
  model: 'm',
  temperature: 0,
  seed: 42,
  parser_version: 'p',
  latencies_ms: {},
  commands: [],
};

describe('REST server hardening (dist/cli.js serve, real sockets)', function () {
  this.timeout(90_000);
  let ollama: ScriptedOllama;
  let dir: string;
  /** Loopback, allow-list, short timeouts, a telemetry log with a torn tail. */
  let guarded: ServeProcess;
  /** Ollama and the parser unreachable; signal store and telemetry log unwritable. */
  let broken: ServeProcess;
  /** --quiet, telemetry on a full disk, signal store unwritable, a working model. */
  let full: ServeProcess;
  let ollamaPort: number;
  let parserPort: number;
  let signalsFile: string;
  let telemetryFile: string;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'avap-rest-hard-'));
    writeFileSync(path.join(dir, 'blocker'), 'a file where a folder should be');
    signalsFile = path.join(dir, 'signals.jsonl');
    telemetryFile = path.join(dir, 'telemetry.jsonl');
    writeFileSync(telemetryFile, `${JSON.stringify(ATTEMPT_EVENT)}\n${JSON.stringify(ATTEMPT_EVENT).slice(0, 60)}`);
    ollama = await startScriptedOllama({ models: MODELS });
    [ollamaPort, parserPort] = [await unusedPort(), await unusedPort()];
    [guarded, broken, full] = await Promise.all([
      startServe([
        '--port',
        '0',
        '--ollama-url',
        ollama.url,
        '--allowed-host',
        'dev.box',
        '--allowed-host',
        'other.box:1234',
        '--headers-timeout',
        '0.5',
        '--request-timeout',
        '1',
        '--keep-alive-timeout',
        '0.5',
        '--signals',
        signalsFile,
        '--telemetry',
        telemetryFile,
      ]),
      startServe(
        [
          '--port',
          '0',
          '--ollama-url',
          `http://127.0.0.1:${ollamaPort}`,
          '--parser-url',
          `127.0.0.1:${parserPort}`,
          '--signals',
          path.join(dir, 'blocker', 'signals.jsonl'),
          '--telemetry',
          path.join(dir, 'blocker', 'telemetry.jsonl'),
        ],
        { AVAP_API_ALLOWED_HOSTS: 'env.box, env2.box:99' },
      ),
      startServe([
        '--port',
        '0',
        '--quiet',
        '--ollama-url',
        ollama.url,
        '--telemetry',
        '/dev/full',
        '--signals',
        path.join(dir, 'blocker', 's.jsonl'),
      ]),
    ]);
  });
  after(async () => {
    const codes = await Promise.all([guarded?.stop(), broken?.stop(), full?.stop()]);
    await ollama?.close();
    rmSync(dir, { recursive: true, force: true });
    assert.deepEqual(codes, [0, 0, 0]);
  });
  beforeEach(() => ollama.reset());

  describe('Host allow-list on loopback (DNS rebinding)', () => {
    it('answers for localhost, 127.0.0.1 and [::1], with or without the port, and for --allowed-host names', async () => {
      const port = guarded.port;
      for (const host of [
        `localhost:${port}`,
        'localhost',
        `127.0.0.1:${port}`,
        '127.0.0.1',
        `[::1]:${port}`,
        '[::1]',
        `dev.box:${port}`,
        'DEV.BOX',
        'other.box:1234',
      ]) {
        const answer = await request(port, { host });
        assert.equal(answer.status, 200, host);
        assert.equal(answer.json().status, 'ok', host);
      }
    });

    it('anything else is 421 Misdirected Request on every route, logged with the host', async () => {
      const port = guarded.port;
      for (const host of [
        'rebound.attacker.example',
        `rebound.attacker.example:${port}`,
        `other.box:${port}`,
        'localhost.attacker.example',
        '127.0.0.1.nip.io',
      ]) {
        for (const route of ['/health', '/openapi.json', '/v1/models']) {
          const answer = await request(port, { host, path: route });
          assert.equal(answer.status, 421, `${host} ${route}`);
          assert.equal(answer.json().error, 'misdirected-request');
        }
      }
      await until('the refusal in the log', () =>
        guarded.stderr().includes('refused GET /health for Host "rebound.attacker.example"'),
      );
    });

    it('a page rebound to 127.0.0.1 cannot post feedback into the signal store', async () => {
      const answer = await request(guarded.port, {
        method: 'POST',
        path: '/v1/feedback',
        host: `evil.example:${guarded.port}`,
        body: { generation_id: 'x', thumbs: 'down' },
      });
      assert.equal(answer.status, 421);
      assert.match(
        String(answer.json().message),
        /does not answer for the host 'evil\.example:\d+'; it answers for localhost, 127\.0\.0\.1, \[::1\], dev\.box, other\.box:1234/,
      );
      assert.equal(
        existsSync(signalsFile) ? readFileSync(signalsFile, 'utf8').includes('"down"') : false,
        false,
        'nothing was recorded',
      );
    });

    it('AVAP_API_ALLOWED_HOSTS adds names (comma-separated) like --allowed-host', async () => {
      assert.equal((await request(broken.port, { host: `env.box:${broken.port}` })).status, 200);
      assert.equal((await request(broken.port, { host: 'env2.box:99' })).status, 200);
      assert.equal((await request(broken.port, { host: `env2.box:${broken.port}` })).status, 421);
      assert.equal((await request(broken.port, { host: 'dev.box' })).status, 421);
    });

    it('a malformed --allowed-host or AVAP_API_ALLOWED_HOSTS is a usage error (exit 2)', async () => {
      const flag = await serveExpectingExit(['--port', '0', '--allowed-host', 'http://dev.box/']);
      assert.equal(flag.code, 2);
      assert.match(flag.stderr, /--allowed-host: 'http:\/\/dev\.box\/' is not a host name, an IP address or NAME:PORT/);
      const env = await serveExpectingExit(['--port', '0'], { AVAP_API_ALLOWED_HOSTS: 'ok.box,bad host' });
      assert.equal(env.code, 2);
      assert.match(env.stderr, /AVAP_API_ALLOWED_HOSTS: 'bad host' is not a host name/);
    });
  });

  describe('slow clients cannot hold connections', () => {
    it('headers that never finish: 408 and the connection is closed', async () => {
      const received = await heldOpen(guarded.port, ['GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1\r\n']);
      assert.match(received, /^HTTP\/1\.1 408 /);
    });

    it('a body that never finishes: 408 and the connection is closed', async () => {
      const received = await heldOpen(guarded.port, [
        'POST /v1/validate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"source": "addVar(',
      ]);
      assert.match(received, /^HTTP\/1\.1 408 /);
    });

    it('an idle kept-alive connection is closed after its answer', async () => {
      const received = await heldOpen(guarded.port, [
        'GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n',
      ]);
      assert.match(received, /^HTTP\/1\.1 200 /);
      assert.match(received, /"status":"ok"/);
    });

    it('a streamed answer that outlives the request timeout is not cut', async () => {
      ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256' });
      ollama.on(
        { endpoint: 'chat', when: task('generate_code') },
        { content: fenced(VALID_CODE), headersDelayMs: 1500, chunkDelayMs: 100 },
      );
      const response = await fetch(`${guarded.url}/v1/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'hash the password', force_type: 'CODE_GENERATION' }),
      });
      assert.equal(response.status, 200);
      const messages = await ndjson(response);
      const final = messages[messages.length - 1] ?? {};
      assert.equal(final.is_final, true);
      assert.equal(final.avap_code, VALID_CODE);
      assert.equal(final.validation_status, '');
    });

    it('timeouts are checked: not a positive number of seconds, or headers longer than the request → exit 2', async () => {
      for (const [args, env, message] of [
        [['--headers-timeout', '0'], {}, /--headers-timeout must be a number of seconds above 0/],
        [
          ['--keep-alive-timeout', 'soon'],
          {},
          /--keep-alive-timeout must be a number of seconds above 0 and at most 3600, got 'soon'/,
        ],
        [
          ['--headers-timeout', '5', '--request-timeout', '1'],
          {},
          /the headers timeout \(5 s\) cannot be longer than the request timeout \(1 s\)/,
        ],
        [[], { AVAP_API_REQUEST_TIMEOUT: '-1' }, /AVAP_API_REQUEST_TIMEOUT must be a number of seconds above 0/],
      ] as const) {
        const run = await serveExpectingExit(['--port', '0', ...args], env);
        assert.equal(run.code, 2, run.stderr);
        assert.match(run.stderr, message);
        assert.equal(run.stdout, '');
      }
    });
  });

  describe('error bodies without paths or internal peer addresses', () => {
    it('an unreachable parser: 503 naming the reason; the address is only in the log', async () => {
      const response = await fetch(`${broken.url}/v1/validate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ source: 'addVar(a, 1)\n', filename: 'a.avap' }),
      });
      assert.equal(response.status, 503);
      const body = (await response.json()) as { error: string; message: string };
      assert.equal(body.error, 'parser-unavailable');
      assert.match(body.message, /^the AVAP parser could not validate the source \(/);
      assert.ok(!body.message.includes(String(parserPort)), body.message);
      await until('the parser address in the log', () =>
        /POST \/v1\/validate 503: .*127\.0\.0\.1:\d+/.test(broken.stderr()),
      );
    });

    it('an unreachable Ollama: 502 with what to do, without its address; the address is only in the log', async () => {
      for (const [route, init] of [
        ['/v1/models', {}],
        [
          '/v1/generate',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: 'hash', force_type: 'CODE_GENERATION' }),
          },
        ],
      ] as const) {
        const response = await fetch(`${broken.url}${route}`, init);
        assert.equal(response.status, 502, route);
        const body = (await response.json()) as { error: string; message: string };
        assert.equal(body.error, 'llm-unreachable', route);
        assert.match(
          body.message,
          /Ollama is not running at <address> \(ECONNREFUSED\) — start it with 'ollama serve' or set OLLAMA_HOST/,
          route,
        );
        assert.ok(!body.message.includes(String(ollamaPort)), body.message);
      }
      await until('the Ollama address in the log', () => broken.stderr().includes(`http://127.0.0.1:${ollamaPort}`));
    });
  });

  describe('signal store and telemetry log that cannot be written', () => {
    it('serve says so at start on stderr, with the file, even with --quiet', async () => {
      await until('the start-up warning', () =>
        broken.stderr().includes('[rest] degraded: the telemetry log is not writable'),
      );
      assert.match(
        broken.stderr(),
        /\[rest\] degraded: the training-signal store is not writable — cannot open for appending .*blocker\/signals\.jsonl: ENOTDIR; answers are not recorded and \/v1\/feedback answers 503/,
      );
      await until('the start-up warning under --quiet', () =>
        full.stderr().includes('[rest] degraded: the training-signal store is not writable'),
      );
      assert.doesNotMatch(
        full.stderr(),
        /telemetry log is not writable/,
        'a full disk shows at the first write, not at start',
      );
    });

    it('/health is "degraded" with the reasons, the parser fields kept, and no paths', async () => {
      const response = await fetch(`${broken.url}/health`);
      assert.equal(response.status, 200);
      const body = (await response.json()) as {
        status: string;
        reasons: string[];
        parser: { endpoint: string; circuit: { state: string } };
        storage: Record<string, unknown>;
      };
      assert.equal(body.status, 'degraded');
      assert.deepEqual(body.reasons, [
        'the training-signal store cannot be written (ENOTDIR): answers are not recorded and /v1/feedback answers 503',
        'the telemetry log cannot be written (ENOTDIR): attempt events are not recorded',
      ]);
      assert.equal(body.parser.endpoint, `127.0.0.1:${parserPort}`);
      assert.ok(body.parser.circuit.state);
      assert.deepEqual(body.storage, {
        signals: { enabled: true, writable: false, code: 'ENOTDIR' },
        telemetry: { enabled: true, writable: false, code: 'ENOTDIR' },
      });
      assert.ok(!JSON.stringify(body).includes(dir));
      // A server whose storage is fine says ok.
      const ok = (await (await fetch(`${guarded.url}/health`)).json()) as { status: string; reasons: string[] };
      assert.deepEqual([ok.status, ok.reasons], ['ok', []]);
    });

    it('/v1/feedback answers 503 with the reason, not 404, and names no file', async () => {
      const response = await fetch(`${broken.url}/v1/feedback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ generation_id: 'any-generation', thumbs: 'up' }),
      });
      assert.equal(response.status, 503);
      const body = (await response.json()) as { error: string; message: string; code: string };
      assert.equal(body.code, 'ENOTDIR');
      assert.match(body.error, /^signal-store-un(readable|writable)$/);
      assert.match(
        body.message,
        /^the feedback was not recorded: the training-signal store cannot be (read|written) \(ENOTDIR\); GET \/health shows the store's state$/,
      );
      assert.ok(!JSON.stringify(body).includes(dir));
    });

    it('a full disk under the telemetry log: the answer is still given, /health turns degraded, feedback on the unrecorded answer is 503', async () => {
      ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256' });
      ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
      const response = await fetch(`${full.url}/v1/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'hash', force_type: 'CODE_GENERATION' }),
      });
      assert.equal(response.status, 200);
      const messages = await ndjson(response);
      const final = messages[messages.length - 1] ?? {};
      assert.equal(final.avap_code, VALID_CODE);
      let health: { status: string; reasons: string[] } = { status: '', reasons: [] };
      await until('the telemetry failure in /health', async () => {
        health = (await (await fetch(`${full.url}/health`)).json()) as typeof health;
        return health.reasons.some((r) => r.includes('ENOSPC'));
      });
      assert.equal(health.status, 'degraded');
      assert.ok(
        health.reasons.includes('the telemetry log cannot be written (ENOSPC): attempt events are not recorded'),
        health.reasons.join('\n'),
      );
      const feedback = await fetch(`${full.url}/v1/feedback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ generation_id: final.generation_id, thumbs: 'up' }),
      });
      assert.equal(feedback.status, 503);
    });
  });

  it('a torn telemetry tail (a crash mid-write) is reported once and the next events start on a fresh line', async () => {
    for (let i = 0; i < 2; i++) {
      ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256' });
      ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
      const response = await fetch(`${guarded.url}/v1/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: `hash ${i}`, force_type: 'CODE_GENERATION' }),
      });
      assert.equal(response.status, 200);
      await response.arrayBuffer();
    }
    const events = () => parseTelemetry(readFileSync(telemetryFile, 'utf8'));
    await until('two new events in the telemetry log', () => events().events.length >= 3);
    const log = events();
    assert.equal(log.events[0]?.generation_id, 'before-crash');
    assert.ok(
      log.events.slice(1).every((e) => e.generation_id !== 'before-crash' && e.query_type === 'CODE_GENERATION'),
    );
    assert.deepEqual(log.skipped, [{ line: 2, reason: 'not a complete JSON line' }], 'only the cut line is lost');
    assert.ok(readFileSync(telemetryFile, 'utf8').endsWith('\n'));
    assert.equal(guarded.stderr().split('was cut short').length - 1, 1, 'reported once');
  });
});

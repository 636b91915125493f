/**
 * REST hardening, pure parts and in-process paths: the Host allow-list,
 * redaction of internal failures, /health when storage cannot be written,
 * and /v1/feedback answering honestly for an unwritable store.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ParserPort, PipelineResult } from '../../../src/core';
import type { AppendResult } from '../../../src/jsonl/appendLog';
import { formatHostRule, hostAllowed, LOOPBACK_HOST_RULES, parseHostRules } from '../../../src/rest/hostGuard';
import { redactInternals } from '../../../src/rest/redact';
import { createRestServer, type RestAssistant, type RestDeps } from '../../../src/rest/server';
import { SignalStore } from '../../../src/signals/store';
import { fakeLlm, llmError } from '../../support/fakes/llm';
import { fakeParser } from '../../support/fakes/parser';

describe('REST host allow-list', () => {
  const allowed = [
    'localhost',
    'localhost:8000',
    'LOCALHOST:1',
    '127.0.0.1',
    '127.0.0.1:80',
    '[::1]',
    '[::1]:8000',
    ' localhost:8000 ',
  ];
  const refused = [
    'evil.example',
    'evil.example:8000',
    'localhost.evil.example',
    '127.0.0.1.nip.io:8000',
    'attacker.localhost',
    '::1',
    '[::1',
    '[::1]x',
    'localhost:abc',
    'localhost:0',
    'localhost:99999',
    'localhost:',
    '',
    'user@localhost',
    'localhost:8000@evil',
    '127.0.0.2',
  ];
  for (const host of allowed)
    it(`answers Host '${host}' on loopback`, () => assert.equal(hostAllowed(host, LOOPBACK_HOST_RULES), true));
  for (const host of refused)
    it(`refuses Host '${host}' on loopback`, () => assert.equal(hostAllowed(host, LOOPBACK_HOST_RULES), false));

  it('refuses a request without a Host header', () => assert.equal(hostAllowed(undefined, LOOPBACK_HOST_RULES), false));

  it('--allowed-host NAME matches any port, NAME:PORT only that port; IPv6 literals with or without brackets', () => {
    const parsed = parseHostRules(['myhost:9000', 'Dev.Box', '[fe80::1]', '::2']);
    assert.ok(parsed.ok);
    if (!parsed.ok) return;
    assert.deepEqual(parsed.value.map(formatHostRule), ['myhost:9000', 'dev.box', '[fe80::1]', '[::2]']);
    const cases: [string, boolean][] = [
      ['myhost:9000', true],
      ['myhost:9001', false],
      ['myhost', false],
      ['dev.box', true],
      ['DEV.BOX:1', true],
      ['[fe80::1]:5', true],
      ['[::2]', true],
      ['localhost', false],
    ];
    for (const [host, expected] of cases) assert.equal(hostAllowed(host, parsed.value), expected, host);
  });

  it('refuses rules that are not a name, an address or NAME:PORT', () => {
    for (const bad of ['http://x', 'a/b', 'x:y', '', 'user@host', 'host:70000', 'a b']) {
      const parsed = parseHostRules(['ok.host', bad]);
      assert.ok(!parsed.ok && parsed.error.kind === 'bad-host' && parsed.error.value === bad, bad);
    }
  });
});

describe('REST redaction of internal failures', () => {
  const cases: [string, string][] = [
    [
      'Ollama is not running at http://10.1.2.3:11434 (ECONNREFUSED)',
      'Ollama is not running at <address> (ECONNREFUSED)',
    ],
    ['14 UNAVAILABLE: connect ECONNREFUSED 127.0.0.1:50051', '14 UNAVAILABLE: connect ECONNREFUSED <address>'],
    [
      'Last error: connect ECONNREFUSED 127.0.0.1:33047. Resolution note: x',
      'Last error: connect ECONNREFUSED <address>. Resolution note: x',
    ],
    ['at 10.0.0.5.', 'at <address>.'],
    ['connect ECONNREFUSED ::1:11434', 'connect ECONNREFUSED <address>'],
    [
      'ipv6:%5B::1%5D:50051, [fe80::1%eth0]:9, parser.internal:50051, localhost:8000',
      'ipv6:<address>, <address>, <address>, <address>',
    ],
    ['grpcs://parser.corp.example:443 refused', '<address> refused'],
    ['cannot append to /var/lib/avap/signals.jsonl: EACCES', 'cannot append to <path>: EACCES'],
    [
      "ENOENT: no such file or directory, open 'C:\\Users\\me\\x.jsonl'",
      "ENOENT: no such file or directory, open '<path>'",
    ],
    ['file:///home/me/kb/x.md', '<address>'],
    // Nothing internal: unchanged.
    [
      'circuit open until 12:00; model qwen3:1.7b is missing — run: ollama pull qwen3:1.7b',
      'circuit open until 12:00; model qwen3:1.7b is missing — run: ollama pull qwen3:1.7b',
    ],
    ['the request was cancelled', 'the request was cancelled'],
    ['at 2026-01-01T12:30:45.000Z', 'at 2026-01-01T12:30:45.000Z'],
  ];
  for (const [input, expected] of cases)
    it(`redacts ${JSON.stringify(input)}`, () => assert.equal(redactInternals(input), expected));
});

const RESULT: PipelineResult = {
  queryType: 'CODE_GENERATION',
  text: 'x',
  code: 'addVar(a, 1)',
  validationStatus: '',
  attempts: [],
  sources: [],
  relevanceRetry: false,
  generationId: 'g1',
};

/** The body of every error answer. */
interface ErrorBody {
  error: string;
  message: string;
  code?: string;
}
/** The fields of /health the tests read. */
interface HealthBody {
  status: string;
  reasons: string[];
  storage: Record<string, unknown>;
  parser: unknown;
}

function assistant(
  run: () => PipelineResult | Promise<PipelineResult> = () => RESULT,
  parser: ParserPort = fakeParser(),
): RestAssistant {
  return { parser, parserEndpoint: 'injected', retrievalName: 'embedded', run: () => Promise.resolve(run()) };
}

function app(
  deps: Partial<RestDeps> & { assistant: RestAssistant },
  options: { allowedHosts?: typeof LOOPBACK_HOST_RULES } = {},
) {
  const lines: string[] = [];
  const server = createRestServer(
    {
      llm: fakeLlm({
        models: () => llmError('llm-unreachable', 'Ollama is not running at http://10.9.8.7:11434 (ECONNREFUSED)'),
      }),
      passages: () => [],
      models: { main: 'm1', host: 'http://127.0.0.1:1' },
      log: (line) => lines.push(line),
      ...deps,
    },
    { bodyLimit: 64 * 1024, version: 't', ...options },
  );
  return { server, lines };
}

describe('REST server hardening (in-process)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'avap-rest-hard-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('with an allow-list, another Host gets 421 before the token check or any route, and is logged', async () => {
    let runs = 0;
    const { server, lines } = app(
      {
        assistant: assistant(() => {
          runs += 1;
          return RESULT;
        }),
      },
      { allowedHosts: LOOPBACK_HOST_RULES },
    );
    const refused = await server.inject({
      method: 'POST',
      url: '/v1/generate',
      payload: { query: 'q' },
      headers: { host: 'rebound.evil.example:8000' },
    });
    assert.equal(refused.statusCode, 421);
    assert.equal(refused.json<ErrorBody>().error, 'misdirected-request');
    assert.match(
      refused.json<ErrorBody>().message,
      /does not answer for the host 'rebound\.evil\.example:8000'; it answers for localhost, 127\.0\.0\.1, \[::1\]/,
    );
    assert.equal(runs, 0);
    assert.ok(
      lines.some((l) => l.includes('refused POST /v1/generate for Host "rebound.evil.example:8000"')),
      lines.join('\n'),
    );
    for (const url of ['/health', '/openapi.json', '/nope']) {
      assert.equal(
        (await server.inject({ method: 'GET', url, headers: { host: 'evil.example' } })).statusCode,
        421,
        url,
      );
    }
    const ok = await server.inject({ method: 'GET', url: '/health', headers: { host: 'localhost:8000' } });
    assert.equal(ok.statusCode, 200);
    await server.close();
  });

  it('an internal failure answers without paths or peer addresses; the log keeps them', async () => {
    const parser = fakeParser({
      kind: 'unavailable',
      reason: 'transport',
      detail: '14 UNAVAILABLE: connect ECONNREFUSED 10.0.0.5:50051',
    });
    const { server, lines } = app({
      assistant: assistant(
        () => ({
          ...RESULT,
          code: '',
          error: { code: 'llm-unreachable', message: 'Ollama is not running at http://10.9.8.7:11434 (ECONNREFUSED)' },
        }),
        parser,
      ),
    });
    const validate = await server.inject({
      method: 'POST',
      url: '/v1/validate',
      payload: { source: 'addVar(a, 1)', filename: 'a.avap' },
    });
    assert.equal(validate.statusCode, 503);
    assert.equal(
      validate.json<ErrorBody>().message,
      'the AVAP parser could not validate the source (transport): 14 UNAVAILABLE: connect ECONNREFUSED <address>',
    );
    const generate = await server.inject({ method: 'POST', url: '/v1/generate', payload: { query: 'q' } });
    assert.equal(generate.statusCode, 502);
    assert.equal(generate.json<ErrorBody>().message, 'Ollama is not running at <address> (ECONNREFUSED)');
    const models = await server.inject({ method: 'GET', url: '/v1/models' });
    assert.deepEqual(models.json(), {
      error: 'llm-unreachable',
      message: 'Ollama is not running at <address> (ECONNREFUSED)',
    });
    const batch = await server.inject({
      method: 'POST',
      url: '/v1/batch',
      payload: {
        requests: [
          { kind: 'generate', query: 'q' },
          { kind: 'validate', source: 'a', filename: 'a.avap' },
        ],
      },
    });
    assert.doesNotMatch(batch.body, /10\.\d+\.\d+\.\d+/);
    const log = lines.join('\n');
    assert.match(log, /10\.0\.0\.5:50051/);
    assert.match(log, /http:\/\/10\.9\.8\.7:11434/);
    await server.close();
  });

  it('an unexpected exception is a 500 naming the request id, with the stack in the log only', async () => {
    const { server, lines } = app({ assistant: assistant() });
    server.get('/boom', () => Promise.reject(new Error("EACCES: permission denied, open '/srv/secret/file'")));
    const response = await server.inject({ method: 'GET', url: '/boom' });
    assert.equal(response.statusCode, 500);
    assert.equal(response.json<ErrorBody>().error, 'internal-error');
    assert.doesNotMatch(response.body, /srv|secret|EACCES/);
    assert.match(response.json<ErrorBody>().message, /request req-\w+\); the details are in its log/);
    assert.ok(
      lines.some((l) => l.includes('/srv/secret/file')),
      lines.join('\n'),
    );
    await server.close();
  });

  it('/health: ok with its storage when everything can be written, degraded with reasons when not', async () => {
    const good = new SignalStore(path.join(dir, 'signals.jsonl'));
    let telemetry: AppendResult = { ok: true, value: undefined };
    const { server } = app({
      assistant: assistant(),
      signals: good,
      telemetry: { health: () => Promise.resolve(telemetry) },
    });
    const ok = (await server.inject({ method: 'GET', url: '/health' })).json<HealthBody>();
    assert.equal(ok.status, 'ok');
    assert.deepEqual(ok.reasons, []);
    assert.deepEqual(ok.storage, {
      signals: { enabled: true, writable: true },
      telemetry: { enabled: true, writable: true },
    });
    assert.deepEqual(ok.parser, { endpoint: 'injected', circuit: { state: 'closed', consecutiveFailures: 0 } });

    telemetry = {
      ok: false,
      error: { kind: 'unwritable', code: 'ENOSPC', message: 'cannot append to /var/log/t.jsonl: ENOSPC' },
    };
    const degraded = (await server.inject({ method: 'GET', url: '/health' })).json<HealthBody>();
    assert.equal(degraded.status, 'degraded');
    assert.deepEqual(degraded.reasons, [
      'the telemetry log cannot be written (ENOSPC): attempt events are not recorded',
    ]);
    assert.deepEqual(degraded.storage.telemetry, { enabled: true, writable: false, code: 'ENOSPC' });
    assert.doesNotMatch(JSON.stringify(degraded), /var\/log/);
    await server.close();

    const none = app({ assistant: assistant() });
    assert.deepEqual((await none.server.inject({ method: 'GET', url: '/health' })).json<HealthBody>().storage, {
      signals: { enabled: false },
      telemetry: { enabled: false },
    });
    await none.server.close();
  });

  it('/v1/feedback with an unwritable store: 503 with the reason, never 404; nothing is written', async () => {
    writeFileSync(path.join(dir, 'blocker'), 'a file where a folder should be');
    const store = new SignalStore(path.join(dir, 'blocker', 'signals.jsonl'));
    const { server, lines } = app({ assistant: assistant(), signals: store });
    const health = (await server.inject({ method: 'GET', url: '/health' })).json<HealthBody>();
    assert.equal(health.status, 'degraded');
    assert.match(health.reasons[0] ?? '', /^the training-signal store cannot be written \(ENOTDIR\)/);
    // The generation's signal cannot be written either.
    const generated = await server.inject({ method: 'POST', url: '/v1/generate', payload: { query: 'q' } });
    assert.equal(generated.statusCode, 200);
    const feedback = await server.inject({
      method: 'POST',
      url: '/v1/feedback',
      payload: { generation_id: 'g1', thumbs: 'up' },
    });
    assert.equal(feedback.statusCode, 503);
    assert.equal(feedback.json<ErrorBody>().code, 'ENOTDIR');
    assert.match(
      feedback.json<ErrorBody>().message,
      /^the feedback was not recorded: the training-signal store cannot be (read|written) \(ENOTDIR\)/,
    );
    assert.doesNotMatch(feedback.body, /blocker/);
    assert.ok(
      lines.some((l) => l.includes('blocker')),
      'the log names the file',
    );
    await server.close();
  });

  it('/v1/feedback on a generation whose signal was lost to a full disk: 503 while the store fails, 409 once it writes again', async () => {
    const file = path.join(dir, 'signals.jsonl');
    let full = true;
    const real = new SignalStore(file);
    // A store on a disk that fills up and later frees: the real store with its appends failing on demand.
    const store = Object.create(real) as SignalStore;
    const failing = new SignalStore('/dev/full');
    store.recordSignal = (s) => (full ? failing.recordSignal(s) : real.recordSignal(s));
    store.health = () => (full ? failing.health() : real.health());
    const { server } = app({ assistant: assistant(() => ({ ...RESULT, generationId: 'lost' })), signals: store });
    assert.equal(
      (await server.inject({ method: 'POST', url: '/v1/generate', payload: { query: 'q' } })).statusCode,
      200,
    );
    const during = await server.inject({
      method: 'POST',
      url: '/v1/feedback',
      payload: { generation_id: 'lost', thumbs: 'up' },
    });
    assert.equal(during.statusCode, 503);
    assert.equal(during.json<ErrorBody>().error, 'signal-store-unwritable');
    assert.equal(during.json<ErrorBody>().code, 'ENOSPC');
    full = false;
    const after = await server.inject({
      method: 'POST',
      url: '/v1/feedback',
      payload: { generation_id: 'lost', thumbs: 'up' },
    });
    assert.equal(after.statusCode, 409);
    assert.equal(after.json<ErrorBody>().error, 'signal-not-recorded');
    const unknown = await server.inject({
      method: 'POST',
      url: '/v1/feedback',
      payload: { generation_id: 'never-existed', thumbs: 'up' },
    });
    assert.equal(unknown.statusCode, 404);
    await server.close();
  });
});

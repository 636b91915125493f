/**
 * A parser that does not answer is never silence, over real
 * sockets: a hung replica (a real grpc-js server whose health check says
 * SERVING and whose Validate never answers, test/support/hungParser.ts) and
 * a busy one (the real service with one worker and a queue longer than the
 * deadline). Through the one connection factory and through the CLI as a
 * child process: every call gets a real verdict or PARSER_UNAVAILABLE — no
 * command exits 0 without its answer, a hung replica is ejected after one
 * deadline instead of being asked again, and the breaker counts it.
 * Behaviour only: which answers came and who was asked, never how fast.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openParserConnection, type ParserConnection } from '../../../src/core/parser/connection';
import { renderEntry, validateAvap } from '../../../src/parser';
import { callValidate, createParserClient, parseParserUrl } from '../../../src/protocol/parserClient';
import { runCliProcess } from '../../support/dist';
import { startHungParser, type HungParser } from '../../support/hungParser';
import { startParserProcess, type RunningParser } from '../../support/parserProcess';
import { startParserService, type RunningParserService } from '../../support/parserService';
import { startScriptedOllama, type ScriptedOllama } from '../../support/scriptedOllama';
import { fenced, MODELS, task, VALID_CODE } from '../pipeline/fixture';

const FAST_HEALTH = { intervalMs: 100, timeoutMs: 500 };
const BAD = 'addParam(password, p)\ngetSHA256(p, h)\naddResult(h)\n';

/** A program of a few lines, different for each `seed`. */
function program(seed: number): string {
  return `addVar(v${seed}, ${seed})\naddResult(v${seed})\n`;
}

/** The Validate calls a caller made (probes carry a '<…>' file name). */
const callerCalls = (hung: HungParser) => hung.calls.filter((c) => !c.filename.startsWith('<')).length;

describe('a parser that does not answer: hung and busy replicas (real sockets)', function () {
  this.timeout(120_000);
  let healthy: RunningParserService;
  let hung: HungParser;
  let dir: string;
  let bad: string;
  const connections: ParserConnection[] = [];

  before(async () => {
    [healthy, hung] = await Promise.all([startParserService(), startHungParser()]);
    dir = mkdtempSync(path.join(os.tmpdir(), 'avap-silent-'));
    bad = path.join(dir, 'bad.avap');
    writeFileSync(bad, BAD);
  });
  after(async () => {
    await Promise.all([healthy?.stop(), hung?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await Promise.all(connections.splice(0).map((c) => c.close()));
  });

  async function connect(url: string, timeoutMs: number) {
    const opened = await openParserConnection(
      { url, timeoutMs, breakerThreshold: 3, breakerCooldownMs: 30_000 },
      { grpc: { healthCheck: FAST_HEALTH } },
    );
    assert.ok(opened.ok, opened.ok ? '' : opened.error.message);
    connections.push(opened.value);
    return opened.value;
  }

  const expectedText = (file: string) =>
    validateAvap(BAD)
      .trace.map((entry) => `${file}: ${renderEntry(entry)}\n`)
      .join('');

  describe('through the connection factory', () => {
    it('a hung replica alone: each call is a timeout at its deadline, the breaker counts it and opens after 3, then asks it nothing', async () => {
      const connection = await connect(hung.address, 400);
      const before = callerCalls(hung);
      for (let i = 0; i < 3; i += 1) {
        const outcome = await connection.port.validate(program(i), `p${i}.avap`);
        assert.equal(outcome.kind === 'unavailable' && outcome.reason, 'timeout', JSON.stringify(outcome));
      }
      assert.equal(callerCalls(hung) - before, 3, 'one call per request, not re-sent while waiting');
      assert.equal(connection.port.circuit().state, 'open', 'a service whose parser answers nothing is down');
      const asked = hung.calls.length;
      const skipped = await connection.port.validate(program(9), 'p9.avap');
      assert.equal(skipped.kind === 'unavailable' && skipped.reason, 'circuit-open');
      assert.equal(hung.calls.length, asked, 'nothing reaches it while the circuit is open');
    });

    for (const order of ['hung first', 'healthy first'] as const) {
      it(`${order} in the URL list: every call gets the healthy replica's verdict, the hung one is ejected after one deadline`, async () => {
        const url =
          order === 'hung first' ? `${hung.address},${healthy.address}` : `${healthy.address},${hung.address}`;
        const connection = await connect(url, 600);
        const before = callerCalls(hung);
        // Sequential calls, then a burst: every one a real verdict.
        for (let i = 0; i < 10; i += 1) {
          const outcome = await connection.port.validate(program(i), `p${i}.avap`);
          assert.equal(outcome.kind, 'validated', JSON.stringify(outcome));
          if (outcome.kind === 'validated') assert.deepEqual(outcome.result, validateAvap(program(i)));
        }
        assert.ok(callerCalls(hung) - before <= 1, `the hung replica got ${callerCalls(hung) - before} calls, not 1`);
        const burst = await Promise.all(
          Array.from({ length: 12 }, (_, i) => connection.port.validate(program(100 + i), 'b.avap')),
        );
        assert.deepEqual(
          burst.map((o) => o.kind),
          burst.map(() => 'validated'),
        );
        assert.ok(callerCalls(hung) - before <= 1, 'still out of the rotation');
        assert.deepEqual(connection.port.circuit(), { state: 'closed', consecutiveFailures: 0 });
      });
    }
  });

  describe('through the CLI (dist/cli.js)', () => {
    it('validate against a hung replica: PARSER_UNAVAILABLE on stderr, exit 4, nothing claimed on stdout; --json says so per file', async () => {
      const text = await runCliProcess(['validate', '--parser-url', hung.address, '--timeout', '1', bad]);
      assert.equal(text.code, 4, text.stderr);
      assert.equal(text.stdout, '');
      assert.match(
        text.stderr,
        /^avap validate: PARSER_UNAVAILABLE — parser service at 127\.0\.0\.1:\d+ did not answer within 1000 ms; .*bad\.avap was not validated\n$/,
      );
      const json = await runCliProcess([
        'validate',
        '--json',
        '--parser-url',
        hung.address,
        '--timeout',
        '1',
        bad,
        bad,
      ]);
      assert.equal(json.code, 4, json.stderr);
      const objects = json.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { file: string; error?: { code: string } });
      assert.deepEqual(
        objects.map((o) => [o.file, o.error?.code]),
        [
          [bad, 'parser-unavailable'],
          [bad, 'not-validated'],
        ],
      );
    });

    for (const order of ['hung first', 'healthy first'] as const) {
      it(`validate with ${order} in the URL list: the verdict on every run`, async () => {
        const url =
          order === 'hung first' ? `${hung.address},${healthy.address}` : `${healthy.address},${hung.address}`;
        for (let run = 0; run < 4; run += 1) {
          const result = await runCliProcess(['validate', '--parser-url', url, '--timeout', '1', bad]);
          assert.equal(result.code, 1, `run ${run}: ${result.stderr}`);
          assert.equal(result.stdout, expectedText(bad));
        }
      });
    }

    it('SIGTERM while validate waits on a hung replica ends it at once: exit 130, said on stderr', async () => {
      const before = hung.calls.length;
      // Signalled once the CLI's call has reached the replica (it would wait 60 s for the answer).
      const result = await runCliProcess(['validate', '--parser-url', hung.address, '--timeout', '60', bad], {
        signalWhen: { when: hung.waitForCalls(before + 1), signal: 'SIGTERM' },
        killAfterMs: 30_000,
      });
      assert.equal(result.code, 130, result.stderr);
      assert.match(result.stderr, /avap validate: interrupted \(received SIGTERM\); .*bad\.avap was not validated/);
      assert.equal(result.stdout, '');
    });

    describe('generate --json with a hung replica', () => {
      let ollama: ScriptedOllama;
      before(async () => {
        ollama = await startScriptedOllama({ models: MODELS });
      });
      after(async () => {
        await ollama?.close();
      });
      beforeEach(() => {
        ollama.reset();
        ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256 addParam' });
        ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
      });
      const env = () => ({
        OLLAMA_HOST: ollama.url,
        AVAP_PARSER_URL: undefined,
        AVAP_PARSER_TIMEOUT: undefined,
        AVAP_ES_URL: undefined,
        AVAP_TELEMETRY_FILE: undefined,
        PARSER_CB_THRESHOLD: undefined,
        PARSER_CB_COOLDOWN: undefined,
      });
      const finalOf = (stdout: string) =>
        JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;

      it('alone: the run ends with its final message, PARSER_UNAVAILABLE, exit 4', async () => {
        for (let run = 0; run < 2; run += 1) {
          const result = await runCliProcess(
            ['generate', '--json', '--parser-url', hung.address, '--parser-timeout', '1', 'hash the password'],
            { env: env() },
          );
          assert.equal(result.code, 4, result.stderr);
          const final = finalOf(result.stdout);
          assert.equal(final.is_final, true);
          assert.equal(final.validation_status, 'PARSER_UNAVAILABLE');
          assert.equal(final.avap_code, VALID_CODE);
        }
      });

      it('with a healthy replica beside it (either order): the final message carries the verdict', async () => {
        for (const url of [`${hung.address},${healthy.address}`, `${healthy.address},${hung.address}`]) {
          const result = await runCliProcess(
            ['generate', '--json', '--parser-url', url, '--parser-timeout', '1', 'hash the password'],
            { env: env() },
          );
          assert.equal(result.code, 0, result.stderr);
          const final = finalOf(result.stdout);
          assert.equal(final.is_final, true);
          assert.equal(final.validation_status, '');
        }
      });
    });
  });
});

describe('a busy parser service (one worker, a queue longer than the deadline)', function () {
  this.timeout(180_000);
  let busy: RunningParser;
  let dir: string;

  before(async () => {
    busy = await startParserProcess(['--workers', '1']);
    dir = mkdtempSync(path.join(os.tmpdir(), 'avap-busy-'));
  });
  after(async () => {
    await busy?.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  /** Queues small-lane work with long deadlines until a small call with a 2 s deadline gets no verdict. */
  async function occupy(): Promise<{ drained: Promise<unknown>; close: () => void }> {
    const parsed = parseParserUrl(busy.address);
    assert.ok(parsed.ok);
    const client = createParserClient(parsed.value);
    const unit = 'addVar(counter, counter + 1)\n';
    const filler = unit.repeat(Math.floor(16_000 / unit.length));
    const pending: Promise<unknown>[] = [];
    for (let size = 2000; size <= 64_000; size *= 2) {
      for (let i = 0; i < size; i += 1)
        pending.push(callValidate(client, filler, `f${i}.avap`, { timeoutMs: 120_000 }));
      const probe = await callValidate(client, 'addVar(a, 1)\n', 'probe.avap', { timeoutMs: 2000 });
      if (!probe.ok) return { drained: Promise.all(pending), close: () => client.close() };
    }
    client.close();
    throw new Error('could not make the service busy');
  }

  it('validate --timeout 2 gets the verdict (once the queue drains) or PARSER_UNAVAILABLE — never an empty exit 0', async () => {
    const bad = path.join(dir, 'bad.avap');
    writeFileSync(bad, BAD);
    for (let run = 0; run < 2; run += 1) {
      const work = await occupy();
      try {
        const result = await runCliProcess(['validate', '--parser-url', busy.address, '--timeout', '2', bad], {
          killAfterMs: 60_000,
        });
        assert.ok(result.code === 1 || result.code === 4, `run ${run}: exit ${result.code}: ${result.stderr}`);
        if (result.code === 1) assert.match(result.stdout, /bad\.avap: Line 2: 'getSHA256' not defined/);
        else assert.match(result.stderr, /^avap validate: PARSER_UNAVAILABLE — parser service at /);
      } finally {
        await work.drained;
        work.close();
      }
    }
  });
});

/**
 * The parser service under load through REST: the real
 * `node dist/cli.js serve` with its bundled parser service (worker pool),
 * measured side by side in one run:
 *
 *  1. 400 concurrent POST /v1/validate of 100 KiB each: how many are answered 200.
 *  2. An 800-request burst of the same: how many are answered 200, the circuit
 *     state afterwards (GET /health), and the latency of the next small request
 *     against an idle one measured before the load.
 *  3. A hung parser replica (health SERVING, Validate never answers):
 *     alone, how long POST /v1/validate takes to answer 503, as a multiple of
 *     the parser deadline; beside a healthy replica, the small-request latency
 *     against the healthy replica alone (the hung one ejected after one deadline).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startServe, type ServeProcess } from '../../test/integration/rest/serveProcess';
import { startHungParser } from '../../test/support/hungParser';
import { startParserService } from '../../test/support/parserService';
import { median, sample, type BenchResult, type BenchSuite } from '../types';

const CORPUS = path.join(__dirname, '..', '..', 'test', 'corpus', 'valid');

/** 100 KiB of the whole valid corpus, repeated (its repeated definitions make the parser report findings too). */
function hundredKiBProgram(): string {
  const unit = readdirSync(CORPUS)
    .filter((f) => f.endsWith('.avap'))
    .sort()
    .map((f) => readFileSync(path.join(CORPUS, f), 'utf8'))
    .join('\n');
  let out = '';
  while (out.length < 100 * 1024) out += `${unit}\n`;
  return out.slice(0, out.lastIndexOf('\n', 100 * 1024) + 1);
}

const SMALL = JSON.stringify({ source: 'addParam("q", q)\naddResult(q)\n', filename: 'small.avap' });

function post(server: ServeProcess, body: string): Promise<number> {
  return fetch(`${server.url}/v1/validate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  }).then(async (response) => {
    await response.arrayBuffer();
    return response.status;
  });
}

async function burst(server: ServeProcess, body: string, count: number): Promise<{ ok: number; ms: number }> {
  const start = performance.now();
  const statuses = await Promise.all(Array.from({ length: count }, () => post(server, body).catch(() => 0)));
  return { ok: statuses.filter((s) => s === 200).length, ms: performance.now() - start };
}

async function circuit(server: ServeProcess): Promise<string> {
  const health = (await (await fetch(`${server.url}/health`)).json()) as { parser: { circuit: { state: string } } };
  return health.parser.circuit.state;
}

async function smallLatency(server: ServeProcess, count: number): Promise<number> {
  return median(
    await sample(
      async () => {
        const status = await post(server, SMALL);
        if (status !== 200) throw new Error(`a small validation was answered ${status}`);
      },
      count,
      0,
    ),
  );
}

const fmt = (ms: number) => (ms >= 100 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(1)} ms`);

async function benchRestLoad(): Promise<BenchResult[]> {
  const server = await startServe(['--port', '0', '--ollama-url', 'http://127.0.0.1:9', '--quiet']);
  try {
    const body = JSON.stringify({ source: hundredKiBProgram(), filename: 'big.avap' });
    await smallLatency(server, 10);
    const idle = await smallLatency(server, 20);
    const four = await burst(server, body, 400);
    const afterFour = await circuit(server);
    const eight = await burst(server, body, 800);
    const afterEight = await circuit(server);
    const next = await smallLatency(server, 5);
    const ratio = next / idle;
    return [
      {
        name: 'REST /v1/validate: 400 concurrent 100 KiB validations answered 200',
        ratio: (four.ok / 400) * 100,
        unit: '% answered 200',
        goal: { text: 'all 400 answered 200', met: four.ok === 400 },
        detail: `${four.ok}/400 answered 200 in ${(four.ms / 1000).toFixed(1)} s (${((400 * 100) / 1024 / (four.ms / 1000)).toFixed(1)} MiB/s through REST); circuit afterwards: ${afterFour}`,
      },
      {
        name: 'REST after an 800-request burst: next small request vs an idle one',
        ratio,
        unit: '× the idle latency',
        goal: {
          text: 'circuit closed and the next small request answered at once (≤ 3× idle)',
          met: afterEight === 'closed' && ratio <= 3,
        },
        detail: `burst: ${eight.ok}/800 answered 200 in ${(eight.ms / 1000).toFixed(1)} s; circuit afterwards: ${afterEight}; next small request ${fmt(next)} (median of 5) vs idle ${fmt(idle)} (median of 20, before the load)`,
      },
    ];
  } finally {
    await server.stop();
  }
}

/** The parser deadline of the hung-replica measurements (AVAP_PARSER_TIMEOUT's default). */
const DEADLINE_S = 2;

async function timed(fn: () => Promise<number>): Promise<{ status: number; ms: number }> {
  const start = performance.now();
  const status = await fn();
  return { status, ms: performance.now() - start };
}

async function benchHungReplica(): Promise<BenchResult[]> {
  const [hung, healthy] = await Promise.all([startHungParser(), startParserService()]);
  const serve = (url: string) =>
    startServe([
      '--port',
      '0',
      '--ollama-url',
      'http://127.0.0.1:9',
      '--parser-url',
      url,
      '--parser-timeout',
      String(DEADLINE_S),
      '--quiet',
    ]);
  const servers: ServeProcess[] = [];
  try {
    const [alone, beside, reference] = await Promise.all([
      serve(hung.address),
      serve(`${hung.address},${healthy.address}`),
      serve(healthy.address),
    ]);
    servers.push(alone, beside, reference);
    // Alone: the first three requests (the breaker opens after the third); each must answer 503 at its deadline.
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(await timed(() => post(alone, SMALL)));
    const worst = Math.max(...answers.map((a) => a.ms));
    const all503 = answers.every((a) => a.status === 503);
    const afterAlone = await circuit(alone);
    // Beside a healthy replica: the first request may meet the hung one (one deadline); the rest must not.
    const callerCalls = () => hung.calls.filter((c) => !c.filename.startsWith('<')).length;
    const callsBefore = callerCalls();
    const first = await timed(() => post(beside, SMALL));
    // Interleaved, so the machine's load weighs on both alike.
    const withoutHung: number[] = [];
    const together: number[] = [];
    for (let i = 0; i < 40; i += 1) {
      const a = await timed(() => post(reference, SMALL));
      const b = await timed(() => post(beside, SMALL));
      if (a.status !== 200 || b.status !== 200)
        throw new Error(`a small validation was answered ${a.status}/${b.status}`);
      if (i >= 10) {
        withoutHung.push(a.ms);
        together.push(b.ms);
      }
    }
    const idle = median(withoutHung);
    const withHung = median(together);
    const calls = callerCalls() - callsBefore;
    return [
      {
        name: 'REST /v1/validate with a hung parser replica alone: time to the 503, in deadlines',
        ratio: worst / (DEADLINE_S * 1000),
        unit: '× the parser deadline (slowest of 3)',
        goal: {
          text: '503 within 1.5 deadlines, circuit open after 3',
          met: all503 && worst <= 1.5 * DEADLINE_S * 1000,
        },
        detail: `answers ${answers.map((a) => `${a.status} in ${fmt(a.ms)}`).join(', ')} (deadline ${DEADLINE_S} s; before replicas were ejected on a missed deadline: 503 after ~31 s, ~30 calls re-sent); circuit afterwards: ${afterAlone}`,
      },
      {
        name: 'REST /v1/validate with a hung replica beside a healthy one: small request vs the healthy one alone',
        ratio: withHung / idle,
        unit: '× the latency without the hung replica',
        goal: {
          text: 'the hung replica out of the rotation (≤ 1.5×) and every answer 200',
          met: withHung / idle <= 1.5 && first.status === 200,
        },
        detail: `first request ${first.status} in ${fmt(first.ms)} (it may meet the hung replica: one deadline, then another replica); then ${fmt(withHung)} vs ${fmt(idle)} alone (medians of 30, interleaved); the hung replica got ${calls} caller call(s)`,
      },
    ];
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await Promise.all([hung.close(), healthy.stop()]);
  }
}

export const serviceSuite: BenchSuite = {
  name: 'service',
  run: async () => [...(await benchRestLoad()), ...(await benchHungReplica())],
};

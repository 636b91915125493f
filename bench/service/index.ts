/**
 * The parser service under load through REST (issue 12): the real
 * `node dist/cli.js serve` with its bundled parser service (worker pool),
 * measured side by side in one run:
 *
 *  1. 400 concurrent POST /v1/validate of 100 KiB each: how many are answered 200.
 *  2. An 800-request burst of the same: how many are answered 200, the circuit
 *     state afterwards (GET /health), and the latency of the next small request
 *     against an idle one measured before the load.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startServe, type ServeProcess } from '../../test/integration/rest/serveProcess';
import { median, sample, type BenchResult, type BenchSuite } from '../types';

const CORPUS = path.join(__dirname, '..', '..', 'test', 'corpus', 'valid');

/** 100 KiB of the whole valid corpus, repeated (its repeated definitions make the parser report findings too). */
export function hundredKiBProgram(): string {
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

export async function benchRestLoad(): Promise<BenchResult[]> {
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

export const serviceSuite: BenchSuite = { name: 'service', run: benchRestLoad };

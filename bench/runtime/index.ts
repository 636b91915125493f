/**
 * The AVAP runtime, measured side by side in one run:
 *
 *  1. Runs per second through the pool (worker threads, batched messages, every run isolated: its own ports and
 *     namespace) for a 10-line program — the one the batching was tuned on and a held-out one — against the
 *     interpreter called directly on this thread (the ceiling for one core). Goal: ≥ 20,000 runs/s.
 *  2. POST /v1/execute over loopback HTTP (the real `serve`, keep-alive connections) against AVAP Lite's published
 *     figures (5,115 requests/s, 11 ms median on 2 vCPU) and against AVAP Lite running here, when it answers at
 *     127.0.0.1:18888 (the row says so when it does not).
 *  3. What a database costs a run: a new PGlite (initdb), one built from a dump, `clone()`, and the sandbox's
 *     reset (one rolled-back transaction per run), and a run through the pool that queries against one that
 *     does not.
 */
import { Agent, request as httpRequest } from 'node:http';
import { availableParallelism } from 'node:os';
import { PGlite } from '@electric-sql/pglite';
import { createRunPool, SandboxDatabase, type RunPool, type RunRequest } from '../../src/runtime/host';
import { execute } from '../../src/runtime';
import { startServe } from '../../test/integration/rest/serveProcess';
import { median, type BenchResult, type BenchSuite } from '../types';

/** The program the pool's batching was tuned on. */
const TUNED_PROGRAM = `addParam(name, who)
addVar(count, 0)
addVar(limit, 4)
startLoop(i, 1, limit)
  count = count + i
endLoop()
if(count, 10, ==)
  addVar(verdict, "sum ok")
end()
addResult(count)
`;

/** Held out: never run while tuning. */
const HELD_OUT_PROGRAM = `addVar(base, 7)
addVar(items, 3)
total = base * items
label = "total: " + str(total)
if(total, 20, >)
  addVar(size, "big")
else()
  addVar(size, "small")
end()
addResult(label)
`;

const DB_PROGRAM = `ormDirect("SELECT name FROM people WHERE id = 2", rows)
ormDirect("INSERT INTO people (name) VALUES ('eve')", made)
addResult(rows)
addResult(made)
`;

const DB_SEED = `CREATE TABLE people (id serial PRIMARY KEY, name text);
INSERT INTO people (name) VALUES ('ana'), ('bo'), ('cy');`;

const REQUEST: RunRequest = { method: 'GET', query: { name: 'ana' }, headers: {}, body: null };
const REFERENCE_URL = 'http://127.0.0.1:18888/api/v1/execute';
const PUBLISHED = { rps: 5115, medianMs: 11 };

const noPorts = {
  http: { fetch: () => Promise.reject(new Error('no HTTP in this benchmark')) },
  db: { query: () => Promise.reject(new Error('no database in this benchmark')) },
  clock: { now: () => 0 },
  random: { next: () => 0.5 },
};

/** Runs per second of `count` runs kept `inFlight` at a time. */
async function poolRate(pool: RunPool, source: string, count: number, inFlight: number): Promise<number> {
  let started = 0;
  let failed = 0;
  const start = performance.now();
  const lane = async () => {
    while (started < count) {
      started++;
      const result = await pool.run({ source, request: REQUEST });
      if (result.error) failed++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  const seconds = (performance.now() - start) / 1000;
  if (failed) throw new Error(`${failed} of ${count} benchmark runs failed`);
  return count / seconds;
}

async function directRate(source: string, count: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const result = await execute(source, REQUEST, noPorts, { maxSteps: 1_000_000 });
    if (result.error) throw new Error(`the direct run failed: ${result.error.message}`);
  }
  return count / ((performance.now() - start) / 1000);
}

async function benchPool(): Promise<BenchResult[]> {
  const started = createRunPool({});
  if (!started.ok) throw new Error(started.error.message);
  const pool = started.value;
  try {
    await poolRate(pool, TUNED_PROGRAM, 5_000, 512);
    await directRate(TUNED_PROGRAM, 2_000);
    const out: BenchResult[] = [];
    for (const [label, source] of [
      ['tuned', TUNED_PROGRAM],
      ['held-out', HELD_OUT_PROGRAM],
    ] as const) {
      const rates = [];
      for (let i = 0; i < 3; i++) rates.push(await poolRate(pool, source, 40_000, 1024));
      const rate = median(rates);
      const direct = await directRate(source, 20_000);
      out.push({
        name: `runtime pool: 10-line program (${label}), runs/s through the worker pool`,
        ratio: rate,
        unit: 'runs/s',
        goal: { text: '≥ 20,000 runs/s on this machine', met: rate >= 20_000 },
        detail: `${pool.size} workers (${availableParallelism()} cores), 40,000 runs 1,024 in flight, median of 3: ${Math.round(rate).toLocaleString('en')} runs/s (${rates.map((r) => Math.round(r)).join(', ')}); the interpreter called directly on one thread: ${Math.round(direct).toLocaleString('en')} runs/s (pool ${(rate / direct).toFixed(2)}× one thread)`,
      });
    }
    return out;
  } finally {
    await pool.close();
  }
}

interface LoadFigures {
  rps: number;
  medianMs: number;
  p90Ms: number;
  statuses: Map<number, number>;
}

/** `count` POSTs of `body` to `url`, `concurrency` keep-alive connections at a time. */
async function load(url: string, body: string, count: number, concurrency: number): Promise<LoadFigures> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let sent = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const start = performance.now();
      const req = httpRequest(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          timeout: 30_000,
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - start);
            statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1);
            resolve();
          });
        },
      );
      req.on('error', () => {
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
        resolve();
      });
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.end(body);
    });
  const lane = async () => {
    while (sent < count) {
      sent++;
      await one();
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, lane));
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    rps: count / seconds,
    medianMs: median(latencies),
    p90Ms: sorted[Math.floor(sorted.length * 0.9)] ?? 0,
    statuses,
  };
}

async function referenceAnswers(body: string): Promise<string | undefined> {
  try {
    const response = await fetch(REFERENCE_URL, { method: 'POST', body, signal: AbortSignal.timeout(2000) });
    const json = (await response.json()) as { success?: boolean };
    return json.success === true ? undefined : `it answered ${response.status} without success`;
  } catch (e) {
    return `nothing answers at ${REFERENCE_URL} (${(e as Error).message})`;
  }
}

const describe = (f: LoadFigures) =>
  `${Math.round(f.rps).toLocaleString('en')} req/s, median ${f.medianMs.toFixed(1)} ms, p90 ${f.p90Ms.toFixed(1)} ms (statuses ${[...f.statuses].map(([s, n]) => `${s}×${n}`).join(', ')})`;

async function benchRest(): Promise<BenchResult[]> {
  const COUNT = 10_000;
  const CONCURRENCY = 64;
  const body = JSON.stringify({ script: TUNED_PROGRAM, variables: {} });
  const server = await startServe(['--port', '0', '--ollama-url', 'http://127.0.0.1:9', '--quiet']);
  let ours: LoadFigures;
  try {
    await load(`${server.url}/v1/execute?name=ana`, body, 1_000, CONCURRENCY);
    ours = await load(`${server.url}/v1/execute?name=ana`, body, COUNT, CONCURRENCY);
  } finally {
    await server.stop();
  }
  const out: BenchResult[] = [
    {
      name: "REST POST /v1/execute: requests/s against AVAP Lite's published 5,115 req/s (2 vCPU)",
      ratio: ours.rps / PUBLISHED.rps,
      unit: '× the published throughput',
      goal: { text: 'at least the published throughput', met: ours.rps >= PUBLISHED.rps },
      detail: `ours: ${describe(ours)} — ${COUNT.toLocaleString('en')} requests, ${CONCURRENCY} keep-alive connections, the load generator on the same 2 cores; published: ${PUBLISHED.rps} req/s, median ${PUBLISHED.medianMs} ms`,
    },
    {
      name: "REST POST /v1/execute: median latency against AVAP Lite's published 11 ms",
      ratio: ours.medianMs / PUBLISHED.medianMs,
      unit: '× the published median',
      goal: { text: 'at most the published median', met: ours.medianMs <= PUBLISHED.medianMs },
      detail: `ours: median ${ours.medianMs.toFixed(1)} ms at ${CONCURRENCY} connections`,
    },
  ];
  const missing = await referenceAnswers(body);
  if (missing) {
    out.push({
      name: 'REST POST /v1/execute against AVAP Lite running here: skipped',
      ratio: 0,
      unit: '(not measured)',
      detail: `${missing}; start it to compare (see the runtime section of the README)`,
    });
    return out;
  }
  await load(`${REFERENCE_URL}?name=ana`, body, 500, CONCURRENCY);
  const theirs = await load(`${REFERENCE_URL}?name=ana`, body, COUNT, CONCURRENCY);
  out.push({
    name: 'REST POST /v1/execute against AVAP Lite running here (same program, same load)',
    ratio: ours.rps / theirs.rps,
    unit: '× its requests/s',
    goal: { text: 'at least its throughput', met: ours.rps >= theirs.rps },
    detail: `ours: ${describe(ours)}; AVAP Lite: ${describe(theirs)}; median latency ${(ours.medianMs / theirs.medianMs).toFixed(2)}× its`,
  });
  return out;
}

async function timeIt<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

async function benchDatabase(): Promise<BenchResult[]> {
  const cold = await timeIt(() => PGlite.create());
  await cold.value.exec(DB_SEED);
  const dump = await cold.value.dumpDataDir('none');
  const fromDump: number[] = [];
  const clones: number[] = [];
  for (let i = 0; i < 3; i++) {
    const built = await timeIt(() => PGlite.create({ loadDataDir: dump }));
    fromDump.push(built.ms);
    await built.value.close();
    const cloned = await timeIt(() => cold.value.clone());
    clones.push(cloned.ms);
    await cloned.value.close();
  }
  await cold.value.close();

  const sandbox = new SandboxDatabase();
  const signal = new AbortController().signal;
  const perRun = async () => {
    const run = sandbox.forRun(DB_SEED);
    await run.port.query('SELECT name FROM people WHERE id = 2', [], signal);
    await run.port.query("INSERT INTO people (name) VALUES ('eve')", [], signal);
    await run.finish();
  };
  await perRun();
  const resets: number[] = [];
  for (let i = 0; i < 200; i++) resets.push((await timeIt(perRun)).ms);
  await sandbox.close();

  const started = createRunPool({ size: 1 });
  if (!started.ok) throw new Error(started.error.message);
  const pool = started.value;
  let withDb: number;
  let without: number;
  try {
    const dbRun = () => pool.run({ source: DB_PROGRAM, request: REQUEST, sandbox: { sql: DB_SEED } });
    const plain = () => pool.run({ source: TUNED_PROGRAM, request: REQUEST });
    await dbRun();
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < 200; i++) {
      a.push((await timeIt(dbRun)).ms);
      b.push((await timeIt(plain)).ms);
    }
    withDb = median(a);
    without = median(b);
  } finally {
    await pool.close();
  }
  const reset = median(resets);
  return [
    {
      name: 'database per run: a new PGlite against the sandbox reset (one rolled-back transaction)',
      ratio: median(fromDump) / reset,
      unit: '× the reset (cheapest new instance)',
      goal: { text: 'a run with a database does not pay for a new instance', met: reset < median(fromDump) / 10 },
      detail: `new PGlite with initdb ${cold.ms.toFixed(0)} ms; from a dump ${median(fromDump).toFixed(0)} ms; clone() ${median(clones).toFixed(0)} ms (medians of 3); the sandbox's SELECT + INSERT + reset ${reset.toFixed(2)} ms (median of 200)`,
    },
    {
      name: 'database per run through the pool: a run with a SELECT and an INSERT against one without',
      ratio: withDb / without,
      unit: '× the run without a database',
      detail: `one worker, one run at a time, medians of 200: with the database ${withDb.toFixed(2)} ms, without ${without.toFixed(2)} ms`,
    },
  ];
}

export const runtimeSuite: BenchSuite = {
  name: 'runtime',
  run: async () => [...(await benchPool()), ...(await benchDatabase()), ...(await benchRest())],
};

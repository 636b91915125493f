/**
 * The run pool with the real worker and interpreter: runs answer off this thread, each in its own sandbox; a
 * runaway loop stops on the step budget, a run over its time or memory has its worker replaced and answers a
 * clear error, a cancelled run stops (queued or running), and the pool goes on serving after each.
 * Nothing here is timed: budgets are judged by the codes the runs answer.
 */
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRunPool, type RunPool, type RunRequest } from '../../../../src/runtime/host';
import { buildRunWorker } from './fakeWorker';

const request = (query: Record<string, string> = {}): RunRequest => ({ method: 'GET', query, headers: {}, body: null });
const LOOP = 'startLoop(i, 1, 100000000)\n  addVar(x, i)\nendLoop()\naddResult(x)\n';
const GROW = 'startLoop(i, 1, 100000000)\n  variableToList(i, l)\nendLoop()\naddResult(l)\n';

describe('runtime host: the run pool', function () {
  this.timeout(60_000);
  let script: string;
  let dispose: () => void;
  const pools: RunPool[] = [];
  const pool = (options: Parameters<typeof createRunPool>[0]) => {
    const made = createRunPool({ script, ...options });
    assert.ok(made.ok);
    pools.push(made.value);
    return made.value;
  };

  before(async () => {
    ({ script, dispose } = await buildRunWorker());
  });
  after(async () => {
    await Promise.all(pools.map((p) => p.close()));
    dispose();
  });

  it('runs a program for a request and answers its result; runs are isolated from each other', async () => {
    const p = pool({ size: 2 });
    const runs = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        p.run({ source: 'addParam(n, v)\naddVar(seen, v)\naddResult(seen)\n', request: request({ n: `v${i}` }) }),
      ),
    );
    runs.forEach((run, i) => {
      assert.equal(run.status, 200);
      assert.deepEqual(run.result, { seen: `v${i}` });
      assert.equal(run.error, undefined);
    });
    const clean = await p.run({ source: 'addResult(seen)\n', request: request() });
    assert.deepEqual(clean.result, { seen: null }, 'nothing of an earlier run is left');
  });

  it('hands a run its trace, bounded when asked (the editor asks for the first steps of a long loop)', async () => {
    const p = pool({ size: 1 });
    const source = 'startLoop(i, 1, 50000)\n  addVar(x, i)\nendLoop()\naddResult(x)\n';
    const bounded = await p.run({ source, request: request(), trace: true, maxTraceSteps: 100 });
    assert.equal(bounded.steps?.length, 100);
    assert.deepEqual(bounded.steps?.[2], { line: 2, command: 'addVar', changes: { x: 1 } });
    assert.equal(bounded.stepsOmitted, 100_002 - 100);
    assert.deepEqual(bounded.result, { x: 50000 });
    const none = await p.run({ source, request: request() });
    assert.equal(none.steps, undefined);
  });

  it('fixes the clock and the generator per run (--now, --seed)', async () => {
    const p = pool({ size: 1 });
    const source =
      'getDateTime("%Y-%m-%d", 0, "UTC", today)\nrandomString("[a-z]", 12, token)\naddResult(today)\naddResult(token)\n';
    const sandbox = { nowMs: Date.parse('2030-05-06T07:08:09Z'), seed: 11 };
    const [a, b] = await Promise.all([
      p.run({ source, request: request(), sandbox }),
      p.run({ source, request: request(), sandbox }),
    ]);
    assert.equal(a?.error, undefined, a?.error?.message);
    assert.equal(a?.result.today, '2030-05-06');
    assert.equal(typeof a?.result.token, 'string');
    assert.deepEqual(b?.result, a?.result);
  });

  it('a runaway loop stops on the step budget; the worker is kept', async () => {
    const p = pool({ size: 1, maxSteps: 10_000 });
    const run = await p.run({ source: LOOP, request: request() });
    assert.equal(run.status, 500);
    assert.equal(run.error?.code, 'step-budget');
    assert.equal(run.error?.line, 2);
    assert.equal(p.started, 1);
  });

  it('a run over its wall-time budget answers time-budget, and a new worker serves the next run', async () => {
    const p = pool({ size: 1, maxSteps: Number.MAX_SAFE_INTEGER, timeoutMs: 150 });
    const run = await p.run({ source: LOOP, request: request() });
    assert.equal(run.error?.code, 'time-budget');
    assert.match(run.error?.message ?? '', /longer than its time budget of 150 ms/);
    assert.equal(p.started, 2);
    const next = await p.run({ source: 'addVar(a, 1)\naddResult(a)\n', request: request() });
    assert.deepEqual(next.result, { a: 1 });
  });

  it('a run over its memory cap answers memory-budget, and a new worker serves the next run', async () => {
    const p = pool({ size: 1, maxSteps: Number.MAX_SAFE_INTEGER, timeoutMs: 60_000, memoryMb: 16 });
    const run = await p.run({ source: GROW, request: request() });
    assert.equal(run.error?.code, 'memory-budget');
    assert.match(run.error?.message ?? '', /memory budget of 16 MiB/);
    assert.equal(p.started, 2);
    const next = await p.run({ source: 'addVar(a, 2)\naddResult(a)\n', request: request() });
    assert.deepEqual(next.result, { a: 2 });
  });

  it('cancels a run that has not started without touching its worker', async () => {
    const p = pool({ size: 1, maxSteps: Number.MAX_SAFE_INTEGER, timeoutMs: 60_000 });
    const first = new AbortController();
    const second = new AbortController();
    const running = p.run({ source: LOOP, request: request(), signal: first.signal });
    const queued = p.run({ source: 'addVar(a, 3)\naddResult(a)\n', request: request(), signal: second.signal });
    second.abort();
    assert.equal((await queued).error?.code, 'cancelled');
    first.abort();
    assert.equal((await running).error?.code, 'cancelled');
    const already = new AbortController();
    already.abort();
    const never = await p.run({ source: 'addVar(a, 1)\n', request: request(), signal: already.signal });
    assert.equal(never.error?.code, 'cancelled');
    const next = await p.run({ source: 'addVar(a, 4)\naddResult(a)\n', request: request() });
    assert.deepEqual(next.result, { a: 4 });
  });

  it('cancels a running run by replacing its worker (the run is waiting on an allowed host)', async () => {
    const held: ServerResponse[] = [];
    let arrived: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const server = createServer((_req, res) => {
      held.push(res);
      arrived();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const p = pool({ size: 1, timeoutMs: 60_000 });
      const controller = new AbortController();
      const running = p.run({
        source: `RequestGet("http://127.0.0.1:${port}/hold", "", "", reply)\naddResult(reply)\n`,
        request: request(),
        sandbox: { allowHttp: [{ host: '127.0.0.1', port }] },
        signal: controller.signal,
      });
      await reached;
      controller.abort();
      const stopped = await running;
      assert.equal(stopped.error?.code, 'cancelled');
      assert.equal(p.started, 2);
      const next = await p.run({ source: 'addVar(a, 5)\naddResult(a)\n', request: request() });
      assert.deepEqual(next.result, { a: 5 });
    } finally {
      for (const res of held) res.destroy();
      server.close();
    }
  });

  it('gives runs the sandbox: a recorded response, and a database seeded for the run', async () => {
    const p = pool({ size: 1 });
    const http = await p.run({
      source: 'RequestGet("https://api.example.com/x", "", "", reply)\naddResult(reply)\n',
      request: request(),
      sandbox: {
        fixtures: [{ method: 'GET', url: 'https://api.example.com/x', status: 200, headers: {}, body: 'hi' }],
      },
    });
    assert.equal(http.error, undefined, http.error?.message);
    assert.deepEqual(http.result, { reply: 'hi' });
    const db = await p.run({
      source: 'ormDirect("SELECT v FROM t", rows)\naddResult(rows)\n',
      request: request(),
      sandbox: { sql: "CREATE TABLE t (v text); INSERT INTO t VALUES ('seeded');" },
    });
    assert.equal(db.error, undefined, db.error?.message);
    assert.deepEqual(db.result, { rows: [{ v: 'seeded' }] });
  });
});

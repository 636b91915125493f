/**
 * The pool when a worker dies under a run (a stand-in worker that crashes on demand): the run it died under
 * answers worker-failed, the other runs of its batch are answered by the replacement, and the pool goes on.
 */
import assert from 'node:assert/strict';
import { createRunPool, type RunPool } from '../../../../src/runtime/host';
import { writeCrashingWorker } from './fakeWorker';

const request = { method: 'GET', query: {}, headers: {}, body: null };

describe('runtime host: a worker that crashes', function () {
  this.timeout(30_000);
  let pool: RunPool;
  let dispose: () => void;

  before(() => {
    const worker = writeCrashingWorker();
    dispose = worker.dispose;
    const made = createRunPool({ size: 1, script: worker.script });
    assert.ok(made.ok);
    pool = made.value;
  });
  after(async () => {
    await pool.close();
    dispose();
  });

  it('answers worker-failed for the run it died under, and the rest of its batch through a new worker', async () => {
    assert.equal(pool.started, 1);
    // The first run goes out alone; the next three wait and go out together as one batch.
    const runs = ['first', 'before', 'crash', 'after'].map((source) => pool.run({ source, request }));
    const [first, before, crash, after] = await Promise.all(runs);
    assert.deepEqual(first?.result, { echo: 'first' });
    assert.deepEqual(before?.result, { echo: 'before' });
    assert.equal(crash?.status, 500);
    assert.equal(crash?.error?.code, 'worker-failed');
    assert.match(crash?.error?.message ?? '', /worker failed/);
    assert.deepEqual(after?.result, { echo: 'after' });
    assert.equal(pool.started, 2, 'one replacement');
    const next = await pool.run({ source: 'again', request });
    assert.deepEqual(next.result, { echo: 'again' });
  });

  it('a closed pool answers pool-closed without running anything', async () => {
    const made = createRunPool({ size: 1, script: writeCrashingWorker().script });
    assert.ok(made.ok);
    await made.value.close();
    const result = await made.value.run({ source: 'x', request });
    assert.equal(result.error?.code, 'pool-closed');
  });
});

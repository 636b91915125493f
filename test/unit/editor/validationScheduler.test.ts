import assert from 'node:assert/strict';
// internal-import: the debounce scheduler, tested with fake timers
import { ValidationScheduler, type Timers } from '../../../src/editor/diagnostics/validationScheduler';

/** Timers that fire only when the test says so. */
class ManualTimers implements Timers {
  private next = 1;
  readonly pending = new Map<number, { fn: () => void; ms: number }>();
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.pending.set(id, { fn, ms });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  fireAll(): void {
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const t of due) t.fn();
  }
}

interface Deferred {
  key: string;
  version: number;
  signal: AbortSignal;
  resolve(value: string): void;
}

function harness() {
  const timers = new ManualTimers();
  const calls: Deferred[] = [];
  const applied: [string, number, string][] = [];
  const scheduler = new ValidationScheduler<string>(
    (key, version, signal) => new Promise((resolve) => calls.push({ key, version, signal, resolve })),
    (key, version, result) => applied.push([key, version, result]),
    timers,
  );
  return { timers, calls, applied, scheduler };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('editor: validation scheduler', () => {
  it('debounces typing into one run for the newest version', async () => {
    const { timers, calls, applied, scheduler } = harness();
    scheduler.request('a', 1, 300);
    scheduler.request('a', 2, 300);
    scheduler.request('a', 3, 300);
    assert.equal(timers.pending.size, 1);
    timers.fireAll();
    assert.deepEqual(
      calls.map((c) => c.version),
      [3],
    );
    calls[0]?.resolve('v3');
    await flush();
    assert.deepEqual(applied, [['a', 3, 'v3']]);
  });

  it('aborts an in-flight run when a newer version arrives and never applies its late result', async () => {
    const { calls, applied, scheduler } = harness();
    scheduler.request('a', 1, 0);
    scheduler.request('a', 2, 0);
    const [old, current] = calls;
    assert.ok(old && current);
    assert.equal(old.signal.aborted, true);
    assert.equal(current.signal.aborted, false);
    current.resolve('new');
    await flush();
    old.resolve('old');
    await flush();
    assert.deepEqual(applied, [['a', 2, 'new']]);
  });

  it('drops results of a forgotten (closed) document', async () => {
    const { calls, applied, scheduler } = harness();
    scheduler.request('a', 1, 0);
    scheduler.forget('a');
    assert.equal(calls[0]?.signal.aborted, true);
    calls[0]?.resolve('late');
    await flush();
    assert.deepEqual(applied, []);
    assert.equal(scheduler.isPending('a'), false);
  });

  it('keeps documents independent', async () => {
    const { timers, calls, applied, scheduler } = harness();
    scheduler.request('a', 1, 100);
    scheduler.request('b', 7, 100);
    timers.fireAll();
    for (const c of calls) c.resolve(`${c.key}${c.version}`);
    await flush();
    assert.deepEqual(applied.sort(), [
      ['a', 1, 'a1'],
      ['b', 7, 'b7'],
    ]);
  });

  it('survives a run that throws and reports pending state', async () => {
    const timers = new ManualTimers();
    const applied: string[] = [];
    const scheduler = new ValidationScheduler<string>(
      () => {
        throw new Error('boom');
      },
      (_k, _v, r) => applied.push(r),
      timers,
    );
    scheduler.request('a', 1, 0);
    await flush();
    assert.equal(scheduler.isPending('a'), false);
    assert.deepEqual(applied, []);
  });
});

/**
 * The parser service's scheduler on a fake clock with fake executors that
 * finish only when the test says so: admission, dropping, lanes and the
 * throughput estimate, counted through the executors (never timed).
 */
import assert from 'node:assert/strict';
import { validateAvap } from '../../../src/parser';
import type { ValidationResult } from '../../../src/parser/types';
// internal-import: the service has no library entry; its scheduler, tested without workers
import {
  ParseScheduler,
  ThroughputEstimate,
  type JobOutcome,
  type ParseExecutor,
  type ParseJob,
} from '../../../src/server/scheduler';

class FakeClock {
  constructor(public current = 1_000_000) {}
  now(): number {
    return this.current;
  }
}

/** An executor whose parses finish when `finish()` is called; it records every source it was given. */
class HeldExecutor implements ParseExecutor {
  readonly parsed: string[] = [];
  private pending: { resolve: (r: ValidationResult) => void; reject: (e: Error) => void; source: string }[] = [];

  parse(source: string): Promise<ValidationResult> {
    this.parsed.push(source);
    return new Promise((resolve, reject) => this.pending.push({ resolve, reject, source }));
  }

  get busy(): boolean {
    return this.pending.length > 0;
  }

  finish(clock?: FakeClock, tookMs = 0): void {
    if (clock) clock.current += tookMs;
    const next = this.pending.shift();
    next?.resolve(validateAvap(next.source));
  }

  crash(): void {
    this.pending.shift()?.reject(new Error('worker exited with code 1'));
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

function job(source: string, deadline = Infinity, extra: Partial<ParseJob> = {}): ParseJob {
  return { source, filename: 'a.avap', bytes: Buffer.byteLength(source), deadline, ...extra };
}

/** A source of exactly `bytes` ASCII bytes. */
function sized(bytes: number, tag = 'x'): string {
  return `// ${tag}${'.'.repeat(Math.max(0, bytes - 4 - tag.length))}\n`;
}

describe('parser service: scheduler (admission, queue, workers)', () => {
  it('keeps every worker busy and queues the rest', async () => {
    const executors = [new HeldExecutor(), new HeldExecutor()];
    const scheduler = new ParseScheduler(executors);
    const tickets = ['a', 'b', 'c'].map((tag) => scheduler.submit(job(`addVar(${tag}, 1)\n`)));
    assert.deepEqual(
      executors.map((e) => e.parsed.length),
      [1, 1],
      'both workers start at once',
    );
    assert.equal(scheduler.stats().queued, 1);
    executors[0]?.finish();
    await settle();
    assert.equal(executors[0]?.parsed.length, 2, 'the free worker takes the queued call');
    executors[0]?.finish();
    executors[1]?.finish();
    const outcomes = await Promise.all(tickets.map((t) => t.outcome));
    assert.deepEqual(
      outcomes.map((o) => o.kind),
      ['verdict', 'verdict', 'verdict'],
    );
    assert.equal(scheduler.stats().computed, 3);
  });

  it('drops a queued call whose deadline passed: it is never parsed', async () => {
    const clock = new FakeClock();
    const worker = new HeldExecutor();
    const scheduler = new ParseScheduler([worker], { clock, priorBytesPerMs: 1e6 });
    const first = scheduler.submit(job('addVar(a, 1)\n', clock.now() + 1000));
    const late = scheduler.submit(job('addVar(late, 1)\n', clock.now() + 1000));
    worker.finish(clock, 1500);
    assert.equal((await first.outcome).kind, 'verdict');
    assert.deepEqual(await late.outcome, { kind: 'expired' });
    assert.deepEqual(worker.parsed, ['addVar(a, 1)\n'], 'the expired call never reached a worker');
    assert.equal(scheduler.stats().expired, 1);
    assert.equal(scheduler.stats().computed, 1);
  });

  it('sweeps expired calls out of the queue when the next call arrives, so they stop counting as work ahead', async () => {
    const clock = new FakeClock();
    const worker = new HeldExecutor();
    const scheduler = new ParseScheduler([worker], { clock, priorBytesPerMs: 1e6 });
    scheduler.submit(job('addVar(a, 1)\n'));
    const stale = scheduler.submit(job('addVar(b, 1)\n', clock.now() + 10));
    clock.current += 50;
    scheduler.submit(job('addVar(c, 1)\n', clock.now() + 1000));
    assert.deepEqual(await stale.outcome, { kind: 'expired' });
    assert.equal(scheduler.stats().queued, 1);
    worker.finish();
    await settle();
    assert.deepEqual(worker.parsed, ['addVar(a, 1)\n', 'addVar(c, 1)\n']);
  });

  it('answers `overloaded` for a queued call that can no longer finish in time, before its deadline, without parsing it', async () => {
    const clock = new FakeClock();
    const timers: { run: () => void; ms: number }[] = [];
    const setTimer = (run: () => void, ms: number) => {
      const entry = { run, ms };
      timers.push(entry);
      return { cancel: () => timers.splice(timers.indexOf(entry), 1) };
    };
    const worker = new HeldExecutor();
    // 100 bytes per ms, no fixed cost: a 10 000-byte source costs 100 ms. Deadline 1000 ms → reserve 250 ms.
    const scheduler = new ParseScheduler([worker], { clock, priorBytesPerMs: 100, fixedCostBytes: 0, setTimer });
    scheduler.submit(job(sized(10_000, 'running'), clock.now() + 1000));
    const waiting = scheduler.submit(job(sized(10_000, 'waiting'), clock.now() + 1000));
    // It must start by 1000 − 250 − 100 = 650 ms; the timer is set for just after.
    assert.deepEqual(
      timers.map((t) => t.ms),
      [651],
    );
    clock.current += 651;
    timers.shift()?.run();
    const outcome = await waiting.outcome;
    assert.equal(outcome.kind, 'overloaded');
    assert.match(
      outcome.kind === 'overloaded' ? outcome.reason : '',
      /waited in the queue too long to finish before its deadline/,
    );
    assert.equal(scheduler.stats().shed, 1);
    worker.finish();
    await settle();
    assert.equal(worker.parsed.length, 1, 'the shed call was never parsed');
  });

  it('drops a queued call whose caller went away, by cancel() or by the call reporting it', async () => {
    const worker = new HeldExecutor();
    const scheduler = new ParseScheduler([worker]);
    scheduler.submit(job('addVar(a, 1)\n'));
    const cancelled = scheduler.submit(job('addVar(b, 1)\n'));
    let gone = false;
    const left = scheduler.submit(job('addVar(c, 1)\n', Infinity, { cancelled: () => gone }));
    cancelled.cancel();
    gone = true;
    worker.finish();
    assert.deepEqual(await cancelled.outcome, { kind: 'cancelled' });
    assert.deepEqual(await left.outcome, { kind: 'cancelled' });
    assert.deepEqual(worker.parsed, ['addVar(a, 1)\n']);
    assert.equal(scheduler.stats().cancelled, 2);
  });

  it('refuses at once, without parsing, when queued work cannot finish within the deadline (safety 2)', async () => {
    const clock = new FakeClock();
    const workers = [new HeldExecutor(), new HeldExecutor()];
    // 1000 bytes per ms and no fixed cost: a 100 000-byte source costs 100 ms on one worker.
    const scheduler = new ParseScheduler(workers, { clock, priorBytesPerMs: 1000, fixedCostBytes: 0 });
    const deadline = clock.now() + 1000;
    const outcomes: JobOutcome[] = [];
    const tickets = Array.from({ length: 12 }, (_, i) => scheduler.submit(job(sized(100_000, `n${i}`), deadline)));
    // Call k (0-based, k ≥ 2) has k × 100 ms of work ahead (2 running, k − 2 queued) spread over 2 workers, then 100 ms
    // of its own: 50k + 100 ms. Admitted while 2 × estimate ≤ 1000 ms, i.e. k ≤ 8; calls 9, 10 and 11 are refused.
    for (const ticket of tickets.slice(9)) outcomes.push(await ticket.outcome);
    assert.deepEqual(
      outcomes.map((o) => o.kind),
      ['overloaded', 'overloaded', 'overloaded'],
    );
    const first = outcomes[0];
    assert.ok(first?.kind === 'overloaded');
    assert.equal(first.estimatedMs, 550);
    assert.match(first.reason, /queued work needs ~550 ms; the deadline leaves 1000 ms/);
    assert.equal(scheduler.stats().refused, 3);
    assert.equal(scheduler.stats().queued, 7);
    assert.equal(workers[0]!.parsed.length + workers[1]!.parsed.length, 2, 'refusals cost no parsing');
  });

  it('learns the throughput from measured parses and then admits more', async () => {
    const clock = new FakeClock();
    const worker = new HeldExecutor();
    const scheduler = new ParseScheduler([worker], { clock, priorBytesPerMs: 100, fixedCostBytes: 0, smoothing: 1 });
    const deadline = () => clock.now() + 1000;
    // At the prior (100 bytes/ms) a 60 000-byte source needs 600 ms: × 2 > 1000 → refused.
    assert.equal((await scheduler.submit(job(sized(60_000), deadline())).outcome).kind, 'overloaded');
    // A small call measured at 10 000 bytes in 1 ms teaches 10 000 bytes/ms.
    const probe = scheduler.submit(job(sized(10_000), Infinity));
    worker.finish(clock, 1);
    await probe.outcome;
    assert.equal(Math.round(scheduler.stats().bytesPerMs), 10_000);
    const admitted = scheduler.submit(job(sized(60_000), deadline()));
    worker.finish(clock, 6);
    assert.equal((await admitted.outcome).kind, 'verdict');
  });

  it('serves small sources first, ahead of queued bulk work', async () => {
    const worker = new HeldExecutor();
    const scheduler = new ParseScheduler([worker], { smallBytes: 1000 });
    scheduler.submit(job(sized(5000, 'bulk1')));
    scheduler.submit(job(sized(5000, 'bulk2')));
    const small = scheduler.submit(job('addVar(small, 1)\n'));
    worker.finish();
    await settle();
    assert.equal(worker.parsed[1], 'addVar(small, 1)\n');
    worker.finish();
    assert.equal((await small.outcome).kind, 'verdict');
  });

  it('estimates a small source only behind the small lane and the running calls', () => {
    const clock = new FakeClock();
    const worker = new HeldExecutor();
    const scheduler = new ParseScheduler([worker], {
      clock,
      smallBytes: 1000,
      priorBytesPerMs: 1000,
      fixedCostBytes: 0,
    });
    for (let i = 0; i < 5; i++) scheduler.submit(job(sized(10_000, `bulk${i}`)));
    assert.equal(scheduler.estimateMs(500), 10 + 0.5, 'the running bulk call, then its own parse');
    assert.equal(scheduler.estimateMs(5000), 50 + 5, 'all bulk work, then its own parse');
  });

  it('calls without a deadline are refused only when the queue is full', async () => {
    const worker = new HeldExecutor();
    const scheduler = new ParseScheduler([worker], { maxQueuedBytes: 2500, priorBytesPerMs: 1 });
    scheduler.submit(job(sized(1000)));
    const queued = [scheduler.submit(job(sized(1000))), scheduler.submit(job(sized(1000)))];
    const full = await scheduler.submit(job(sized(1000))).outcome;
    assert.equal(full.kind, 'overloaded');
    assert.match(full.kind === 'overloaded' ? full.reason : '', /the queue holds 2000 bytes \(limit 2500\)/);
    for (let i = 0; i < 3; i++) {
      worker.finish();
      await settle();
    }
    assert.deepEqual(
      (await Promise.all(queued.map((t) => t.outcome))).map((o) => o.kind),
      ['verdict', 'verdict'],
    );
  });

  it('a crashed worker fails only its own call; the next call is served', async () => {
    const worker = new HeldExecutor();
    const scheduler = new ParseScheduler([worker]);
    const doomed = scheduler.submit(job('addVar(a, 1)\n'));
    const next = scheduler.submit(job('addVar(b, 1)\n'));
    worker.crash();
    assert.deepEqual(await doomed.outcome, { kind: 'failed', message: 'worker exited with code 1' });
    await settle();
    worker.finish();
    assert.equal((await next.outcome).kind, 'verdict');
  });

  it('the throughput estimate is an exponentially weighted average per byte plus a fixed cost', () => {
    const estimate = new ThroughputEstimate(1000, 1000, 0.5);
    assert.equal(estimate.cost(9000), 10);
    estimate.observe(9000, 30); // sample: 3 ms per 1000 units; halfway from 1 → 2
    assert.equal(estimate.cost(9000), 20);
    assert.equal(estimate.bytesPerMs, 500);
  });
});

/**
 * The client-side admission queue in front of the parser, over a fake port
 * whose calls finish when the test says so, a manual clock and a manual
 * timer: how many calls are in flight, who goes first, what happens to an
 * overloaded answer. Behaviour only, never timing.
 */
import assert from 'node:assert/strict';
import { type CircuitSnapshot, type ParserOutcome, type ParserPort, AdmissionParser } from '../../../src/core';
import { ManualClock } from '../../support/fakes/ports';
import { validateAvap } from '../../../src/parser';

type Answer = 'verdict' | 'overloaded' | 'timeout';

/** A ParserPort whose calls wait until `answer()`; records what was sent. */
class HeldPort implements ParserPort {
  readonly sent: string[] = [];
  private readonly pending: { source: string; resolve: (o: ParserOutcome) => void }[] = [];
  resets = 0;
  readonly parserVersion = 'fake-1';

  validate(source: string): Promise<ParserOutcome> {
    this.sent.push(source);
    return new Promise((resolve) => this.pending.push({ source, resolve }));
  }

  get inFlight(): number {
    return this.pending.length;
  }

  /** Answers the oldest call in flight. */
  answer(kind: Answer = 'verdict'): void {
    const next = this.pending.shift();
    if (!next) throw new Error('nothing in flight');
    if (kind === 'verdict') next.resolve({ kind: 'validated', result: validateAvap(next.source) });
    else if (kind === 'overloaded')
      next.resolve({
        kind: 'unavailable',
        reason: 'overloaded',
        detail: 'parser service overloaded',
        retryAfterMs: 300,
      });
    else next.resolve({ kind: 'unavailable', reason: 'timeout', detail: 'deadline exceeded' });
  }

  circuit(): CircuitSnapshot {
    return { state: 'closed', consecutiveFailures: 0 };
  }

  resetCircuit(): void {
    this.resets += 1;
  }

  onCircuitChange(): () => void {
    return () => undefined;
  }
}

class ManualTimer {
  scheduled: { run: () => void; ms: number }[] = [];
  readonly set = (run: () => void, ms: number) => {
    const entry = { run, ms };
    this.scheduled.push(entry);
    return {
      cancel: () => {
        this.scheduled = this.scheduled.filter((e) => e !== entry);
      },
    };
  };

  fire(): void {
    const due = this.scheduled;
    this.scheduled = [];
    for (const entry of due) entry.run();
  }
}

const settle = async () => {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

/** Answers every call in flight, and those the answers let go, until none is left. */
async function answerAll(inner: HeldPort): Promise<void> {
  while (inner.inFlight > 0) {
    inner.answer();
    await settle();
  }
}

function setup(options: { initialLimit?: number; maxWaitMs?: number; smallChars?: number } = {}) {
  const inner = new HeldPort();
  const clock = new ManualClock();
  const timer = new ManualTimer();
  const admission = new AdmissionParser(inner, { clock, setTimer: timer.set, ...options });
  return { inner, clock, timer, admission };
}

const source = (tag: string, size = 0) => `addVar(${tag}, 1)\n${'/'.repeat(size)}`;

describe('core/parser admission queue', () => {
  it('sends at most `limit` calls and queues the rest; verdicts let waiting calls go', async () => {
    const { inner, admission } = setup({ initialLimit: 2 });
    const outcomes = ['a', 'b', 'c', 'd'].map((tag) => admission.validate(source(tag), `${tag}.avap`));
    await settle();
    assert.equal(inner.inFlight, 2);
    assert.deepEqual(admission.load(), { limit: 2, waiting: 2, inFlight: 2 });
    inner.answer();
    await settle();
    assert.equal(inner.inFlight, admission.load().limit, 'a completion refills the window (grown by one)');
    assert.equal(inner.sent.length, 4);
    await answerAll(inner);
    assert.deepEqual(
      (await Promise.all(outcomes)).map((o) => o.kind),
      ['validated', 'validated', 'validated', 'validated'],
    );
  });

  it('grows the limit while callers wait: one more per verdict until the first congestion', async () => {
    const { inner, admission } = setup({ initialLimit: 2 });
    const all = Array.from({ length: 10 }, (_, i) => admission.validate(source(`v${i}`), 'a.avap'));
    await settle();
    inner.answer();
    await settle();
    assert.equal(admission.load().limit, 3);
    assert.equal(inner.inFlight, 3);
    inner.answer();
    inner.answer();
    await settle();
    assert.equal(admission.load().limit, 5);
    await answerAll(inner);
    await Promise.all(all);
  });

  it('an overloaded answer halves the limit and puts the call back at the head; it is retried when a call completes', async () => {
    const { inner, admission } = setup({ initialLimit: 4 });
    const first = admission.validate(source('first'), 'a.avap');
    const rest = ['b', 'c', 'd', 'e'].map((tag) => admission.validate(source(tag), `${tag}.avap`));
    await settle();
    inner.answer('overloaded');
    await settle();
    assert.equal(admission.load().limit, 2);
    assert.equal(inner.inFlight, 3, 'nothing new is sent until the in-flight calls drop below the halved limit');
    inner.answer();
    inner.answer();
    await settle();
    assert.equal(inner.sent[4], source('first'), 'the refused call is the next one sent');
    await answerAll(inner);
    const outcome = await first;
    assert.equal(outcome.kind, 'validated', 'the caller sees the verdict, not the overloaded answer');
    await Promise.all(rest);
  });

  it('answers to calls sent in the same round halve the limit only once', async () => {
    const { inner, admission } = setup({ initialLimit: 8 });
    const all = Array.from({ length: 8 }, (_, i) => admission.validate(source(`r${i}`), 'a.avap'));
    await settle();
    for (let i = 0; i < 4; i += 1) inner.answer('overloaded');
    await settle();
    assert.equal(admission.load().limit, 4);
    await answerAll(inner);
    await Promise.all(all);
  });

  it("with nothing in flight, an overloaded call is retried after the service's estimate; small calls not yet refused still go", async () => {
    const { inner, admission, timer } = setup({ initialLimit: 4, smallChars: 100 });
    const big = admission.validate(source('big', 500), 'big.avap');
    await settle();
    inner.answer('overloaded');
    await settle();
    assert.deepEqual(
      timer.scheduled.map((t) => t.ms),
      [300],
    );
    assert.equal(inner.inFlight, 0, 'the refused call waits for the timer');
    const small = admission.validate(source('small'), 'small.avap');
    await settle();
    assert.equal(inner.sent.at(-1), source('small'));
    inner.answer();
    await settle();
    assert.equal((await small).kind, 'validated');
    timer.fire();
    await settle();
    assert.equal(inner.sent.at(-1), source('big', 500));
    inner.answer();
    assert.equal((await big).kind, 'validated');
  });

  it('gives up with the overloaded outcome (no verdict, no failure) once a refused call has waited maxWaitMs', async () => {
    const { inner, admission, timer, clock } = setup({ maxWaitMs: 1000 });
    const call = admission.validate(source('x'), 'x.avap');
    await settle();
    inner.answer('overloaded');
    await settle();
    clock.advance(400);
    timer.fire();
    await settle();
    inner.answer('overloaded');
    await settle();
    clock.advance(700);
    timer.fire();
    const outcome = await call;
    assert.equal(outcome.kind === 'unavailable' && outcome.reason, 'overloaded');
    assert.match(
      outcome.kind === 'unavailable' ? outcome.detail : '',
      /gave up after waiting 1100 ms for parser capacity/,
    );
    assert.equal(inner.sent.length, 2);
  });

  it('serves small sources first', async () => {
    const { inner, admission } = setup({ initialLimit: 1, smallChars: 100 });
    const calls = [
      admission.validate(source('bulk1', 500), 'a'),
      admission.validate(source('bulk2', 500), 'b'),
      admission.validate(source('small'), 'c'),
    ];
    await settle();
    inner.answer();
    await settle();
    assert.equal(inner.sent[1], source('small'));
    inner.answer();
    await settle();
    inner.answer();
    await Promise.all(calls);
  });

  it('a caller that gives up while waiting is answered `cancelled` and never sent', async () => {
    const { inner, admission } = setup({ initialLimit: 1 });
    const first = admission.validate(source('a'), 'a');
    const controller = new AbortController();
    const waiting = admission.validate(source('b'), 'b', controller.signal);
    controller.abort();
    assert.deepEqual(await waiting, {
      kind: 'unavailable',
      reason: 'cancelled',
      detail: 'cancelled while waiting for parser capacity',
    });
    inner.answer();
    await first;
    assert.deepEqual(inner.sent, [source('a')]);
  });

  it('a caller that gives up while its refused call waits for the retry leaves no retry timer behind', async () => {
    const { inner, admission, timer } = setup();
    const controller = new AbortController();
    const call = admission.validate(source('x'), 'x.avap', controller.signal);
    await settle();
    inner.answer('overloaded');
    await settle();
    assert.equal(timer.scheduled.length, 1, 'the retry is scheduled');
    controller.abort();
    const outcome = await call;
    assert.equal(outcome.kind === 'unavailable' && outcome.reason, 'cancelled');
    assert.deepEqual(timer.scheduled, [], 'nobody waits for it: the timer (which keeps the process alive) is gone');
    assert.equal(inner.sent.length, 1);
  });

  it('a timeout halves the limit and is handed to the caller as it is', async () => {
    const { inner, admission } = setup({ initialLimit: 4 });
    const call = admission.validate(source('t'), 't');
    await settle();
    inner.answer('timeout');
    const outcome = await call;
    assert.equal(outcome.kind === 'unavailable' && outcome.reason, 'timeout');
    assert.equal(admission.load().limit, 2);
  });

  it('passes the circuit, its reset and the parser version through', () => {
    const { inner, admission } = setup();
    assert.deepEqual(admission.circuit(), { state: 'closed', consecutiveFailures: 0 });
    admission.resetCircuit();
    assert.equal(inner.resets, 1);
    assert.equal(admission.parserVersion, 'fake-1');
  });
});

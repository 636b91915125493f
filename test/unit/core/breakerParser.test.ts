import assert from 'node:assert/strict';
import {
  BreakerParser,
  CANARY_FILENAME,
  LOG_CLOSED,
  LOG_HALF_OPEN,
  LOG_SKIP,
  type ParserTransport,
  type TransportResult,
} from '../../../src/core';
import { prefixed } from '../../../src/core/ports';
import { ManualClock, memoryLogger } from '../../support/fakes/ports';
import { validateAvap } from '../../../src/parser';

/** An in-memory transport whose next results are scripted; records every call. */
class FakeTransport implements ParserTransport {
  calls: { source: string; filename: string }[] = [];
  failing: TransportResult | undefined;
  reconnects = 0;
  pending: ((r: TransportResult) => void) | undefined;
  hold = false;
  async call(
    source: string,
    filename: string,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<TransportResult> {
    this.calls.push({ source, filename });
    if (this.hold) {
      return new Promise((resolve) => {
        this.pending = resolve;
        options.signal?.addEventListener(
          'abort',
          () => resolve({ ok: false, error: { kind: 'cancelled', message: 'cancelled' } }),
          { once: true },
        );
      });
    }
    if (this.failing) return this.failing;
    return { ok: true, value: validateAvap(source) };
  }
  reconnect() {
    this.reconnects += 1;
  }
  close() {
    /* nothing to release */
  }
}

const DOWN: TransportResult = { ok: false, error: { kind: 'unavailable', message: 'connect ECONNREFUSED' } };
const SLOW: TransportResult = { ok: false, error: { kind: 'timeout', message: 'deadline exceeded' } };
const BUSY: TransportResult = {
  ok: false,
  error: { kind: 'overloaded', message: 'parser service overloaded', retryAfterMs: 840 },
};

function setup(timeoutMs = 2000) {
  const transport = new FakeTransport();
  const clock = new ManualClock();
  const logger = memoryLogger();
  const parser = new BreakerParser(transport, { timeoutMs, threshold: 3, cooldownMs: 30_000, clock, logger });
  return { transport, clock, logger, parser };
}

describe('core/parser BreakerParser (cockatiel circuit breaker)', () => {
  it('returns the verdict, and an INVALID verdict is not a failure', async () => {
    const { parser } = setup();
    for (let i = 0; i < 5; i += 1) {
      const outcome = await parser.validate('getSHA256(p, h)\n', 'a.avap');
      assert.equal(outcome.kind, 'validated');
      assert.equal(outcome.kind === 'validated' && outcome.result.valid, false);
    }
    assert.deepEqual(parser.circuit(), { state: 'closed', consecutiveFailures: 0 });
  });

  it('opens after 3 consecutive transport failures and then makes no call', async () => {
    const { parser, transport, logger, clock } = setup();
    transport.failing = DOWN;
    const reasons: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const outcome = await parser.validate('addResult(x)', 'a.avap');
      assert.equal(outcome.kind, 'unavailable');
      if (outcome.kind === 'unavailable') reasons.push(outcome.reason);
    }
    assert.deepEqual(reasons, ['transport', 'transport', 'transport']);
    const snapshot = parser.circuit();
    assert.equal(snapshot.state, 'open');
    assert.equal(snapshot.nextProbeAt, clock.now() + 30_000);
    assert.equal(transport.calls.length, 3);
    const skipped = await parser.validate('addResult(x)', 'a.avap');
    assert.deepEqual(skipped.kind === 'unavailable' && skipped.reason, 'circuit-open');
    assert.equal(transport.calls.length, 3, 'no call while open');
    assert.ok(logger.lines.includes(prefixed(LOG_SKIP)));
  });

  it('counts deadline failures, and a success in between resets the count', async () => {
    const { parser, transport } = setup();
    transport.failing = SLOW;
    await parser.validate('x = 1', 'a');
    await parser.validate('x = 1', 'a');
    assert.equal(parser.circuit().consecutiveFailures, 2);
    transport.failing = undefined;
    await parser.validate('x = 1', 'a');
    assert.equal(parser.circuit().consecutiveFailures, 0);
    transport.failing = SLOW;
    const outcome = await parser.validate('x = 1', 'a');
    assert.equal(outcome.kind === 'unavailable' && outcome.reason, 'timeout');
    assert.equal(parser.circuit().state, 'closed');
  });

  it('after the cooldown probes with the canary, closes, then validates the request', async () => {
    const { parser, transport, clock, logger } = setup();
    transport.failing = DOWN;
    for (let i = 0; i < 3; i += 1) await parser.validate('addResult(x)', 'a.avap');
    clock.advance(29_999);
    await parser.validate('addResult(x)', 'a.avap');
    assert.equal(transport.calls.length, 3, 'still cooling down');
    clock.advance(1);
    transport.failing = undefined;
    const changes: string[] = [];
    parser.onCircuitChange((s) => changes.push(s.state));
    const outcome = await parser.validate('addResult(x)', 'user.avap');
    assert.equal(outcome.kind, 'validated');
    assert.deepEqual(
      transport.calls.slice(3).map((c) => c.filename),
      [CANARY_FILENAME, 'user.avap'],
    );
    assert.equal(transport.reconnects, 1);
    assert.equal(parser.circuit().state, 'closed');
    assert.deepEqual(changes, ['half-open', 'closed']);
    assert.ok(logger.lines.includes(prefixed(LOG_HALF_OPEN)));
    assert.ok(logger.lines.includes(prefixed(LOG_CLOSED)));
  });

  it('a failed probe re-opens the circuit for another cooldown without sending the request', async () => {
    const { parser, transport, clock } = setup();
    transport.failing = DOWN;
    for (let i = 0; i < 3; i += 1) await parser.validate('addResult(x)', 'a.avap');
    clock.advance(30_000);
    const outcome = await parser.validate('addResult(x)', 'user.avap');
    assert.equal(outcome.kind === 'unavailable' && outcome.reason, 'circuit-open');
    assert.deepEqual(
      transport.calls.slice(3).map((c) => c.filename),
      [CANARY_FILENAME],
    );
    const snapshot = parser.circuit();
    assert.equal(snapshot.state, 'open');
    assert.equal(snapshot.nextProbeAt, clock.now() + 30_000);
  });

  it('a cancellation is neither a failure nor a success', async () => {
    const { parser, transport } = setup();
    transport.failing = DOWN;
    await parser.validate('x = 1', 'a');
    await parser.validate('x = 1', 'a');
    transport.failing = undefined;
    transport.hold = true;
    const controller = new AbortController();
    const pending = parser.validate('x = 1', 'a', controller.signal);
    controller.abort();
    const outcome = await pending;
    assert.equal(outcome.kind === 'unavailable' && outcome.reason, 'cancelled');
    assert.equal(parser.circuit().consecutiveFailures, 2);
    assert.equal(parser.circuit().state, 'closed');
  });

  it('timeout 0 disables validation: state disabled and never a call', async () => {
    const { parser, transport } = setup(0);
    const outcome = await parser.validate('x = 1', 'a');
    assert.equal(outcome.kind === 'unavailable' && outcome.reason, 'disabled');
    assert.equal(parser.circuit().state, 'disabled');
    assert.equal(transport.calls.length, 0);
  });

  it('a size refusal is reported as rejected and does not count', async () => {
    const { parser, transport } = setup();
    transport.failing = { ok: false, error: { kind: 'rejected', message: 'too big' } };
    for (let i = 0; i < 4; i += 1) {
      const outcome = await parser.validate('x = 1', 'a');
      assert.equal(outcome.kind === 'unavailable' && outcome.reason, 'rejected');
    }
    assert.equal(parser.circuit().state, 'closed');
  });

  it('resetCircuit closes an open circuit and forgets failures', async () => {
    const { parser, transport } = setup();
    transport.failing = DOWN;
    for (let i = 0; i < 3; i += 1) await parser.validate('x = 1', 'a');
    assert.equal(parser.circuit().state, 'open');
    const seen: string[] = [];
    parser.onCircuitChange((s) => seen.push(s.state));
    parser.resetCircuit();
    assert.deepEqual(parser.circuit(), { state: 'closed', consecutiveFailures: 0 });
    assert.deepEqual(seen, ['closed']);
    transport.failing = undefined;
    assert.equal((await parser.validate('x = 1', 'a')).kind, 'validated');
  });

  it('an overloaded answer is no verdict for that call, but the parser counts as up: the circuit stays closed', async () => {
    const { parser, transport } = setup();
    transport.failing = DOWN;
    await parser.validate('addResult(x)', 'a.avap');
    await parser.validate('addResult(x)', 'a.avap');
    assert.equal(parser.circuit().consecutiveFailures, 2);
    transport.failing = BUSY;
    for (let i = 0; i < 10; i += 1) {
      const outcome = await parser.validate('addResult(x)', 'a.avap');
      assert.deepEqual(outcome, {
        kind: 'unavailable',
        reason: 'overloaded',
        detail: 'parser service overloaded',
        retryAfterMs: 840,
      });
    }
    assert.deepEqual(
      parser.circuit(),
      { state: 'closed', consecutiveFailures: 0 },
      'an answer from the service resets the failure count',
    );
    assert.equal(transport.calls.length, 12);
  });

  it('a timeout while the service answered other calls is `overloaded`, not a failure; with no answers, timeouts count', async () => {
    const held: ((r: TransportResult) => void)[] = [];
    const transport: ParserTransport = {
      call: (source) =>
        source.startsWith('hold')
          ? new Promise((resolve) => held.push(resolve))
          : Promise.resolve({ ok: true, value: validateAvap(source) }),
      close: () => undefined,
    };
    const parser = new BreakerParser(transport, {
      timeoutMs: 2000,
      threshold: 3,
      cooldownMs: 30_000,
      clock: new ManualClock(),
    });
    const slow = [
      parser.validate('hold 1', 'a.avap'),
      parser.validate('hold 2', 'b.avap'),
      parser.validate('hold 3', 'c.avap'),
    ];
    await parser.validate('addVar(a, 1)\n', 'ok.avap');
    for (const resolve of held.splice(0)) resolve(SLOW);
    for (const outcome of await Promise.all(slow)) {
      assert.equal(outcome.kind === 'unavailable' && outcome.reason, 'overloaded');
      assert.match(
        outcome.kind === 'unavailable' ? outcome.detail : '',
        /no answer within 2000 ms, but the parser service is up/,
      );
    }
    assert.deepEqual(parser.circuit(), { state: 'closed', consecutiveFailures: 0 });

    const silent = [
      parser.validate('hold 4', 'd.avap'),
      parser.validate('hold 5', 'e.avap'),
      parser.validate('hold 6', 'f.avap'),
    ];
    for (const resolve of held.splice(0)) resolve(SLOW);
    assert.deepEqual(
      (await Promise.all(silent)).map((o) => o.kind === 'unavailable' && o.reason),
      ['timeout', 'timeout', 'timeout'],
    );
    assert.equal(parser.circuit().state, 'open', 'a service that answers nothing is down');
  });

  it('after failures with no answer in between, one shared health check tells a busy service (not counted) from a dead one', async () => {
    let up = true;
    let checks = 0;
    const transport: ParserTransport = {
      call: () => Promise.resolve(SLOW),
      alive: () => {
        checks += 1;
        return Promise.resolve(up);
      },
      close: () => undefined,
    };
    const parser = new BreakerParser(transport, {
      timeoutMs: 2000,
      threshold: 3,
      cooldownMs: 30_000,
      clock: new ManualClock(),
    });
    const busy = await Promise.all([1, 2, 3, 4].map((i) => parser.validate(`addVar(a${i}, 1)`, 'a.avap')));
    assert.deepEqual(
      busy.map((o) => o.kind === 'unavailable' && o.reason),
      ['overloaded', 'overloaded', 'overloaded', 'overloaded'],
    );
    assert.equal(checks, 1, 'the failures that arrive together share one check');
    assert.equal(parser.circuit().state, 'closed');
    up = false;
    for (let i = 0; i < 3; i += 1) await parser.validate('addVar(a, 1)', 'a.avap');
    assert.equal(parser.circuit().state, 'open');
  });

  describe('the liveness check of a call that waits (a hung parser still answers its health check)', () => {
    const DEADLINE = 20;

    /** A transport whose calls wait until released; each liveness check answers as `checks` says, in turn. */
    function waitingTransport(checks: ('up' | 'down' | 'never' | 'down-late')[]) {
      const held: ((r: TransportResult) => void)[] = [];
      let asked = 0;
      let onCheck: () => void = () => undefined;
      const checked = new Promise<void>((resolve) => {
        onCheck = resolve;
      });
      /** Resolves when the first check has ended (or at once, for one that never does). */
      let firstEnded: Promise<unknown> = Promise.resolve();
      const transport: ParserTransport = {
        call: () => new Promise((resolve) => held.push(resolve)),
        alive: (timeoutMs) => {
          assert.equal(timeoutMs, DEADLINE, 'a check gets a deadline of its own');
          const answer = checks[asked] ?? 'never';
          asked += 1;
          onCheck();
          if (answer === 'never') return new Promise<boolean>(() => undefined);
          // A failure that comes well after its deadline: what a stalled event loop of our own looks like.
          const result =
            answer === 'down-late'
              ? new Promise<boolean>((resolve) => setTimeout(() => resolve(false), DEADLINE * 5))
              : Promise.resolve(answer === 'up');
          if (asked === 1) firstEnded = result;
          return result;
        },
        close: () => undefined,
      };
      return { transport, held, checked, firstEnded: () => firstEnded, asked: () => asked };
    }

    const cases = [
      {
        checks: ['down'],
        reason: 'timeout',
        asked: 1,
        failures: 1,
        what: 'a check that failed on time: a timeout that counts',
      },
      {
        checks: ['never'],
        reason: 'timeout',
        asked: 1,
        failures: 1,
        what: 'a check still unanswered after half a deadline (a hung parser): a timeout that counts',
      },
      { checks: ['up'], reason: 'overloaded', asked: 1, failures: 0, what: 'an answered check: busy, not counted' },
      {
        checks: ['down-late', 'up'],
        reason: 'overloaded',
        asked: 2,
        failures: 0,
        what: 'a check that failed late decides nothing: asked once more, answered',
      },
      {
        checks: ['down-late', 'down'],
        reason: 'timeout',
        asked: 2,
        failures: 1,
        what: 'a check that failed late, then one on time: counted',
      },
    ] as const;
    for (const c of cases) {
      it(`a call unanswered at half its deadline starts the check that decides it — ${c.what}`, async () => {
        const { transport, held, checked, firstEnded, asked } = waitingTransport([...c.checks]);
        const parser = new BreakerParser(transport, { timeoutMs: DEADLINE, threshold: 3, cooldownMs: 30_000 });
        const pending = parser.validate('addVar(a, 1)', 'a.avap');
        // The call still waits when the check goes out (and, but for a hung one, ends); then its deadline passes.
        await checked;
        await firstEnded();
        held.splice(0).forEach((resolve) => resolve(SLOW));
        const outcome = await pending;
        assert.equal(outcome.kind === 'unavailable' && outcome.reason, c.reason);
        assert.equal(asked(), c.asked);
        assert.equal(parser.circuit().consecutiveFailures, c.failures);
      });
    }

    it('no check while other calls are answered; a call answered in time starts none', async () => {
      let checks = 0;
      const held: ((r: TransportResult) => void)[] = [];
      const transport: ParserTransport = {
        call: (source) =>
          source.startsWith('hold')
            ? new Promise((resolve) => held.push(resolve))
            : Promise.resolve({ ok: true, value: validateAvap(source) }),
        alive: () => {
          checks += 1;
          return Promise.resolve(true);
        },
        close: () => undefined,
      };
      const parser = new BreakerParser(transport, { timeoutMs: DEADLINE, threshold: 3, cooldownMs: 30_000 });
      assert.equal((await parser.validate('addVar(a, 1)', 'a.avap')).kind, 'validated');
      const slow = parser.validate('hold', 'b.avap');
      await parser.validate('addVar(b, 1)', 'c.avap');
      // Past half the deadline of the held call: another answer came meanwhile, so no check goes out.
      await new Promise((resolve) => setTimeout(resolve, DEADLINE * 1.5));
      held.splice(0).forEach((resolve) => resolve(SLOW));
      const outcome = await slow;
      assert.equal(outcome.kind === 'unavailable' && outcome.reason, 'overloaded');
      assert.equal(checks, 0);
    });
  });
});

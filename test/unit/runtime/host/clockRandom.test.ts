/** The clock and random ports a test can fix (--now, --seed). */
import assert from 'node:assert/strict';
import { createClock, createRandom, parseNow, parseSeed } from '../../../../src/runtime/host';

describe('runtime host: clock and randomness', () => {
  it('a fixed clock always reads the same instant; the real one moves with Date.now', () => {
    const fixed = createClock(Date.parse('2026-03-01T12:00:00Z'));
    assert.equal(fixed.now(), 1772366400000);
    assert.equal(fixed.now(), 1772366400000);
    const real = createClock();
    const before = Date.now();
    const read = real.now();
    assert.ok(read >= before && read <= Date.now());
  });

  it('the same seed gives the same numbers, another seed others, all in [0, 1)', () => {
    const draw = (seed: number) => {
      const random = createRandom(seed);
      return Array.from({ length: 1000 }, () => random.next());
    };
    const a = draw(42);
    assert.deepEqual(draw(42), a);
    assert.notDeepEqual(draw(43), a);
    assert.ok(a.every((x) => x >= 0 && x < 1));
    const mean = a.reduce((s, x) => s + x, 0) / a.length;
    assert.ok(Math.abs(mean - 0.5) < 0.05, `mean ${mean}`);
    assert.equal(new Set(a).size, a.length);
  });

  it('parses --now as ISO 8601 or epoch milliseconds, --seed as a 32-bit unsigned integer', () => {
    assert.equal(parseNow('2026-03-01T12:00:00Z'), 1772366400000);
    assert.equal(parseNow('2026-03-01'), Date.parse('2026-03-01'));
    assert.equal(parseNow('1772366400000'), 1772366400000);
    assert.equal(parseNow('tomorrow'), undefined);
    assert.equal(parseNow('2026-13-45'), undefined);
    assert.equal(parseSeed('0'), 0);
    assert.equal(parseSeed('4294967295'), 4294967295);
    assert.equal(parseSeed('4294967296'), undefined);
    assert.equal(parseSeed('-1'), undefined);
    assert.equal(parseSeed('1.5'), undefined);
  });
});

import assert from 'node:assert/strict';
import { compareBy, isCompareBy, renderComparison, type AttemptEvent } from '../../../src/core';

function attempt(
  generation: string,
  n: number,
  verdict: AttemptEvent['verdict'],
  fields: Partial<AttemptEvent>,
): AttemptEvent {
  return {
    schema_version: 1,
    generation_id: generation,
    timestamp: '2026-02-01T10:00:00.000Z',
    attempt: n,
    max_attempts: 2,
    query_type: 'CODE_GENERATION',
    verdict,
    errors: [],
    converged: null,
    validation_status: '',
    final: false,
    model: 'qwen3:1.7b',
    temperature: 0,
    seed: 42,
    parser_version: 'p1',
    latencies_ms: {},
    commands: [],
    ...fields,
  };
}

/** One generation: first attempt `first`, and a retry `second` when given. */
function generation(
  id: string,
  at: string,
  first: 'valid' | 'invalid',
  second: 'valid' | 'invalid' | undefined,
  fields: Partial<AttemptEvent> = {},
): AttemptEvent[] {
  const last = second ?? first;
  const status = last === 'valid' ? '' : 'INVALID_UNRESOLVED';
  const one = attempt(id, 1, first, {
    timestamp: at,
    final: !second,
    validation_status: first === 'valid' ? '' : 'INVALID_UNRESOLVED',
    ...fields,
  });
  return second
    ? [one, attempt(id, 2, second, { timestamp: at, final: true, validation_status: status, ...fields })]
    : [one];
}

describe('core/telemetry: before/after comparison', () => {
  // Parser p1 (older): 3 of 4 first attempts invalid, 1 of 3 converges. Parser p2 (newer): 1 of 4 invalid, it converges.
  const events = [
    ...generation('a1', '2026-02-01T09:00:00Z', 'invalid', 'invalid', { parser_version: 'p1' }),
    ...generation('a2', '2026-02-01T09:10:00Z', 'invalid', 'valid', { parser_version: 'p1' }),
    ...generation('a3', '2026-02-01T09:20:00Z', 'invalid', 'invalid', { parser_version: 'p1' }),
    ...generation('a4', '2026-02-01T09:30:00Z', 'valid', undefined, { parser_version: 'p1' }),
    ...generation('b1', '2026-02-03T09:00:00Z', 'valid', undefined, { parser_version: 'p2' }),
    ...generation('b2', '2026-02-03T09:10:00Z', 'invalid', 'valid', { parser_version: 'p2' }),
    ...generation('b3', '2026-02-03T09:20:00Z', 'valid', undefined, { parser_version: 'p2' }),
    ...generation('b4', '2026-02-03T09:30:00Z', 'valid', undefined, { parser_version: 'p2' }),
  ];

  it("groups generations by parser version, oldest first, with each group's figures and the deltas", () => {
    const c = compareBy([...events].reverse(), 'parser_version');
    assert.deepEqual(
      c.groups.map((g) => [
        g.value,
        g.generations,
        g.validatedGenerations,
        g.firstAttemptInvalidRate,
        g.multiAttemptConvergenceRate,
        g.nonConvergenceRate,
        g.needs_review,
      ]),
      [
        ['p1', 4, 4, 0.75, 1 / 3, 0.5, true],
        ['p2', 4, 4, 0.25, 1, 0, true],
      ],
    );
    assert.equal(c.groups[0]?.from, '2026-02-01T09:00:00Z');
    assert.equal(c.groups[1]?.to, '2026-02-03T09:30:00Z');
    assert.equal(c.deltas.length, 1);
    const d = c.deltas[0];
    assert.deepEqual([d?.before, d?.after], ['p1', 'p2']);
    assert.equal(d?.firstAttemptInvalidRate, -0.5);
    assert.ok(Math.abs((d?.multiAttemptConvergenceRate ?? 0) - 2 / 3) < 1e-12);
    assert.equal(d?.nonConvergenceRate, -0.5);
    assert.deepEqual(c.uncontrolled, [], 'model and temperature were frozen');
    const text = renderComparison(c);
    assert.match(
      text,
      /^Before\/after by parser_version \(first seen first\):\n {2}p1 {2}2026-02-01…2026-02-01 {2}4 generation\(s\), 4 validated\n {4}first-attempt invalid 75\.0 %/,
    );
    assert.match(
      text,
      / {2}p1 → p2: first-attempt invalid −50\.0 pts, converged after retry \+66\.7 pts, mean attempts −0\.25, non-convergence −50\.0 pts\n/,
    );
    assert.doesNotMatch(text, /not controlled/);
  });

  it('names the other settings that changed: the delta is then not attributable to the compared field alone', () => {
    const mixed = events.map((e) => (e.generation_id === 'b3' ? { ...e, model: 'qwen3:4b' } : e));
    const c = compareBy(mixed, 'parser_version');
    assert.deepEqual(c.uncontrolled, ['model: qwen3:1.7b, qwen3:4b']);
    assert.match(
      renderComparison(c),
      /not controlled — other settings changed too, so the delta is not attributable to parser_version alone: model: qwen3:1\.7b, qwen3:4b/,
    );
    const byModel = compareBy(mixed, 'model');
    assert.deepEqual(
      byModel.groups.map((g) => [g.value, g.generations]),
      [
        ['qwen3:1.7b', 7],
        ['qwen3:4b', 1],
      ],
    );
    assert.deepEqual(byModel.uncontrolled, ['parser_version: p1, p2']);
  });

  it('a single group has no delta; a generation is grouped by its first attempt; unrecorded values are (unknown)', () => {
    const one = compareBy(
      events.filter((e) => e.parser_version === 'p2'),
      'parser_version',
    );
    assert.deepEqual([one.groups.length, one.deltas.length, one.uncontrolled], [1, 0, []]);
    const switched = compareBy(
      [
        attempt('g', 1, 'invalid', { model: 'a:1' }),
        attempt('g', 2, 'valid', { model: 'b:1', final: true }),
        attempt('h', 1, 'valid', { model: '', final: true }),
      ],
      'model',
    );
    assert.deepEqual(
      switched.groups.map((g) => [g.value, g.generations]),
      [
        ['(unknown)', 1],
        ['a:1', 1],
      ],
    );
    assert.equal(compareBy([], 'model').groups.length, 0);
    assert.match(renderComparison(compareBy([], 'model')), /no generations/);
    assert.ok(isCompareBy('model') && isCompareBy('parser_version') && !isCompareBy('seed'));
  });
});

import assert from 'node:assert/strict';
import { computeMetrics, parseTelemetry, compareBy } from '../../../src/core';
// internal-import: the metrics view's HTML, tested without a webview
import { barChart, metricsBody } from '../../../src/editor/metrics/metricsHtml';

describe('editor: metrics view', () => {
  it('draws bars proportional to their values', () => {
    const svg = barChart('t', [
      { label: 'a', value: 4 },
      { label: 'b', value: 2 },
      { label: 'c', value: 0 },
    ]);
    const widths = [...svg.matchAll(/<rect [^>]*width="(\d+)"/g)].map((m) => Number(m[1]));
    assert.equal(widths.length, 3);
    assert.equal(widths[0], 2 * (widths[1] ?? 0));
    assert.equal(widths[2], 0);
    assert.match(barChart('empty', []), /no data yet/);
  });

  it('escapes values taken from the log', () => {
    const svg = barChart('t', [{ label: '<script>x</script>', value: 1 }]);
    assert.doesNotMatch(svg, /<script>/);
    assert.match(svg, /&lt;script&gt;/);
  });

  it('renders an empty log without failing', () => {
    const body = metricsBody(computeMetrics([], 0), '/tmp/none.jsonl');
    assert.match(body, /AVAP validation metrics/);
    assert.match(body, /0 event\(s\)/);
  });

  it('renders a real log: status counts, rates and rejected values', () => {
    const event = (
      generation: string,
      attempt: number,
      verdict: string,
      status: string,
      final: boolean,
      errors: object[] = [],
    ) =>
      JSON.stringify({
        schema_version: 1,
        generation_id: generation,
        timestamp: '2026-01-01T00:00:00Z',
        attempt,
        max_attempts: 2,
        query_type: 'CODE_GENERATION',
        verdict,
        errors,
        converged: final ? verdict === 'valid' : null,
        validation_status: status,
        final,
        model: 'm',
        temperature: 0,
        seed: 1,
        parser_version: 'p',
        latencies_ms: {},
        commands: ['getSHA256'],
      });
    const bad = [{ code: 'E001', field: 'command', received: 'getSHA256', severity: 'error', line: 1 }];
    const log = [
      event('g1', 1, 'invalid', '', false, bad),
      event('g1', 2, 'valid', '', true),
      event('g2', 1, 'invalid', 'INVALID_UNRESOLVED', false, bad),
      event('g2', 2, 'invalid', 'INVALID_UNRESOLVED', true, bad),
      '{"torn":',
    ].join('\n');
    const parsed = parseTelemetry(log);
    const body = metricsBody(computeMetrics(parsed.events, parsed.skipped.length), 'log.jsonl');
    assert.match(body, /1 unreadable line\(s\) skipped/);
    assert.match(body, /getSHA256/);
    assert.match(body, /INVALID_UNRESOLVED/);
    assert.match(body, /100\.0 %/);
  });

  it('flags a log that needs review, draws the trend per day, the convergence per rejected value and the comparisons', () => {
    const event = (
      generation: string,
      day: string,
      attempt: number,
      verdict: string,
      final: boolean,
      fields: object = {},
    ) => ({
      schema_version: 1,
      generation_id: generation,
      timestamp: `2026-01-${day}T12:00:00Z`,
      attempt,
      max_attempts: 2,
      query_type: 'CODE_GENERATION',
      verdict,
      errors:
        verdict === 'invalid'
          ? [{ code: 'E001', field: 'command', received: 'getSHA256', severity: 'error', line: 1 }]
          : [],
      converged: final ? verdict === 'valid' : null,
      validation_status: final && verdict === 'invalid' ? 'INVALID_UNRESOLVED' : '',
      final,
      model: 'm:1',
      temperature: 0,
      seed: 1,
      parser_version: 'p1',
      latencies_ms: {},
      commands: [],
      ...fields,
    });
    const events = [
      event('g1', '01', 1, 'invalid', false),
      event('g1', '01', 2, 'valid', true),
      event('g2', '01', 1, 'invalid', false),
      event('g2', '01', 2, 'invalid', true),
      event('g3', '02', 1, 'valid', true, { parser_version: 'p2' }),
      event('g4', '02', 1, 'valid', true, { parser_version: 'p2' }),
    ];
    const metrics = computeMetrics(events as never);
    const body = metricsBody(metrics, 'log.jsonl', [
      compareBy(events as never, 'parser_version'),
      compareBy(events as never, 'model'),
    ]);
    assert.match(
      body,
      /<section class="warnings"><h2>Needs review<\/h2><p>The first-attempt invalid rate \(50\.0 %\) is above 15\.0 %/,
    );
    const trend = body.slice(body.indexOf('First-attempt invalid rate per day'), body.indexOf('Most rejected values'));
    assert.match(trend, /2026-01-01<\/span>.*100\.0 % \(2\/2\)/s);
    assert.match(trend, /2026-01-02<\/span>.*0\.0 % \(0\/2\)/s);
    assert.match(body, /Runs that rejected each value and still converged.*getSHA256.*50\.0 % \(1\/2; unresolved 1\)/s);
    assert.match(body, /First-attempt invalid rate by parser_version \(first seen first\)/);
    assert.match(
      body,
      /<li>p1 → p2: first-attempt invalid −100\.0 pts, converged after retry —, non-convergence −50\.0 pts<\/li>/,
    );
    assert.doesNotMatch(body, /by model/, 'one model: nothing to compare');
    const calm = metricsBody(computeMetrics(events.slice(4) as never), 'log.jsonl');
    assert.doesNotMatch(calm, /Needs review/);
  });
});

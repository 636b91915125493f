import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  calledNames,
  type AttemptEvent,
  jsonlTelemetry,
  computeMetrics,
  renderMetrics,
  parseTelemetry,
} from '../../../src/core';
import { memoryLogger } from '../../support/fakes/ports';

function event(
  generation: string,
  attempt: number,
  verdict: AttemptEvent['verdict'],
  fields: Partial<AttemptEvent> = {},
): AttemptEvent {
  return {
    schema_version: 1,
    generation_id: generation,
    timestamp: '2026-01-01T00:00:00.000Z',
    attempt,
    max_attempts: 2,
    query_type: 'CODE_GENERATION',
    verdict,
    errors: [],
    converged: null,
    validation_status: '',
    final: false,
    model: 'm',
    temperature: 0,
    seed: 42,
    parser_version: 'p',
    latencies_ms: {},
    commands: [],
    ...fields,
  };
}

const e001 = (received: string, line = 1) => ({
  code: 'E001' as const,
  field: 'command',
  line,
  expected: 'a known AVAP command',
  received,
  severity: 'error' as const,
});

describe('core/telemetry', () => {
  it('appends one JSON line per event and never rewrites the file', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tel-'));
    try {
      const file = path.join(dir, 'sub', 'log.jsonl');
      const sink = jsonlTelemetry(file);
      sink.record(event('g1', 1, 'valid'));
      await sink.flush();
      const first = readFileSync(file, 'utf8');
      sink.record(event('g2', 1, 'invalid'));
      sink.record(event('g2', 2, 'valid'));
      await sink.flush();
      const after = readFileSync(file, 'utf8');
      assert.ok(after.startsWith(first));
      assert.deepEqual(
        after
          .trim()
          .split('\n')
          .map((l) => (JSON.parse(l) as AttemptEvent).generation_id),
        ['g1', 'g2', 'g2'],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a sink that cannot write logs once and never throws', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tel-'));
    try {
      const blocker = path.join(dir, 'file');
      writeFileSync(blocker, 'x');
      const logger = memoryLogger();
      const sink = jsonlTelemetry(path.join(blocker, 'log.jsonl'), logger);
      sink.record(event('g', 1, 'valid'));
      sink.record(event('g', 2, 'valid'));
      await sink.flush();
      assert.equal(logger.lines.filter((l) => l.includes('telemetry: cannot append')).length, 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a torn last line (a crash mid-write) is reported once and the next event starts on a fresh line', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tel-'));
    try {
      const file = path.join(dir, 'log.jsonl');
      writeFileSync(
        file,
        `${JSON.stringify(event('before', 1, 'valid'))}\n${JSON.stringify(event('torn', 1, 'valid')).slice(0, 40)}`,
      );
      const logger = memoryLogger();
      const sink = jsonlTelemetry(file, logger);
      sink.record(event('after', 1, 'invalid'));
      sink.record(event('after', 2, 'valid'));
      await sink.flush();
      const log = parseTelemetry(readFileSync(file, 'utf8'));
      assert.deepEqual(
        log.events.map((e) => `${e.generation_id}/${e.attempt}`),
        ['before/1', 'after/1', 'after/2'],
      );
      assert.deepEqual(log.skipped, [{ line: 2, reason: 'not a complete JSON line' }]);
      assert.equal(logger.lines.filter((l) => l.includes('was cut short')).length, 1, logger.lines.join('\n'));
      assert.equal(logger.lines.filter((l) => l.includes('cannot append')).length, 0);
      assert.deepEqual(await sink.health(), { ok: true, value: undefined });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a full disk is reported once per failure streak, never thrown, and shows in health()', async () => {
    const logger = memoryLogger();
    const sink = jsonlTelemetry('/dev/full', logger);
    assert.doesNotThrow(() => {
      sink.record(event('g', 1, 'invalid'));
      sink.record(event('g', 2, 'valid'));
    });
    await sink.flush();
    assert.deepEqual(
      logger.lines.filter((l) => l.includes('telemetry:')),
      ['[ptvl] telemetry: cannot append to /dev/full: ENOSPC; generation continues without it'],
    );
    const health = await sink.health();
    assert.ok(!health.ok && health.error.kind === 'unwritable' && health.error.code === 'ENOSPC');
  });

  it('skips a torn last line and non-events, keeps the rest', () => {
    const text = `${JSON.stringify(event('a', 1, 'valid'))}\n\n{"hello":1}\n${JSON.stringify(event('b', 1, 'valid'))}\n{"generation_id":"c","att`;
    const log = parseTelemetry(text);
    assert.deepEqual(
      log.events.map((e) => e.generation_id),
      ['a', 'b'],
    );
    assert.deepEqual(log.skipped, [
      { line: 3, reason: 'not a telemetry event' },
      { line: 5, reason: 'not a complete JSON line' },
    ]);
  });

  it('computes every metric', () => {
    const events: AttemptEvent[] = [
      // g1: valid first time
      event('g1', 1, 'valid', { final: true, converged: true, commands: ['addParam', 'encodeSHA256'] }),
      // g2: invalid then fixed
      event('g2', 1, 'invalid', {
        errors: [e001('getSHA256')],
        commands: ['addParam', 'getSHA256'],
        validation_status: 'INVALID_UNRESOLVED',
      }),
      event('g2', 2, 'valid', { final: true, converged: true, commands: ['addParam', 'encodeSHA256'] }),
      // g3: invalid twice
      event('g3', 1, 'invalid', {
        errors: [e001('getSHA256'), e001('returnResult', 3)],
        commands: ['getSHA256', 'returnResult'],
        validation_status: 'INVALID_UNRESOLVED',
      }),
      event('g3', 2, 'invalid', {
        errors: [e001('getSHA256')],
        final: true,
        converged: false,
        validation_status: 'INVALID_UNRESOLVED',
        commands: ['getSHA256', 'addResult'],
      }),
      // g4: parser unavailable
      event('g4', 1, 'unavailable', { final: true, converged: false, validation_status: 'PARSER_UNAVAILABLE' }),
      // g5: a RETRIEVAL answer
      event('g5', 1, 'skipped', { query_type: 'RETRIEVAL', final: true, max_attempts: 1 }),
    ];
    const m = computeMetrics(events, 2);
    assert.equal(m.events, 7);
    assert.equal(m.skippedLines, 2);
    assert.equal(m.generations, 5);
    assert.deepEqual(m.byQueryType, { CODE_GENERATION: 4, RETRIEVAL: 1 });
    assert.equal(m.codeGenerations, 4);
    assert.equal(m.validatedGenerations, 3);
    assert.equal(m.firstAttemptInvalidRate, 2 / 3);
    assert.equal(m.multiAttemptConvergenceRate, 1 / 2);
    assert.equal(m.meanAttemptsAmongConverged, 1.5);
    assert.equal(m.nonConvergenceRate, 1 / 3);
    assert.deepEqual(m.statusCounts, { '': 2, INVALID_UNRESOLVED: 1, PARSER_UNAVAILABLE: 1 });
    // g2 rejected getSHA256 and converged; g3 rejected it (and returnResult) and did not.
    assert.deepEqual(m.rejectedValues, [
      {
        code: 'E001',
        value: 'getSHA256',
        occurrences: 3,
        generations: 2,
        outcomes: { converged: 1, unresolved: 1, undetermined: 0 },
        convergenceRate: 0.5,
      },
      {
        code: 'E001',
        value: 'returnResult',
        occurrences: 1,
        generations: 1,
        outcomes: { converged: 0, unresolved: 1, undetermined: 0 },
        convergenceRate: 0,
      },
    ]);
    assert.deepEqual(m.trend, [
      { day: '2026-01-01', validatedGenerations: 3, firstAttemptInvalid: 2, firstAttemptInvalidRate: 2 / 3 },
    ]);
    assert.equal(m.needs_review, true, '66.7 % > 15 %');
    assert.deepEqual(m.perCommand.slice(0, 2), [
      { command: 'getSHA256', usedInAttempts: 3, rejectedInAttempts: 3, rate: 1 },
      { command: 'returnResult', usedInAttempts: 1, rejectedInAttempts: 1, rate: 1 },
    ]);
    assert.deepEqual(
      m.perCommand.find((c) => c.command === 'addParam'),
      { command: 'addParam', usedInAttempts: 3, rejectedInAttempts: 0, rate: 0 },
    );
    const text = renderMetrics(m, 'log.jsonl');
    assert.match(text, /first-attempt invalid rate\s+66\.7 %\s+\(2\/3\)/);
    assert.match(text, /non-convergence rate\s+33\.3 %/);
    assert.match(text, /PARSER_UNAVAILABLE\s+1/);
    assert.match(text, /needs review: the first-attempt invalid rate is above 15\.0 %/);
    assert.match(text, /E001 getSHA256\s+3 \/ 2 {3}converged 1\/2 \(50\.0 %\), unresolved 1\n/);
    assert.match(text, /First-attempt invalid rate per day \(UTC\):\n {2}2026-01-01\s+66\.7 % {2}\(2\/3\)/);
    assert.equal(m.failed, 0);
  });

  it('counts failed and cancelled runs as failed, never as valid (new logs: no status; older logs: "" with an error code)', () => {
    const events: AttemptEvent[] = [
      event('ok', 1, 'valid', { final: true, converged: true }),
      // New format: the final event of a failed run carries no status.
      { ...event('down', 1, 'skipped', { final: true, error_code: 'llm-unreachable' }), validation_status: undefined },
      { ...event('cancel', 1, 'skipped', { final: true, error_code: 'cancelled' }), validation_status: undefined },
      // Older logs wrote "" with the error code.
      event('old', 1, 'skipped', { final: true, error_code: 'llm-timeout' }),
      // The retry could not be generated: the invalid first answer stands — an earned INVALID_UNRESOLVED.
      event('rf', 1, 'invalid', { errors: [e001('getSHA256')] }),
      event('rf', 2, 'skipped', {
        final: true,
        validation_status: 'INVALID_UNRESOLVED',
        error_code: 'llm-failed',
        stop_reason: 'retry-failed',
      }),
    ];
    const m = computeMetrics(events);
    assert.equal(m.codeGenerations, 5);
    assert.equal(m.failed, 3);
    assert.deepEqual(m.statusCounts, { '': 1, INVALID_UNRESOLVED: 1, PARSER_UNAVAILABLE: 0 });
    assert.match(renderMetrics(m, 'x'), /failed \/ cancelled\s+3/);
  });

  it('keys rejected values on the rule code, and counts blocking errors per rule (E-code for older events)', () => {
    const ruled = (rule: string, received: string, code: 'E001' | 'E004' = 'E001') => ({
      code,
      rule,
      field: 'command',
      line: 1,
      expected: 'a known command',
      received,
      severity: 'error' as const,
    });
    const events: AttemptEvent[] = [
      event('g1', 1, 'invalid', {
        errors: [ruled('unknown-command', 'getSHA256'), ruled('arity', 'getSHA256', 'E004')],
      }),
      event('g2', 1, 'invalid', { errors: [ruled('unknown-command', 'getSHA256'), e001('returnResult')] }),
    ];
    const m = computeMetrics(events);
    assert.deepEqual(m.rejectedValues, [
      {
        code: 'E001',
        rule: 'unknown-command',
        value: 'getSHA256',
        occurrences: 2,
        generations: 2,
        outcomes: { converged: 0, unresolved: 0, undetermined: 2 },
        convergenceRate: 0,
      },
      {
        code: 'E004',
        rule: 'arity',
        value: 'getSHA256',
        occurrences: 1,
        generations: 1,
        outcomes: { converged: 0, unresolved: 0, undetermined: 1 },
        convergenceRate: 0,
      },
      {
        code: 'E001',
        value: 'returnResult',
        occurrences: 1,
        generations: 1,
        outcomes: { converged: 0, unresolved: 0, undetermined: 1 },
        convergenceRate: 0,
      },
    ]);
    assert.deepEqual(m.byRule, [
      ['unknown-command', 2],
      ['arity', 1],
      ['E001', 1],
    ]);
    const text = renderMetrics(m, 'log.jsonl');
    assert.match(
      text,
      /E001 getSHA256\s+2 \/ 2 {3}converged 0\/2 \(0\.0 %\), unresolved 0, no verdict 2 {2}unknown-command/,
    );
    assert.match(text, /Blocking errors per rule:\n {2}unknown-command\s+2\n/);
  });

  it('the trend is the first-attempt invalid rate per UTC day of the first attempt, oldest first', () => {
    const day = (d: string) => ({ timestamp: `2026-03-${d}T23:59:00.000+00:00` });
    const m = computeMetrics([
      event('late', 1, 'invalid', { ...day('02'), validation_status: 'INVALID_UNRESOLVED' }),
      event('late', 2, 'valid', { timestamp: '2026-03-03T00:00:05.000Z', final: true, converged: true }),
      event('early1', 1, 'valid', { ...day('01'), final: true, converged: true }),
      event('early2', 1, 'valid', { ...day('01'), final: true, converged: true }),
      event('down', 1, 'unavailable', {
        ...day('01'),
        final: true,
        converged: false,
        validation_status: 'PARSER_UNAVAILABLE',
      }),
      event('odd', 1, 'valid', { timestamp: 'not a time', final: true, converged: true }),
    ]);
    assert.deepEqual(
      m.trend.map((t) => [t.day, t.validatedGenerations, t.firstAttemptInvalid, t.firstAttemptInvalidRate]),
      [
        ['2026-03-01', 2, 0, 0],
        ['2026-03-02', 1, 1, 1],
        ['unknown', 1, 0, 0],
      ],
      'a retry after midnight counts on the day of its first attempt; unvalidated generations are left out',
    );
  });

  it('needs review above 15 % first-attempt invalid, not at 15 % or with nothing validated', () => {
    const gens = (invalid: number, total: number) =>
      Array.from({ length: total }, (_, i) => event(`g${i}`, 1, i < invalid ? 'invalid' : 'valid', { final: true }));
    assert.equal(computeMetrics(gens(3, 20)).needs_review, false, '15 % exactly');
    assert.equal(computeMetrics(gens(4, 20)).needs_review, true, '20 %');
    assert.equal(computeMetrics([]).needs_review, false);
    assert.equal(computeMetrics([]).reviewThreshold, 0.15);
  });

  it('empty logs give n/a rates, not NaN', () => {
    const m = computeMetrics([]);
    assert.equal(m.firstAttemptInvalidRate, null);
    assert.match(renderMetrics(m, 'x'), /first-attempt invalid rate\s+n\/a/);
  });

  it('lists the names code calls, ignoring comments and strings', () => {
    assert.deepEqual(
      calledNames(
        'addVar(a, "getSHA256(x)")\n// returnResult(a)\nif(a, 1, "==")\nfunction f(x) {\n}\nx = itemFromList(l, 0, y)',
      ),
      ['addVar', 'if', 'f', 'itemFromList'],
    );
  });
});

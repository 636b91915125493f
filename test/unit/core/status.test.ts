/**
 * The one place that decides an answer's validation_status, and the request's
 * one retry cycle: table-driven.
 */
import assert from 'node:assert/strict';
import type { RetryCycle } from '../../../src/core';
import {
  claimRetry,
  describeSkip,
  newRetryCycle,
  retryAvailable,
  skipStopReason,
} from '../../../src/core/validation/retryCycle';
import { CODE_CHECKS, combineChecks, statusOf, type CodeCheck } from '../../../src/core/validation/status';

describe('core/validation: the status rule', () => {
  const table: [CodeCheck, string][] = [
    ['no-code', ''],
    ['valid', ''],
    ['invalid', 'INVALID_UNRESOLVED'],
    ['unavailable', 'PARSER_UNAVAILABLE'],
  ];
  for (const [check, status] of table) {
    it(`${check} → ${JSON.stringify(status)}`, () => assert.equal(statusOf(check), status));
  }

  it('covers every check', () => assert.deepEqual(table.map(([c]) => c).sort(), [...CODE_CHECKS].sort()));

  const combined: [CodeCheck[], CodeCheck][] = [
    [[], 'no-code'],
    [['valid'], 'valid'],
    [['valid', 'valid'], 'valid'],
    [['valid', 'unavailable'], 'unavailable'],
    [['unavailable', 'invalid'], 'invalid'],
    [['valid', 'invalid', 'valid'], 'invalid'],
    [['no-code', 'valid'], 'valid'],
  ];
  for (const [checks, expected] of combined) {
    it(`blocks ${JSON.stringify(checks)} → ${expected}: "" only when every block was validated`, () =>
      assert.equal(combineChecks(checks), expected));
  }
});

describe('core/validation: one retry cycle per request (D1 RC-08)', () => {
  it('the budget is 0 or 1; larger values are read as 1', () => {
    assert.deepEqual(
      [0, 1, 2, 5].map((n) => newRetryCycle(n).limit),
      [0, 1, 1, 1],
    );
  });

  it('the first trigger uses the cycle; every later one is skipped with the reason', () => {
    const cycle: RetryCycle = newRetryCycle(1);
    assert.equal(retryAvailable(cycle), true);
    assert.deepEqual(claimRetry(cycle, 'relevance'), { granted: true });
    assert.equal(retryAvailable(cycle), false);
    const parser = claimRetry(cycle, 'parser-trace');
    const judge = claimRetry(cycle, 'judge-hint');
    assert.deepEqual(parser, {
      granted: false,
      skip: { trigger: 'parser-trace', reason: 'cycle-used', usedBy: 'relevance' },
    });
    assert.deepEqual(judge, {
      granted: false,
      skip: { trigger: 'judge-hint', reason: 'cycle-used', usedBy: 'relevance' },
    });
    assert.deepEqual(cycle, {
      limit: 1,
      usedBy: 'relevance',
      skipped: [
        { trigger: 'parser-trace', reason: 'cycle-used', usedBy: 'relevance' },
        { trigger: 'judge-hint', reason: 'cycle-used', usedBy: 'relevance' },
      ],
    });
    assert.equal(!parser.granted && skipStopReason(parser.skip), 'retry-cycle-used-by-relevance');
    assert.equal(
      !parser.granted && describeSkip(parser.skip),
      "parser-trace: the request's one retry was already used by relevance",
    );
  });

  it('with a budget of 0 nothing is granted', () => {
    const cycle = newRetryCycle(0);
    const claim = claimRetry(cycle, 'parser-trace');
    assert.deepEqual(claim, { granted: false, skip: { trigger: 'parser-trace', reason: 'retries-disabled' } });
    assert.equal(!claim.granted && skipStopReason(claim.skip), 'retries-disabled');
  });
});

import assert from 'node:assert/strict';
// internal-import: the trace to E-code table, checked rule by rule
import { E_CODE_BY_RULE, errorFromTrace } from '../../../src/core/validation/fromTrace';
// internal-import: the repair instruction of each error, checked one by one
import { errorKey, instruction } from '../../../src/core/validation/normalizer';
// internal-import: the retry controller, tested on its own
import { RetryController } from '../../../src/core/validation/retryController';
import { contractFromTrace, repairInstructions, ERROR_CODES, type ValidationError } from '../../../src/core';
import { RULE_CODES, validateAvap, type TraceEntry } from '../../../src/parser';

const codesOf = (source: string) =>
  contractFromTrace(validateAvap(source).trace).errors.map((e) => [e.code, e.field, e.received]);

describe('core/validation contract, normalizer, retry controller', () => {
  it('maps parser findings onto stable E-codes', () => {
    assert.deepEqual(codesOf('getSHA256(p, h)'), [['E001', 'command', 'getSHA256']]);
    assert.equal(codesOf('package main')[0]?.[0], 'E002');
    assert.equal(codesOf('for i in range(10):')[0]?.[0], 'E003');
    assert.equal(codesOf('addResult(a, b)')[0]?.[0], 'E004');
    assert.equal(codesOf('if(a, 1, "==")\naddResult(a)')[0]?.[0], 'E005');
    assert.equal(codesOf('endLoop()')[0]?.[0], 'E005');
    assert.equal(Object.keys(ERROR_CODES).length, 9);
  });

  it('gives every rule of the catalogue exactly one parser E-code (E001–E006)', () => {
    assert.deepEqual(Object.keys(E_CODE_BY_RULE).sort(), [...RULE_CODES].sort());
    for (const code of RULE_CODES) assert.match(E_CODE_BY_RULE[code], /^E00[1-6]$/, code);
  });

  it('keys E-codes and the identical-error key on the rule code, never on the message', () => {
    const [entry] = validateAvap('addVar(a, 1)\naddResult(a, b)\n').trace as [TraceEntry];
    const reworded: TraceEntry = { ...entry, message: 'something else entirely (no arguments, got 0, block opened)' };
    const original = errorFromTrace(entry);
    const rewritten = errorFromTrace(reworded);
    assert.deepEqual([original.code, original.rule, original.field], ['E004', 'arity', 'arguments']);
    assert.deepEqual([rewritten.code, rewritten.rule, rewritten.field], [original.code, original.rule, original.field]);
    assert.equal(errorKey(rewritten), errorKey(original));
    assert.equal(errorKey(original), 'arity|arguments|2|addResult(a, b)');

    const controller = new RetryController(3);
    assert.deepEqual(controller.decide([original]), { retry: true });
    const again = controller.decide([rewritten]);
    assert.equal(again.retry === false && again.reason, 'repeated-error', 'a reworded message is the same error');
    const otherRule = new RetryController(3);
    otherRule.decide([original]);
    assert.deepEqual(
      otherRule.decide([{ ...original, rule: 'function-arity' }]),
      { retry: true },
      'another rule on the same token is a new error',
    );
  });

  it('is binary: warnings alone keep isValid true', () => {
    const result = contractFromTrace([
      {
        line: 1,
        column: 1,
        endColumn: 2,
        severity: 'warning',
        category: 'syntax_error',
        code: 'legacy-if',
        message: 'm',
        token: 't',
      },
    ]);
    assert.equal(result.isValid, true);
    assert.equal(result.errors[0]?.severity, 'warning');
  });

  it('turns errors into repair instructions, deduplicated, in line order, then the warnings (marked)', () => {
    const errors: ValidationError[] = [
      { code: 'E002', field: 'keyword', expected: 'use //', received: '#', severity: 'error', line: 3, message: '' },
      {
        code: 'E001',
        field: 'command',
        expected: 'encodeSHA256',
        received: 'getSHA256',
        severity: 'error',
        line: 1,
        message: '',
      },
      {
        code: 'E001',
        field: 'command',
        expected: 'encodeSHA256',
        received: 'getSHA256',
        severity: 'error',
        line: 1,
        message: '',
      },
      {
        code: 'E005',
        field: 'block',
        expected: '',
        received: 'end',
        severity: 'warning',
        line: 2,
        message: 'loop closed by end()',
      },
    ];
    assert.deepEqual(repairInstructions(errors), [
      "Line 1: replace 'getSHA256' with 'encodeSHA256'.",
      "Line 3: remove the foreign keyword '#' — use //.",
      'Line 2: warning: loop closed by end().',
    ]);
    assert.match(
      instruction({
        code: 'E001',
        field: 'command',
        expected: 'a command of the AVAP catalogue',
        received: 'foo',
        severity: 'error',
        line: 2,
        message: '',
      }),
      /'foo' is not an AVAP command/,
    );
  });

  it('lists the proven fix for each line that has one, and the plain instruction for the others', () => {
    // The program answers with addResult, so its print is no answer the parser could make of it (issue 30).
    const code = 'addParam("password", password)\nhashed = getSHA256(password)\nprint(hashed)\naddResult(password)\n';
    const errors = contractFromTrace(validateAvap(code).trace).errors;
    assert.deepEqual(
      errors.map((e) => [e.line, e.rule, e.fix !== undefined]),
      [
        [2, 'unknown-command', true],
        [3, 'foreign-keyword', false],
      ],
    );
    assert.deepEqual(repairInstructions(errors), [
      "Line 2: rewrite as 'encodeSHA256(password, hashed)' — the parser checked this fix.",
      "Line 3: remove the foreign keyword 'print' — return values in the response with addResult(variable).",
    ]);
  });

  it('retry controller: one retry by default, none for warnings, stops on a repeated error', () => {
    const err = (received: string, line = 1): ValidationError => ({
      code: 'E001',
      field: 'command',
      expected: 'x',
      received,
      severity: 'error',
      line,
      message: '',
    });
    const one = new RetryController(1);
    assert.deepEqual(one.decide([err('a')]), { retry: true });
    assert.equal(one.decide([err('b')]).retry, false);

    const many = new RetryController(3);
    assert.deepEqual(many.decide([err('a')]), { retry: true });
    const repeated = many.decide([err('a')]);
    assert.equal(repeated.retry === false && repeated.reason, 'repeated-error');
    assert.equal(errorKey(err('a')), 'E001|command|1|a');

    const zero = new RetryController(0);
    const exhausted = zero.decide([err('a')]);
    assert.equal(exhausted.retry === false && exhausted.reason, 'budget-exhausted');
    const warn = new RetryController(1).decide([{ ...err('a'), severity: 'warning' }]);
    assert.equal(warn.retry === false && warn.reason, 'only-warnings');
    assert.equal(new RetryController(1).decide(undefined).retry, false);
  });
});

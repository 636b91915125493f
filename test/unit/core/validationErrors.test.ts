import assert from 'node:assert/strict';
import { errorsFromTrace, E_CODE_BY_RULE, errorFromTrace } from '../../../src/core/validation/fromTrace';
import { errorKey, instruction, repairInstructions } from '../../../src/core/validation/normalizer';
import { claimRetry, newRetryCycle, unresolvedReason } from '../../../src/core/validation/retryCycle';
import { ERROR_CODES, type ValidationError } from '../../../src/core/validation/errors';
import { RULE_CODES, validateAvap, type TraceEntry } from '../../../src/parser';

const codesOf = (source: string) =>
  errorsFromTrace(validateAvap(source).trace).errors.map((e) => [e.code, e.field, e.received]);

describe('core/validation errors, normalizer, the retry budget', () => {
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

    // After the retry: the same error again (by key) is `repeated-error`, a new one only spends the budget.
    assert.equal(unresolvedReason([original], [rewritten]), 'repeated-error', 'a reworded message is the same error');
    assert.equal(
      unresolvedReason([original], [{ ...original, rule: 'function-arity' }]),
      'budget-exhausted',
      'another rule on the same token is a new error',
    );
  });

  it('is binary: warnings alone keep isValid true', () => {
    const result = errorsFromTrace([
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
    // The program answers with addResult, so its print is no answer the parser could make of it (a print is fixed
    // only in a program with no addResult, or in a branch that sets the status: src/parser/fixes/output.ts).
    const code = 'addParam("password", password)\nhashed = getSHA256(password)\nprint(hashed)\naddResult(password)\n';
    const errors = errorsFromTrace(validateAvap(code).trace).errors;
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

  it('the retry budget: one retry by default, none for warnings, stops on a repeated error', () => {
    const err = (received: string, line = 1): ValidationError => ({
      code: 'E001',
      field: 'command',
      expected: 'x',
      received,
      severity: 'error',
      line,
      message: '',
    });
    const one = newRetryCycle(1);
    assert.deepEqual(claimRetry(one, 'parser-trace'), { granted: true });
    assert.equal(claimRetry(one, 'parser-trace').granted, false, 'one retry, not two');
    assert.equal(unresolvedReason([err('a')], [err('b')]), 'budget-exhausted');

    const many = newRetryCycle(3);
    assert.equal(many.limit, 1, 'a budget above 1 is read as 1 (D1 RC-08)');
    assert.equal(unresolvedReason([err('a')], [err('a')]), 'repeated-error');
    assert.equal(errorKey(err('a')), 'E001|command|1|a');

    const zero = newRetryCycle(0);
    const disabled = claimRetry(zero, 'parser-trace');
    assert.equal(disabled.granted === false && disabled.skip.reason, 'retries-disabled');
    assert.equal(unresolvedReason(undefined, [{ ...err('a'), severity: 'warning' }]), 'only-warnings');
    assert.equal(unresolvedReason(undefined, [err('a')]), 'budget-exhausted', 'no attempt of the run to repeat');
  });
});

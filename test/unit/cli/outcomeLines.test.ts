/**
 * Text mode of generate/ask: every outcome other than a clean valid one is
 * told on stderr, whatever path the run took.
 */
import assert from 'node:assert/strict';
import { exitCodeFor, outcomeLines, streamedAsDelivered } from '../../../src/cli/commands/generate';
import type { PipelineResult } from '../../../src/core';
import { validateAvap } from '../../../src/parser';

const INVALID = 'addParam(password, p)\ngetSHA256(p, h)';
const base = (patch: Partial<PipelineResult>): PipelineResult => ({
  queryType: 'CODE_GENERATION',
  text: '',
  code: '',
  attempts: [],
  sources: [],
  relevanceRetry: false,
  generationId: 'g',
  ...patch,
});
const invalidAttempt = {
  attempt: 1,
  code: INVALID,
  outcome: { kind: 'validated' as const, result: validateAvap(INVALID) },
};

describe('cli: the outcome lines of text mode', () => {
  const cases: [string, PipelineResult, RegExp[], number][] = [
    [
      'valid code',
      base({
        code: 'addVar(a, 1)',
        validationStatus: '',
        attempts: [
          { attempt: 1, code: 'addVar(a, 1)', outcome: { kind: 'validated', result: validateAvap('addVar(a, 1)') } },
        ],
      }),
      [/^validation: valid AVAP after 1 attempt\(s\)$/],
      0,
    ],
    ['prose without code', base({ queryType: 'RETRIEVAL', text: 'prose', validationStatus: '' }), [], 0],
    [
      'invalid after the retry',
      base({
        code: INVALID,
        validationStatus: 'INVALID_UNRESOLVED',
        attempts: [invalidAttempt, { ...invalidAttempt, attempt: 2 }],
      }),
      [/^validation: INVALID_UNRESOLVED after 2 attempt\(s\)$/, /Line 2: 'getSHA256' not defined/],
      3,
    ],
    [
      'the retry generation failed',
      base({
        code: INVALID,
        validationStatus: 'INVALID_UNRESOLVED',
        attempts: [invalidAttempt],
        error: { code: 'llm-timeout', message: 'Ollama stalled' },
      }),
      [
        /^avap: Ollama stalled$/,
        /^validation: INVALID_UNRESOLVED after 1 attempt\(s\) \(the retry could not be generated\)$/,
        /Line 2: 'getSHA256'/,
      ],
      3,
    ],
    [
      'parser unavailable',
      base({
        code: 'addVar(a, 1)',
        validationStatus: 'PARSER_UNAVAILABLE',
        attempts: [
          {
            attempt: 1,
            code: 'addVar(a, 1)',
            outcome: { kind: 'unavailable', reason: 'timeout', detail: 'no answer in 2000 ms' },
          },
        ],
      }),
      [
        /^validation: PARSER_UNAVAILABLE after 1 attempt\(s\) — the code was not validated \(timeout: no answer in 2000 ms\); it may or may not be valid$/,
      ],
      4,
    ],
    [
      'failed before an answer',
      base({ error: { code: 'llm-unreachable', message: 'Ollama is not running' } }),
      [
        /^avap: Ollama is not running$/,
        /^validation: none — the run failed before any code was validated \(llm-unreachable\)$/,
      ],
      2,
    ],
    [
      'cancelled',
      base({ error: { code: 'cancelled', message: 'the request was cancelled' } }),
      [/validation: none — the run was cancelled/],
      130,
    ],
    [
      'degraded retrieval and a skipped retry',
      base({
        code: INVALID,
        validationStatus: 'INVALID_UNRESOLVED',
        attempts: [invalidAttempt],
        retrieval: { status: 'degraded', reason: 'retrieval failed (es): refused' },
        retry: {
          limit: 1,
          usedBy: 'relevance',
          skipped: [{ trigger: 'parser-trace', reason: 'cycle-used', usedBy: 'relevance' }],
        },
      }),
      [
        /^retrieval: degraded — answered without documentation context \(retrieval failed \(es\): refused\)$/,
        /^retry: skipped — parser-trace: the request's one retry was already used by relevance$/,
      ],
      3,
    ],
    [
      "repaired by the parser's fixes",
      base({
        code: 'addVar(a, 1)',
        validationStatus: '',
        attempts: [
          invalidAttempt,
          {
            attempt: 1,
            code: 'addVar(a, 1)',
            outcome: { kind: 'validated', result: validateAvap('addVar(a, 1)') },
            repairedBy: 'parser-fixes',
          },
        ],
        repair: {
          by: 'parser-fixes',
          attempt: 1,
          applied: [{ line: 2, code: 'unknown-command', title: "Replace 'getSHA256' with 'encodeSHA256'" }],
          rounds: 1,
        },
      }),
      [
        /^repair: attempt 1 repaired by the parser's fixes — 1 fix\(es\) in 1 round\(s\), validated by the parser service; no LLM retry spent$/,
        /^validation: valid AVAP after 1 attempt\(s\)$/,
      ],
      0,
    ],
    [
      'a stream stopped early',
      base({
        code: 'addVar(a, 1)',
        validationStatus: '',
        earlyAbort: { attempt: 1, line: 4, rule: 'foreign-keyword' },
        attempts: [
          { attempt: 2, code: 'addVar(a, 1)', outcome: { kind: 'validated', result: validateAvap('addVar(a, 1)') } },
        ],
      }),
      [
        /^stream: attempt 1 stopped early — line 4 \(foreign-keyword\) is certain to be rejected; the model was stopped and asked again with the trace$/,
      ],
      0,
    ],
  ];
  for (const [name, result, expected, exit] of cases) {
    it(`${name}: exit ${exit}`, () => {
      const text = outcomeLines(result).join('\n');
      assert.equal(expected.length === 0 ? text : 'checked', expected.length === 0 ? '' : 'checked');
      for (const re of expected)
        assert.ok(
          text.split('\n').some((l) => re.test(l)),
          `${re} in:\n${text}`,
        );
      assert.equal(exitCodeFor(result), exit);
    });
  }
});

describe('cli generate: stdout ends with the answer that was validated', () => {
  const answer = '```avap\naddResult(x)\n```';
  it('what streamed is the answer: nothing more to print', () => {
    assert.equal(streamedAsDelivered(answer, answer), true);
    assert.equal(streamedAsDelivered(`<think>\n\n</think>\n\n${answer}`, answer), true, 'an empty reasoning block');
  });

  it('repaired, cut, or preceded by reasoning that shows something: the answer follows whole', () => {
    assert.equal(streamedAsDelivered('```avap\nhashed = getSHA256(x)\n```', answer), false);
    assert.equal(streamedAsDelivered(`<think>try print(x)</think>\n${answer}`, answer), false);
    assert.equal(streamedAsDelivered(`I could print(x).\n</think>\n${answer}`, answer), false);
    assert.equal(streamedAsDelivered('', answer), false);
  });
});

/**
 * Fewer LLM round trips, with fakes behind the ports (no sockets): deterministic
 * repair by the parser's proven fixes before the LLM retry, and the early
 * abort of a stream whose complete code line is certain to be rejected.
 */
import assert from 'node:assert/strict';
import {
  type ParserOutcome,
  type ParserPort,
  type ResponseMessage,
  LOG_REPAIRED_BY_FIXES,
  extractCode,
  LOG_EARLY_ABORT,
  StreamCheck,
  validateAnswer,
  runPipeline,
  promptTask,
} from '../../../src/core';
// internal-import: repair by the parser's fixes, tested below the pipeline that calls it
import { everyErrorFixed, repairAnswer } from '../../../src/core/code/repairAnswer';
// internal-import: which findings abort a stream, tested rule by rule
import { isHardWhileStreaming } from '../../../src/core/code/streamCheck';
import { Rule, validateAvap } from '../../../src/parser';
import { signalFromPipeline, isAnswered, SignalRecordSchema } from '../../../src/signals';
import { fakeParser } from '../../support/fakes/parser';
import { taskLlm as fakeLlm } from '../../support/fakes/llm';
import { streamingLlm } from '../../support/fakes/streamingLlm';
import { deps } from './pipelineFakes';
import { prefixed } from '../../../src/core/ports';

const VALID = '```avap\naddParam(password, p)\nencodeSHA256(p, h)\naddResult(h)\n```';
/** Every error has a proven fix: the invented name and the `;` terminator. */
const FIXABLE = 'Here it is:\n```avap\naddParam(password, p);\ngetSHA256(p, h)\naddResult(h)\n```\nDone.';
/** One error with a fix, one without (an unknown name that is no near miss). */
const PARTLY_FIXABLE = '```avap\naddParam(password, p)\ngetSHA256(p, h)\nhashPassword(h, x)\naddResult(x)\n```';
/** A foreign keyword on line 2 of the code (no fix can be proven for `print`), then many more lines. */
const FOREIGN_EARLY = `\`\`\`avap\naddParam(password, p)\nprint(p)\n${Array.from({ length: 40 }, (_, i) => `addVar(v${i}, ${i})`).join('\n')}\naddResult(p)\n\`\`\``;
const CODE = { query: 'hash', forceType: 'CODE_GENERATION' as const };

/** A parser port that answers `n` calls with the real library and then is gone. */
function parserDyingAfter(n: number): ParserPort & { calls: number } {
  const port = {
    calls: 0,
    validate(source: string): Promise<ParserOutcome> {
      port.calls += 1;
      if (port.calls > n) return Promise.resolve({ kind: 'unavailable', reason: 'transport', detail: 'ECONNREFUSED' });
      return Promise.resolve({ kind: 'validated', result: validateAvap(source) });
    },
    circuit: () => ({ state: 'closed' as const, consecutiveFailures: 0 }),
    resetCircuit: () => undefined,
    onCircuitChange: () => () => undefined,
  };
  return port;
}

describe('fewer LLM round trips', () => {
  describe('deterministic repair first', () => {
    it('everyErrorFixed: errors all with fixes; warnings do not count; no errors is not a repair case', () => {
      assert.equal(everyErrorFixed(validateAvap('addParam(password, p);\ngetSHA256(p, h)').trace), true);
      assert.equal(everyErrorFixed(validateAvap('getSHA256(p, h)\nhashPassword(h, x)').trace), false);
      assert.equal(everyErrorFixed(validateAvap('addResult(x)').trace), false);
    });

    it('repairAnswer applies the fixes to the answer text and has the parser port validate every block again', async () => {
      const parser = fakeParser();
      const blocks = extractCode(FIXABLE);
      const first = await validateAnswer(parser, blocks, 'a.avap');
      assert.equal(first.verdict.kind, 'invalid');
      const repaired = await repairAnswer({ parser, blocksOf: extractCode, filename: 'a.avap' }, FIXABLE, first);
      assert.equal(repaired.kind, 'repaired');
      if (repaired.kind !== 'repaired') return;
      assert.equal(
        repaired.text,
        'Here it is:\n```avap\naddParam(password, p)\nencodeSHA256(p, h)\naddResult(h)\n```\nDone.',
      );
      assert.equal(repaired.validation.verdict.kind, 'valid');
      assert.deepEqual(repaired.applied.map((a) => a.code).sort(), ['statement-terminator', 'unknown-command']);
      // The repaired program itself went through the port: the verdict is the parser's, not the fixes' word.
      assert.equal(parser.sources.at(-1), 'addParam(password, p)\nencodeSHA256(p, h)\naddResult(h)');
    });

    it('repairAnswer does not try when an error has no proven fix, and claims nothing when the parser is gone', async () => {
      const parser = fakeParser();
      const partly = await validateAnswer(parser, extractCode(PARTLY_FIXABLE), 'a.avap');
      assert.deepEqual(
        await repairAnswer({ parser, blocksOf: extractCode, filename: 'a.avap' }, PARTLY_FIXABLE, partly),
        {
          kind: 'not-repairable',
        },
      );
      const dying = parserDyingAfter(1);
      const first = await validateAnswer(dying, extractCode(FIXABLE), 'a.avap');
      assert.deepEqual(
        await repairAnswer({ parser: dying, blocksOf: extractCode, filename: 'a.avap' }, FIXABLE, first),
        {
          kind: 'unrepaired',
          stop: 'unavailable',
        },
      );
    });

    it('a fully fixable answer is returned "" as repaired by the parser\'s fixes, without spending the LLM retry', async () => {
      const llm = fakeLlm({ reformulate: ['q'], generate_code: [FIXABLE, VALID] });
      const messages: ResponseMessage[] = [];
      const { deps: d, telemetry, logger } = deps(llm, fakeParser());
      const result = await runPipeline(d, CODE, { onMessage: (m) => messages.push(m) });
      assert.equal(result.validationStatus, '');
      assert.equal(
        llm.calls.filter((c) => promptTask(c.messages[0]?.content ?? '') === 'generate_code').length,
        1,
        'no second generation',
      );
      assert.equal(result.retry?.usedBy, undefined, 'the retry cycle is still unused');
      assert.match(result.code, /encodeSHA256\(p, h\)/);
      assert.doesNotMatch(result.text, /getSHA256|;/);
      assert.equal(result.repair?.by, 'parser-fixes');
      assert.equal(result.repair?.attempt, 1);
      assert.equal(result.repair?.applied.length, 2);
      assert.deepEqual(
        result.attempts.map((a) => [a.attempt, a.outcome.kind === 'validated' && a.outcome.result.valid, a.repairedBy]),
        [
          [1, false, undefined],
          [1, true, 'parser-fixes'],
        ],
      );
      assert.match(result.parserTrace ?? '', /getSHA256/, 'parser_trace keeps the first validation');
      const final = messages.at(-1);
      assert.equal(final?.is_final && final.repaired_by, 'parser-fixes');
      assert.deepEqual(
        telemetry.events.map((e) => [e.attempt, e.verdict, e.final, e.validation_status, e.stop_reason, e.repaired_by]),
        [
          [1, 'invalid', false, undefined, undefined, undefined],
          [1, 'valid', true, '', 'repaired-by-fixes', 'parser-fixes'],
        ],
      );
      assert.ok(
        logger.lines.some((l) => l.startsWith(prefixed(LOG_REPAIRED_BY_FIXES))),
        logger.lines.join('\n'),
      );
    });

    it("the training signal records the repair: one generation, repaired_by, the parser's two verdicts", async () => {
      const result = await runPipeline(
        deps(fakeLlm({ reformulate: ['q'], generate_code: [FIXABLE] }), fakeParser()).deps,
        CODE,
      );
      assert.ok(isAnswered(result));
      const signal = signalFromPipeline(CODE, result, { source: 'cli', model: 'm' });
      assert.equal(signal.output.attempts, 1);
      assert.equal(signal.output.repaired_by, 'parser-fixes');
      assert.deepEqual(signal.automated.parser, ['invalid', 'valid']);
      // The store's schema keeps the field (an unknown one would be stripped on read).
      assert.equal(SignalRecordSchema.shape.output.parse(signal.output).repaired_by, 'parser-fixes');
    });

    it('repair needs no retry budget: with maxRetries 0 a fixable answer is repaired all the same', async () => {
      const llm = fakeLlm({ reformulate: ['q'], generate_code: [FIXABLE] });
      const result = await runPipeline(deps(llm, fakeParser(), { pipeline: { maxRetries: 0 } }).deps, CODE);
      assert.equal(result.validationStatus, '');
      assert.equal(result.repair?.by, 'parser-fixes');
    });

    it('an error without a proven fix: the trace-guided retry runs exactly as before', async () => {
      const llm = fakeLlm({ reformulate: ['q'], generate_code: [PARTLY_FIXABLE, VALID] });
      const result = await runPipeline(deps(llm, fakeParser()).deps, CODE);
      assert.equal(result.validationStatus, '');
      assert.equal(result.repair, undefined);
      assert.equal(result.retry?.usedBy, 'parser-trace');
      assert.equal(llm.calls.filter((c) => promptTask(c.messages[0]?.content ?? '') === 'generate_code').length, 2);
    });

    it('the parser dies during the re-validation: no validity claim — the retry runs and its answer is PARSER_UNAVAILABLE, never ""', async () => {
      const llm = fakeLlm({ reformulate: ['q'], generate_code: [FIXABLE, VALID] });
      const parser = parserDyingAfter(1);
      const result = await runPipeline(deps(llm, parser).deps, CODE);
      assert.equal(result.validationStatus, 'PARSER_UNAVAILABLE');
      assert.equal(result.repair, undefined);
      assert.equal(result.retry?.usedBy, 'parser-trace');
    });

    it('an invalid retry whose errors all have fixes is repaired too (no model call); a partly fixable one stays INVALID_UNRESOLVED', async () => {
      const repaired = await runPipeline(
        deps(fakeLlm({ reformulate: ['q'], generate_code: [PARTLY_FIXABLE, FIXABLE] }), fakeParser()).deps,
        CODE,
      );
      assert.equal(repaired.validationStatus, '');
      assert.equal(repaired.repair?.attempt, 2);
      const unresolved = await runPipeline(
        deps(fakeLlm({ reformulate: ['q'], generate_code: [PARTLY_FIXABLE] }), fakeParser()).deps,
        CODE,
      );
      assert.equal(unresolved.validationStatus, 'INVALID_UNRESOLVED');
      assert.equal(unresolved.repair, undefined);
    });
  });

  describe('early abort while streaming', () => {
    const check = (text: string, pieces = text.match(/[\s\S]{1,3}/g) ?? []) => {
      const watch = new StreamCheck();
      for (const piece of pieces) watch.push(piece);
      return watch.finding;
    };

    it('hard rules are rule codes; block and structure findings are never hard; a fixable finding is left to the repair', () => {
      const entry = (source: string, code: string) => validateAvap(source).trace.find((e) => e.code === code);
      const foreign = entry('print(x)', Rule.ForeignKeyword.code);
      assert.ok(foreign && isHardWhileStreaming(foreign));
      const open = entry('if(a, 1, "=")', Rule.UnclosedBlock.code);
      assert.ok(open && !isHardWhileStreaming(open));
      const fixable = entry('x = 1;', Rule.StatementTerminator.code);
      assert.ok(fixable?.fix && !isHardWhileStreaming(fixable));
    });

    it('stops on a complete fenced line with a hard error, and only then', () => {
      assert.equal(check('```avap\naddParam(password, p)\nprint(p)'), undefined, 'the line is not complete yet');
      const hit = check('Sure.\n```avap\naddParam(password, p)\nprint(p)\n');
      assert.equal(hit?.entry.code, Rule.ForeignKeyword.code);
      assert.equal(hit?.responseLine, 4);
      assert.equal(hit?.code, 'addParam(password, p)\nprint(p)');
    });

    it('never stops on what later lines can resolve, on prose, on other fences or on thinking', () => {
      assert.equal(check('```avap\nif(a, 1, "=")\n  addVar(x, 1)\n'), undefined, 'a block still open');
      assert.equal(check('```avap\nx = hashPassword(p)\n'), undefined, 'a function that may be defined further down');
      assert.equal(check('```avap\ngetSHA256(p, h)\n'), undefined, 'fixable: the repair takes it');
      assert.equal(check('print the result with addResult\nreturn it\n'), undefined, 'prose');
      assert.equal(check('```python\nprint(p)\n```\n'), undefined, 'a fence that is not AVAP');
      assert.equal(check('<think>\n```avap\nprint(p)\n```\n</think>\n'), undefined, 'thinking aloud');
      assert.ok(check('```\naddParam(password, p)\nprint(p)\n'), 'an unlabelled fence is AVAP');
      // Not even an invented command without a provable fix: `function getSHA256(a, b, c)` further down makes it
      // valid, so an unknown name never stops the stream.
      assert.equal(check('```avap\ngetSHA256(p, h, x)\n'), undefined, 'a call to a name not defined yet');
    });

    it("the pipeline stops the model on the hard line and goes straight to the trace-guided retry; the verdict is the parser port's", async () => {
      const llm = streamingLlm([FOREIGN_EARLY, VALID]);
      const parser = fakeParser();
      const messages: ResponseMessage[] = [];
      const { deps: d, telemetry, logger } = deps(llm, parser);
      const result = await runPipeline(d, CODE, { onMessage: (m) => messages.push(m) });
      assert.equal(llm.aborted[0], true, 'the first request was aborted');
      assert.ok((llm.sent[0] ?? 99) <= 4, `stopped after the hard line (sent ${llm.sent[0]} pieces)`);
      assert.equal(result.validationStatus, '');
      assert.equal(result.retry?.usedBy, 'parser-trace');
      assert.deepEqual(result.earlyAbort, { line: 3, rule: 'foreign-keyword', attempt: 1 });
      assert.equal(result.attempts[0]?.earlyAbort?.rule, 'foreign-keyword');
      assert.deepEqual(
        parser.sources,
        ['addParam(password, p)\nencodeSHA256(p, h)\naddResult(h)'],
        'only the retry went to the parser port',
      );
      assert.match(llm.calls[1]?.messages.at(-1)?.content ?? '', /Line 2: foreign keyword 'print'/);
      assert.equal(telemetry.events[0]?.early_abort?.rule, 'foreign-keyword');
      assert.ok(logger.lines.some((l) => l.startsWith(prefixed(LOG_EARLY_ABORT))));
      // The drafts of the first attempt end at the hard line.
      assert.equal(
        messages
          .filter((m) => !m.is_final && m.attempt === 1)
          .map((m) => m.text)
          .join(''),
        '```avap\naddParam(password, p)\nprint(p)\n',
      );
    });

    it("without a retry to go to (maxRetries 0) the stream is never stopped: the full answer gets the service's verdict", async () => {
      const llm = streamingLlm([FOREIGN_EARLY]);
      const result = await runPipeline(deps(llm, fakeParser(), { pipeline: { maxRetries: 0 } }).deps, CODE);
      assert.equal(llm.aborted[0], false);
      assert.equal(result.earlyAbort, undefined);
      assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');
      assert.match(result.code, /addResult\(p\)/);
    });

    it('the user cancelling mid-stream is a cancellation, not an early abort', async () => {
      const llm = streamingLlm([FOREIGN_EARLY]);
      const controller = new AbortController();
      controller.abort();
      const result = await runPipeline(deps(llm, fakeParser()).deps, CODE, { signal: controller.signal });
      assert.equal(result.error?.code, 'cancelled');
      assert.equal(result.validationStatus, undefined);
    });
  });
});

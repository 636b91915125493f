/**
 * The graph with in-memory fakes behind its ports: statuses, retry budget,
 * telemetry and streaming, without sockets.
 */
import assert from 'node:assert/strict';
import type { ParserPort, ResponseMessage } from '../../../src/core';
import type { ChatCall } from '../../../src/core/llm/port';
import { LOG_PARSER_UNAVAILABLE, runPipeline } from '../../../src/core';
import { logFewShot } from '../../../src/core/pipeline/fewShot';
import { cleanSearchQuery } from '../../../src/core/pipeline/retrieve';
import { promptTask } from '../../../src/core/routing/prompts';
import type { RelevancePort } from '../../../src/core/relevance/port';
import type { RetrievalPort } from '../../../src/core/retrieval/port';
import { fakeParser } from '../../support/fakes/parser';
import { taskLlm } from '../../support/fakes/llm';
import { deps, retrieval } from './pipelineFakes';
import { validateAvap } from '../../../src/parser';
import { prefixed } from '../../../src/core/ports';

const VALID = '```avap\naddParam(password, p)\nencodeSHA256(p, h)\naddResult(h)\n```';
const INVALID = '```avap\naddParam(password, p)\nhashPassword(p, h)\naddResult(h)\n```';
const CODE = { query: 'hash', forceType: 'CODE_GENERATION' as const };

describe('core/pipeline graph (fakes behind the ports)', () => {
  it('valid first time: "" and one telemetry event with the run\'s fields', async () => {
    const llm = taskLlm({ reformulate: ['encodeSHA256'], generate_code: [VALID] });
    const { deps: d, telemetry } = deps(llm, fakeParser());
    const messages: ResponseMessage[] = [];
    const result = await runPipeline(d, CODE, { onMessage: (m) => messages.push(m) });
    assert.equal(result.validationStatus, '');
    assert.equal(result.generationId, 'gen-1');
    assert.deepEqual(retrieval.queries, ['encodeSHA256']);
    assert.equal(messages.filter((m) => m.is_final).length, 1);
    assert.equal(messages[messages.length - 1]?.is_final, true);
    const [event] = telemetry.events;
    assert.equal(event?.schema_version, 1);
    assert.equal(event?.generation_id, 'gen-1');
    assert.equal(event?.attempt, 1);
    assert.equal(event?.max_attempts, 2);
    assert.equal(event?.query_type, 'CODE_GENERATION');
    assert.equal(event?.model, 'qwen3:1.7b');
    assert.equal(event?.temperature, 0);
    assert.equal(event?.parser_version, 'pv-1');
    assert.deepEqual(event?.commands, ['addParam', 'encodeSHA256', 'addResult']);
    assert.ok(
      ['classify', 'reformulate', 'retrieve', 'generate_code', 'validate_code'].every(
        (k) => typeof event?.latencies_ms[k] === 'number',
      ),
    );
    assert.ok(!Number.isNaN(Date.parse(event?.timestamp ?? '')));
  });

  it('the retry budget comes from settings: maxRetries 0 → INVALID_UNRESOLVED after one attempt', async () => {
    const llm = taskLlm({ reformulate: ['q'], generate_code: [INVALID, VALID] });
    const { deps: d } = deps(llm, fakeParser(), { pipeline: { maxRetries: 0 } });
    const result = await runPipeline(d, CODE);
    assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');
    assert.equal(result.attempts.length, 1);
  });

  it('a budget above 1 is read as 1 (D1 RC-08); the second verdict stops on the repeated error', async () => {
    const llm = taskLlm({ reformulate: ['q'], generate_code: [INVALID] });
    const { deps: d, telemetry } = deps(llm, fakeParser(), { pipeline: { maxRetries: 3 } });
    const result = await runPipeline(d, CODE);
    assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');
    assert.equal(result.attempts.length, 2);
    assert.equal(telemetry.events[1]?.stop_reason, 'repeated-error');
    assert.deepEqual(
      telemetry.events.map((e) => e.max_attempts),
      [2, 2],
    );
  });

  it('an unavailable parser never triggers an LLM retry and logs D1 RC-07', async () => {
    const llm = taskLlm({ reformulate: ['q'], generate_code: [INVALID] });
    const { deps: d, logger, telemetry } = deps(llm, fakeParser('down'));
    const result = await runPipeline(d, CODE);
    assert.equal(result.validationStatus, 'PARSER_UNAVAILABLE');
    assert.equal(llm.calls.filter((c) => promptTask(c.messages[0]?.content ?? '') === 'generate_code').length, 1);
    assert.ok(logger.lines.some((l) => l.startsWith(prefixed(LOG_PARSER_UNAVAILABLE))));
    assert.equal(telemetry.events[0]?.verdict, 'unavailable');
  });

  it('invalid then parser gone on the retry: the retry code is returned PARSER_UNAVAILABLE (no evidence about it)', async () => {
    const llm = taskLlm({ reformulate: ['q'], generate_code: [INVALID, VALID] });
    const parser = fakeParser();
    let calls = 0;
    const flaky: ParserPort = {
      ...parser,
      validate: async (s, f, sig) =>
        ++calls === 1 ? parser.validate(s, f, sig) : { kind: 'unavailable', reason: 'timeout', detail: 'slow' },
    };
    const { deps: d } = deps(llm, flaky);
    const result = await runPipeline(d, CODE);
    assert.equal(result.validationStatus, 'PARSER_UNAVAILABLE');
    assert.equal(result.attempts.length, 2);
  });

  it('an answer with no code at all is validated whole; an empty answer is E009 and retried', async () => {
    const prose = taskLlm({ reformulate: ['q'], generate_code: ['I cannot help with that.', VALID] });
    const { deps: d1 } = deps(prose, fakeParser());
    const r1 = await runPipeline(d1, CODE);
    assert.equal(r1.attempts.length, 2);
    assert.equal(r1.validationStatus, '');

    const empty = taskLlm({ reformulate: ['q'], generate_code: ['', ''] });
    const { deps: d2, telemetry } = deps(empty, fakeParser());
    const r2 = await runPipeline(d2, CODE);
    assert.equal(r2.validationStatus, 'INVALID_UNRESOLVED');
    assert.equal(telemetry.events[0]?.errors[0]?.code, 'E009');
  });

  it('a failed retry generation returns the invalid candidate INVALID_UNRESOLVED with the error', async () => {
    const llm = taskLlm({
      reformulate: ['q'],
      generate_code: [INVALID, { ok: false, error: { code: 'llm-timeout', message: 'slow' } }],
    });
    const { deps: d } = deps(llm, fakeParser());
    const result = await runPipeline(d, CODE);
    assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');
    assert.equal(result.error?.code, 'llm-timeout');
    assert.match(result.code, /hashPassword/);
  });

  it('an LLM failure before any answer: result.error, no status (no validity claim), a final message, a telemetry event', async () => {
    const llm = taskLlm({ classify: [{ ok: false, error: { code: 'llm-unreachable', message: 'down' } }] });
    const { deps: d, telemetry } = deps(llm, fakeParser());
    const messages: ResponseMessage[] = [];
    const result = await runPipeline(d, { query: 'hi' }, { onMessage: (m) => messages.push(m) });
    assert.deepEqual(result.error, { code: 'llm-unreachable', message: 'down' });
    assert.equal(result.validationStatus, undefined);
    assert.deepEqual(messages, [{ text: '', avap_code: '', is_final: true }]);
    assert.equal(telemetry.events[0]?.error_code, 'llm-unreachable');
    assert.equal(telemetry.events[0]?.final, true);
    assert.equal('validation_status' in (telemetry.events[0] ?? {}), false);
  });

  it('an already-aborted signal ends at once as cancelled', async () => {
    const llm = taskLlm({});
    const { deps: d } = deps(llm, fakeParser());
    const controller = new AbortController();
    controller.abort();
    const result = await runPipeline(d, CODE, { signal: controller.signal });
    assert.equal(result.error?.code, 'cancelled');
    assert.equal(llm.calls.length, 0);
  });

  it('a throwing onMessage listener does not break the run', async () => {
    const llm = taskLlm({ reformulate: ['q'], generate_code: [VALID] });
    const { deps: d } = deps(llm, fakeParser());
    const result = await runPipeline(d, CODE, {
      onMessage: () => {
        throw new Error('ui gone');
      },
    });
    assert.equal(result.validationStatus, '');
  });

  it('a throwing telemetry sink does not influence generation', async () => {
    const llm = taskLlm({ reformulate: ['q'], generate_code: [VALID] });
    const { deps: d } = deps(llm, fakeParser());
    const result = await runPipeline(
      {
        ...d,
        telemetry: {
          record: () => {
            throw new Error('disk full');
          },
          flush: () => Promise.resolve(),
        },
      },
      CODE,
    );
    assert.equal(result.validationStatus, '');
  });

  describe('few-shot injection (D2)', () => {
    const pool = (request: string, k: number) =>
      Array.from({ length: Math.min(k, 7) }, (_, i) => ({
        request: `example ${i} for ${request}`,
        code: `addVar(x${i}, ${i})`,
      }));
    const prompt = (call: ChatCall | undefined) => (call?.messages ?? []).map((m) => m.content).join('\n');

    it('injects K = 5 validated examples by default, logs the effective K, and reuses them on the retry', async () => {
      const llm = taskLlm({ reformulate: ['q'], generate_code: [INVALID, VALID] });
      const { deps: d, logger } = deps(llm, fakeParser());
      let selections = 0;
      const result = await runPipeline(
        {
          ...d,
          examples: (r, k) => {
            selections += 1;
            return pool(r, k);
          },
        },
        CODE,
      );
      assert.equal(result.validationStatus, '');
      assert.deepEqual(result.fewShot, { status: 'enabled', k: 5, injected: 5 });
      assert.equal(selections, 1);
      const generations = llm.calls.filter((c) => promptTask(c.messages[0]?.content ?? '') === 'generate_code');
      assert.equal(generations.length, 2);
      for (const call of generations) {
        assert.match(prompt(call), /addVar\(x4, 4\)/);
        assert.doesNotMatch(prompt(call), /addVar\(x5, 5\)/);
      }
      assert.ok(logger.lines.includes(prefixed(logFewShot(5, 5))), logger.lines.join('\n'));
    });

    it('K comes from the configuration; 0 disables the injection', async () => {
      const llm = taskLlm({ reformulate: ['q'], generate_code: [VALID] });
      const { deps: d } = deps(llm, fakeParser(), { pipeline: { fewShotExamples: 2 } });
      assert.deepEqual((await runPipeline({ ...d, examples: pool }, CODE)).fewShot, {
        status: 'enabled',
        k: 2,
        injected: 2,
      });
      const off = deps(taskLlm({ reformulate: ['q'], generate_code: [VALID] }), fakeParser(), {
        pipeline: { fewShotExamples: 0 },
      });
      const result = await runPipeline(
        {
          ...off.deps,
          examples: () => {
            throw new Error('must not be called');
          },
        },
        CODE,
      );
      assert.deepEqual(result.fewShot, { status: 'disabled', k: 0, injected: 0 });
    });

    it('a failing example retrieval degrades the run instead of failing it', async () => {
      const llm = taskLlm({ reformulate: ['q'], generate_code: [VALID] });
      const { deps: d, logger } = deps(llm, fakeParser());
      const result = await runPipeline(
        {
          ...d,
          examples: () => {
            throw new Error('pool index corrupt');
          },
        },
        CODE,
      );
      assert.equal(result.validationStatus, '');
      assert.equal(result.code.includes('encodeSHA256'), true);
      assert.deepEqual(result.fewShot, { status: 'degraded', k: 5, injected: 0, detail: 'pool index corrupt' });
      assert.ok(
        logger.lines.some((l) => l.includes('few_shot_injection: degraded')),
        logger.lines.join('\n'),
      );
    });

    it('records how the examples were chosen, and flags the lexical fallback with its reason', async () => {
      const byEmbedding = deps(taskLlm({ reformulate: ['q'], generate_code: [VALID] }), fakeParser());
      const embedded = await runPipeline(
        { ...byEmbedding.deps, examples: (r, k) => Promise.resolve({ examples: pool(r, k), selection: 'embedding' }) },
        CODE,
      );
      assert.deepEqual(embedded.fewShot, { status: 'enabled', k: 5, injected: 5, selection: 'embedding' });
      assert.ok(
        byEmbedding.logger.lines.some((l) =>
          l.includes('few-shot: K=5, 5 validated example(s) injected by embedding similarity'),
        ),
        byEmbedding.logger.lines.join('\n'),
      );

      const lexical = deps(taskLlm({ reformulate: ['q'], generate_code: [VALID] }), fakeParser());
      const fallback = await runPipeline(
        {
          ...lexical.deps,
          examples: (r) => Promise.resolve({ examples: pool(r, 3), selection: 'lexical', detail: 'model missing' }),
        },
        CODE,
      );
      assert.deepEqual(fallback.fewShot, {
        status: 'enabled',
        k: 5,
        injected: 3,
        selection: 'lexical',
        selectionDetail: 'model missing',
      });
      assert.ok(
        lexical.logger.lines.some(
          (l) => l.includes('no embedding similarity (model missing)') && l.includes('few_shot_selection: lexical'),
        ),
        lexical.logger.lines.join('\n'),
      );
    });

    it('is not part of non-code answers', async () => {
      const llm = taskLlm({ classify: ['{"type":"CONVERSATIONAL"}'], conversational: ['Hi!'] });
      const { deps: d } = deps(llm, fakeParser());
      assert.equal((await runPipeline({ ...d, examples: pool }, { query: 'hello' })).fewShot, undefined);
    });
  });

  it('CONVERSATIONAL uses the conversational model and no retrieval', async () => {
    const llm = taskLlm({ classify: ['{"type":"CONVERSATIONAL"}'], conversational: ['Hi!'] });
    const { deps: d } = deps(llm, fakeParser());
    const result = await runPipeline(d, { query: 'hello' });
    assert.equal(result.text, 'Hi!');
    assert.deepEqual(retrieval.queries, []);
    assert.equal(llm.calls[1]?.model, 'qwen3:0.6b');
  });

  describe('the status rule on every route (D1 RC-07) and one retry cycle per request (D1 RC-08)', () => {
    const DOCS = { classify: ['{"type":"RETRIEVAL"}'], reformulate: ['q'] };
    const no: RelevancePort = {
      mode: 'llm',
      judge: () => Promise.resolve({ ok: true, value: { relevant: false, detail: 'no' } }),
    };
    const tasks = (llm: ReturnType<typeof taskLlm>, task: string) =>
      llm.calls.filter((c) => promptTask(c.messages[0]?.content ?? '') === task);

    it('drafts are marked and carry no status and no code; only the final message has them', async () => {
      const llm = taskLlm({ reformulate: ['q'], generate_code: [INVALID, VALID] });
      const { deps: d } = deps(llm, fakeParser());
      const messages: ResponseMessage[] = [];
      const result = await runPipeline(d, CODE, { onMessage: (m) => messages.push(m) });
      const drafts = messages.slice(0, -1);
      assert.ok(drafts.length > 4);
      for (const m of drafts)
        assert.deepEqual(
          Object.keys(m).sort(),
          ['attempt', 'avap_code', 'draft', 'is_final', 'text'],
          JSON.stringify(m),
        );
      assert.ok(drafts.every((m) => !m.is_final && m.draft && m.avap_code === ''));
      // The final message delivers the whole answer whose code was validated, with its code and status.
      assert.deepEqual(messages.at(-1), {
        text: result.text,
        avap_code: result.code,
        is_final: true,
        validation_status: '',
      });
      assert.equal(result.text, VALID);
    });

    it('a documentation answer that shows invalid code is validated and retried with the trace; the fixed answer is ""', async () => {
      const llm = taskLlm({
        ...DOCS,
        generate: [`Use this:\n${INVALID}\nIt hashes.`, `Use this:\n${VALID}\nIt hashes.`],
      });
      const parser = fakeParser();
      const { deps: d, telemetry } = deps(llm, parser);
      const result = await runPipeline(d, { query: 'how do I hash a password?' });
      assert.equal(result.queryType, 'RETRIEVAL');
      assert.equal(result.validationStatus, '');
      assert.equal(result.attempts.length, 2);
      assert.equal(parser.sources.length, 2);
      assert.equal(result.retry?.usedBy, 'parser-trace');
      assert.equal(
        result.parserTrace,
        "Line 2: unknown command 'hashPassword' — expected known identifier",
        "the first validation's trace, on any route",
      );
      const retry = tasks(llm, 'generate')[1];
      assert.match(
        retry?.messages.at(-1)?.content ?? '',
        /The previous attempt produced invalid AVAP code\. Specific failures:\nLine 2: unknown command 'hashPassword'/,
      );
      assert.deepEqual(
        telemetry.events.map((e) => [e.attempt, e.verdict, e.final, e.validation_status]),
        [
          [1, 'invalid', false, undefined],
          [2, 'valid', true, ''],
        ],
      );
      assert.equal(
        'validation_status' in (telemetry.events[0] ?? {}),
        false,
        "an attempt event carries its verdict, not the run's status",
      );
      assert.ok(telemetry.events[0]?.errors.every((e) => typeof e.expected === 'string' && e.expected.length > 0));
    });

    it('after the relevance reformulation used the cycle, invalid code in the answer is INVALID_UNRESOLVED; the skip is recorded', async () => {
      const llm = taskLlm({ ...DOCS, generate: [`Use this:\n${INVALID}`, `Use this:\n${VALID}`] });
      const { deps: d, telemetry, logger } = deps(llm, fakeParser());
      const result = await runPipeline({ ...d, relevance: no }, { query: 'how do I hash a password?' });
      assert.equal(result.relevanceRetry, true);
      assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');
      assert.equal(tasks(llm, 'generate').length, 1, 'no second retry cycle');
      assert.deepEqual(result.retry, {
        limit: 1,
        usedBy: 'relevance',
        skipped: [{ trigger: 'parser-trace', reason: 'cycle-used', usedBy: 'relevance' }],
      });
      assert.equal(telemetry.events.at(-1)?.stop_reason, 'retry-cycle-used-by-relevance');
      assert.ok(
        logger.lines.some((l) =>
          l.includes("retry skipped (parser-trace: the request's one retry was already used by relevance)"),
        ),
        logger.lines.join('\n'),
      );
    });

    it('maxRetries 0: no relevance reformulation either, recorded as skipped', async () => {
      const llm = taskLlm({ ...DOCS, generate: ['Prose only.'] });
      const { deps: d } = deps(llm, fakeParser(), { pipeline: { maxRetries: 0 } });
      const result = await runPipeline({ ...d, relevance: no }, { query: 'what is AVAP?' });
      assert.equal(result.relevanceRetry, false);
      assert.equal(tasks(llm, 'reformulate').length, 1);
      assert.deepEqual(result.retry?.skipped, [{ trigger: 'relevance', reason: 'retries-disabled' }]);
      assert.equal(result.validationStatus, '');
    });

    it('conversational and platform answers that show code are validated too', async () => {
      for (const [type, task] of [
        ['CONVERSATIONAL', 'conversational'],
        ['PLATFORM', 'platform'],
      ] as const) {
        const llm = taskLlm({
          classify: [`{"type":"${type}"}`],
          [task]: [`Sure:\n${INVALID}`],
          platform: [`Sure:\n${INVALID}`],
        });
        const parser = fakeParser();
        const { deps: d } = deps(llm, parser, { pipeline: { maxRetries: 0 } });
        const result = await runPipeline(d, {
          query: type === 'PLATFORM' ? 'You have a project usage percentage of 20%, advise' : 'hey, show me',
        });
        assert.equal(result.queryType, type);
        assert.equal(result.validationStatus, 'INVALID_UNRESOLVED', type);
        assert.equal(parser.sources.length, 1);
      }
    });

    it('prose that merely starts with a command name is no code; a bare program is', async () => {
      const prose = taskLlm({
        ...DOCS,
        generate: ['addParam(name, target) reads the parameter called name and stores it in target.'],
      });
      const p1 = fakeParser();
      const r1 = await runPipeline(deps(prose, p1).deps, { query: 'what does addParam do?' });
      assert.equal(r1.validationStatus, '');
      assert.equal(p1.sources.length, 0);
      assert.equal(r1.attempts.length, 0);

      const bare = taskLlm({
        ...DOCS,
        generate: ['Like this:\naddParam(password, p)\nhashPassword(p, h)\naddResult(h)'],
      });
      const r2 = await runPipeline(deps(bare, fakeParser(), { pipeline: { maxRetries: 0 } }).deps, { query: 'hash?' });
      assert.equal(r2.validationStatus, 'INVALID_UNRESOLVED');
    });

    it('code in a documentation answer with the parser down is PARSER_UNAVAILABLE, never ""', async () => {
      const llm = taskLlm({ ...DOCS, generate: [`Use:\n${VALID}`] });
      const { deps: d, logger } = deps(llm, fakeParser('down'));
      const result = await runPipeline(d, { query: 'how?' });
      assert.equal(result.validationStatus, 'PARSER_UNAVAILABLE');
      assert.ok(logger.lines.some((l) => l.startsWith(prefixed(LOG_PARSER_UNAVAILABLE))));
    });

    it('cancelled after an invalid first attempt: no status, no code, no text', async () => {
      const controller = new AbortController();
      const llm = taskLlm({ reformulate: ['q'], generate_code: [INVALID, VALID] });
      const parser = fakeParser();
      const cancelling: ParserPort = {
        ...parser,
        validate: async (src, f, sig) => {
          const out = await parser.validate(src, f, sig);
          controller.abort();
          return out;
        },
      };
      const { deps: d, telemetry } = deps(llm, cancelling);
      const messages: ResponseMessage[] = [];
      const result = await runPipeline(d, CODE, { signal: controller.signal, onMessage: (m) => messages.push(m) });
      assert.equal(result.error?.code, 'cancelled');
      assert.equal(result.validationStatus, undefined);
      assert.equal(result.code, '');
      assert.equal(result.text, '');
      assert.deepEqual(messages.at(-1), { text: '', avap_code: '', is_final: true });
      assert.equal(telemetry.events.at(-1)?.error_code, 'cancelled');
      assert.equal(telemetry.events.at(-1)?.validation_status, undefined);
    });

    it('a failed retrieval is part of the answer: retrieval degraded with the reason', async () => {
      const llm = taskLlm({ reformulate: ['q'], generate_code: [VALID] });
      const { deps: d } = deps(llm, fakeParser());
      const down: RetrievalPort = {
        name: 'elasticsearch http://es:9200',
        retrieve: () =>
          Promise.resolve({ ok: false, error: { code: 'retrieval-failed', message: 'connect ECONNREFUSED' } }),
      };
      const result = await runPipeline({ ...d, retrieval: down }, CODE);
      assert.deepEqual(result.retrieval, {
        status: 'degraded',
        reason: 'retrieval failed (elasticsearch http://es:9200): connect ECONNREFUSED',
      });
      assert.equal(result.validationStatus, '');
      const fine = await runPipeline(
        deps(taskLlm({ reformulate: ['q'], generate_code: [VALID] }), fakeParser()).deps,
        CODE,
      );
      assert.deepEqual(fine.retrieval, { status: 'ok' });
    });

    it('a failed retrieval ran in no mode: `none` on the result, in telemetry and for the relevance check alike', async () => {
      const llm = taskLlm({ ...DOCS, generate: ['Prose only.'] });
      const { deps: d, telemetry } = deps(llm, fakeParser());
      const down: RetrievalPort = {
        name: 'elasticsearch http://es:9200',
        retrieve: () =>
          Promise.resolve({ ok: false, error: { code: 'retrieval-failed', message: 'connect ECONNREFUSED' } }),
      };
      const judged: string[] = [];
      const relevance: RelevancePort = {
        mode: 'llm',
        judge: (_query, retrieved) => {
          judged.push(retrieved.mode);
          return Promise.resolve({ ok: true, value: { relevant: true, detail: 'yes' } });
        },
      };
      const result = await runPipeline({ ...d, retrieval: down, relevance }, { query: 'what is addVar?' });
      assert.equal(result.queryType, 'RETRIEVAL');
      assert.equal(result.retrieval?.status, 'degraded');
      assert.equal(result.retrievalMode, 'none');
      assert.deepEqual(judged, ['none'], 'the relevance check is told no mode ran, not bm25_only');
      assert.deepEqual(
        telemetry.events.map((e) => e.retrieval_mode),
        ['none'],
      );
    });

    it("a reviewer's hinted retry is made once within the cycle; a second ask is skipped", async () => {
      const llm = taskLlm({ ...DOCS, generate: ['vague', `better:\n${VALID}`] });
      const { deps: d, telemetry } = deps(llm, fakeParser());
      const outcomes: unknown[] = [];
      const result = await runPipeline(
        d,
        { query: 'how?' },
        {
          review: async (input, retry) => {
            assert.equal(input.answer, 'vague');
            outcomes.push(await retry('more concrete'));
            outcomes.push(await retry('again'));
          },
        },
      );
      assert.deepEqual(outcomes[0], { ok: true, answer: `better:\n${VALID}` });
      assert.deepEqual(outcomes[1], {
        ok: false,
        skipped: { trigger: 'judge-hint', reason: 'cycle-used', usedBy: 'judge-hint' },
      });
      assert.equal(result.validationStatus, '');
      assert.match(result.code, /encodeSHA256/);
      assert.deepEqual(
        telemetry.events.map((e) => [e.attempt, e.final, e.validation_status ?? null]),
        [
          [1, false, null],
          [2, true, ''],
        ],
      );
    });
  });

  describe('D1 state on the result: parser_trace of the first attempt, context_relevant', () => {
    it("keeps the first validation's raw trace after a retry fixed the code; empty when the first attempt was valid", async () => {
      const fixed = await runPipeline(
        deps(taskLlm({ reformulate: ['q'], generate_code: [INVALID, VALID] }), fakeParser()).deps,
        CODE,
      );
      assert.equal(fixed.validationStatus, '');
      assert.equal(fixed.parserTrace, "Line 2: unknown command 'hashPassword' — expected known identifier");
      const valid = await runPipeline(
        deps(taskLlm({ reformulate: ['q'], generate_code: [VALID] }), fakeParser()).deps,
        CODE,
      );
      assert.equal(valid.parserTrace, '');
      const noCode = await runPipeline(
        deps(taskLlm({ reformulate: ['q'], generate_code: ['', VALID] }), fakeParser()).deps,
        CODE,
      );
      assert.equal(noCode.parserTrace, 'Line 1: the answer contained no AVAP code');
      const down = await runPipeline(
        deps(taskLlm({ reformulate: ['q'], generate_code: [INVALID] }), fakeParser('down')).deps,
        CODE,
      );
      assert.deepEqual(
        [down.validationStatus, down.parserTrace],
        ['PARSER_UNAVAILABLE', ''],
        'no verdict, no trace: the status says why',
      );
      assert.equal(valid.contextRelevant, undefined, 'code generation has no relevance check');
    });

    it("the correction path: the given trace is the first attempt's", async () => {
      const bad = 'hashPassword(p, h)';
      const result = await runPipeline(deps(taskLlm({ generate_code: [VALID] }), fakeParser()).deps, {
        query: 'fix',
        correction: { code: bad, trace: validateAvap(bad).trace },
      });
      assert.equal(result.parserTrace, "Line 1: unknown command 'hashPassword' — expected known identifier");
    });

    it("RETRIEVAL answers carry context_relevant (the first retrieval's verdict) and no parser_trace", async () => {
      const llm = () =>
        taskLlm({
          classify: ['{"type":"RETRIEVAL"}'],
          reformulate: ['q'],
          generate: ['Use encodeSHA256(source, target).'],
        });
      const relevant = await runPipeline(deps(llm(), fakeParser()).deps, { query: 'how do I hash?' });
      assert.deepEqual(
        [relevant.queryType, relevant.contextRelevant, relevant.parserTrace],
        ['RETRIEVAL', true, undefined],
      );
      const no: RelevancePort = {
        mode: 'llm',
        judge: () => Promise.resolve({ ok: true, value: { relevant: false, detail: 'NO' } }),
      };
      const irrelevant = await runPipeline(
        { ...deps(llm(), fakeParser()).deps, relevance: no },
        { query: 'how do I hash?' },
      );
      assert.deepEqual([irrelevant.contextRelevant, irrelevant.relevanceRetry], [false, true]);
    });
  });

  it('cleans reformulations down to one search line', () => {
    assert.equal(
      cleanSearchQuery('<think>x</think>\nSearch query: "encodeSHA256 hash"\nmore', 'orig'),
      'encodeSHA256 hash',
    );
    assert.equal(cleanSearchQuery('   \n', 'orig'), 'orig');
  });
});

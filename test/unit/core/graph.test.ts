/**
 * The graph with in-memory fakes behind its ports: statuses, retry budget,
 * telemetry and streaming, without sockets.
 */
import assert from 'node:assert/strict';
import { defaultConfig, mergeConfig, type DeepPartial, type AssistantConfig } from '../../../src/core/config';
import type { ParserOutcome, ParserPort, ResponseMessage } from '../../../src/core/contracts';
import type { ChatCall, LlmPort, LlmResult } from '../../../src/core/llm/port';
import { LOG_PARSER_UNAVAILABLE, runPipeline, cleanSearchQuery } from '../../../src/core/pipeline/graph';
import { memoryLogger } from '../../../src/core/ports';
import type { RelevancePort } from '../../../src/core/relevance/port';
import type { RetrievalPort } from '../../../src/core/retrieval/port';
import { promptTask, type PromptTask } from '../../../src/core/routing/prompts';
import { memoryTelemetry } from '../../../src/core/telemetry/events';
import { validateAvap } from '../../../src/parser';

type Script = Partial<Record<PromptTask, (string | LlmResult<{ text: string }>)[]>>;

/** A fake LLM answering each node from a per-task queue (the last answer repeats). */
function fakeLlm(script: Script): LlmPort & { calls: ChatCall[] } {
  const calls: ChatCall[] = [];
  const used: Partial<Record<PromptTask, number>> = {};
  return {
    calls,
    async chat(call) {
      calls.push(call);
      const task = promptTask(call.messages[0]?.content ?? '') as PromptTask;
      const queue = script[task] ?? [];
      const index = Math.min(used[task] ?? 0, queue.length - 1);
      used[task] = (used[task] ?? 0) + 1;
      const answer = queue[index];
      if (answer === undefined) return { ok: false, error: { code: 'llm-failed', message: `no script for ${task}` } };
      if (typeof answer !== 'string') return answer;
      if (call.onToken) for (const piece of answer.match(/[\s\S]{1,5}/g) ?? []) call.onToken(piece);
      return { ok: true, value: { text: answer } };
    },
    embed: async (_model, texts) => ({ ok: true, value: texts.map(() => [1, 0]) }),
    models: async () => ({ ok: true, value: [] }),
  };
}

function fakeParser(mode: 'real' | 'down' | 'disabled' = 'real'): ParserPort & { sources: string[] } {
  const sources: string[] = [];
  return {
    sources,
    async validate(source): Promise<ParserOutcome> {
      if (mode === 'disabled') return { kind: 'unavailable', reason: 'disabled', detail: 'off' };
      sources.push(source);
      if (mode === 'down') return { kind: 'unavailable', reason: 'transport', detail: 'ECONNREFUSED' };
      return { kind: 'validated', result: validateAvap(source) };
    },
    circuit: () => ({ state: 'closed', consecutiveFailures: 0 }),
    resetCircuit: () => undefined,
    onCircuitChange: () => () => undefined,
  };
}

const retrieval: RetrievalPort & { queries: string[] } = {
  name: 'fake',
  queries: [],
  async retrieve(query) {
    this.queries.push(query);
    return { ok: true, value: { chunks: [{ id: 'c1', title: 'encodeSHA256', text: 'encodeSHA256(source, target)', score: 1 }], mode: 'hybrid' } };
  },
};

const yes: RelevancePort = { mode: 'llm', judge: async () => ({ ok: true, value: { relevant: true, detail: 'yes' } }) };

function deps(llm: LlmPort, parser: ParserPort, patch: DeepPartial<AssistantConfig> = {}) {
  retrieval.queries = [];
  const telemetry = memoryTelemetry();
  const logger = memoryLogger();
  let n = 0;
  return {
    telemetry,
    logger,
    deps: {
      config: mergeConfig(defaultConfig(), patch), llm, parser, retrieval, relevance: yes, telemetry, logger,
      parserVersion: () => 'pv-1', newId: () => `gen-${++n}`,
    },
  };
}

const VALID = '```avap\naddParam(password, p)\nencodeSHA256(p, h)\naddResult(h)\n```';
const INVALID = '```avap\naddParam(password, p)\ngetSHA256(p, h)\naddResult(h)\n```';
const CODE = { query: 'hash', forceType: 'CODE_GENERATION' as const };

describe('core/pipeline graph (fakes behind the ports)', () => {
  it('valid first time: "" and one telemetry event with the run\'s fields', async () => {
    const llm = fakeLlm({ reformulate: ['encodeSHA256'], generate_code: [VALID] });
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
    assert.ok(['classify', 'reformulate', 'retrieve', 'generate_code', 'validate_code'].every((k) => typeof event?.latencies_ms[k] === 'number'));
    assert.ok(!Number.isNaN(Date.parse(event?.timestamp ?? '')));
  });

  it('the retry budget comes from settings: maxRetries 0 → INVALID_UNRESOLVED after one attempt', async () => {
    const llm = fakeLlm({ reformulate: ['q'], generate_code: [INVALID, VALID] });
    const { deps: d } = deps(llm, fakeParser(), { pipeline: { maxRetries: 0 } });
    const result = await runPipeline(d, CODE);
    assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');
    assert.equal(result.attempts.length, 1);
  });

  it('convergence protection with a bigger budget: stops when the same error comes back', async () => {
    const llm = fakeLlm({ reformulate: ['q'], generate_code: [INVALID] });
    const { deps: d, telemetry } = deps(llm, fakeParser(), { pipeline: { maxRetries: 3 } });
    const result = await runPipeline(d, CODE);
    assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');
    assert.equal(result.attempts.length, 2);
    assert.equal(telemetry.events[1]?.stop_reason, 'repeated-error');
  });

  it('an unavailable parser never triggers an LLM retry and logs RC-07', async () => {
    const llm = fakeLlm({ reformulate: ['q'], generate_code: [INVALID] });
    const { deps: d, logger, telemetry } = deps(llm, fakeParser('down'));
    const result = await runPipeline(d, CODE);
    assert.equal(result.validationStatus, 'PARSER_UNAVAILABLE');
    assert.equal(llm.calls.filter((c) => promptTask(c.messages[0]?.content ?? '') === 'generate_code').length, 1);
    assert.ok(logger.lines.some((l) => l.startsWith(LOG_PARSER_UNAVAILABLE)));
    assert.equal(telemetry.events[0]?.verdict, 'unavailable');
  });

  it('invalid then parser gone on the retry: the retry code is returned PARSER_UNAVAILABLE (no evidence about it)', async () => {
    const llm = fakeLlm({ reformulate: ['q'], generate_code: [INVALID, VALID] });
    const parser = fakeParser();
    let calls = 0;
    const flaky: ParserPort = { ...parser, validate: async (s, f, sig) => (++calls === 1 ? parser.validate(s, f, sig) : { kind: 'unavailable', reason: 'timeout', detail: 'slow' }) };
    const { deps: d } = deps(llm, flaky);
    const result = await runPipeline(d, CODE);
    assert.equal(result.validationStatus, 'PARSER_UNAVAILABLE');
    assert.equal(result.attempts.length, 2);
  });

  it('an answer with no code at all is validated whole; an empty answer is E009 and retried', async () => {
    const prose = fakeLlm({ reformulate: ['q'], generate_code: ['I cannot help with that.', VALID] });
    const { deps: d1 } = deps(prose, fakeParser());
    const r1 = await runPipeline(d1, CODE);
    assert.equal(r1.attempts.length, 2);
    assert.equal(r1.validationStatus, '');

    const empty = fakeLlm({ reformulate: ['q'], generate_code: ['', ''] });
    const { deps: d2, telemetry } = deps(empty, fakeParser());
    const r2 = await runPipeline(d2, CODE);
    assert.equal(r2.validationStatus, 'INVALID_UNRESOLVED');
    assert.equal(telemetry.events[0]?.errors[0]?.code, 'E009');
  });

  it('a failed retry generation returns the invalid candidate INVALID_UNRESOLVED with the error', async () => {
    const llm = fakeLlm({ reformulate: ['q'], generate_code: [INVALID, { ok: false, error: { code: 'llm-timeout', message: 'slow' } }] });
    const { deps: d } = deps(llm, fakeParser());
    const result = await runPipeline(d, CODE);
    assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');
    assert.equal(result.error?.code, 'llm-timeout');
    assert.match(result.code, /getSHA256/);
  });

  it('an LLM failure before any answer: result.error, status "", a final message, a telemetry event', async () => {
    const llm = fakeLlm({ classify: [{ ok: false, error: { code: 'llm-unreachable', message: 'down' } }] });
    const { deps: d, telemetry } = deps(llm, fakeParser());
    const messages: ResponseMessage[] = [];
    const result = await runPipeline(d, { query: 'hi' }, { onMessage: (m) => messages.push(m) });
    assert.deepEqual(result.error, { code: 'llm-unreachable', message: 'down' });
    assert.deepEqual(messages, [{ text: '', avap_code: '', is_final: true, validation_status: '' }]);
    assert.equal(telemetry.events[0]?.error_code, 'llm-unreachable');
  });

  it('an already-aborted signal ends at once as cancelled', async () => {
    const llm = fakeLlm({});
    const { deps: d } = deps(llm, fakeParser());
    const controller = new AbortController();
    controller.abort();
    const result = await runPipeline(d, CODE, { signal: controller.signal });
    assert.equal(result.error?.code, 'cancelled');
    assert.equal(llm.calls.length, 0);
  });

  it('a throwing onMessage listener does not break the run', async () => {
    const llm = fakeLlm({ reformulate: ['q'], generate_code: [VALID] });
    const { deps: d } = deps(llm, fakeParser());
    const result = await runPipeline(d, CODE, { onMessage: () => { throw new Error('ui gone'); } });
    assert.equal(result.validationStatus, '');
  });

  it('a throwing telemetry sink does not influence generation', async () => {
    const llm = fakeLlm({ reformulate: ['q'], generate_code: [VALID] });
    const { deps: d } = deps(llm, fakeParser());
    const result = await runPipeline({ ...d, telemetry: { record: () => { throw new Error('disk full'); }, flush: async () => undefined } }, CODE);
    assert.equal(result.validationStatus, '');
  });

  describe('few-shot injection (ADR-0007)', () => {
    const pool = (request: string, k: number) => Array.from({ length: Math.min(k, 7) }, (_, i) => ({ request: `example ${i} for ${request}`, code: `addVar(x${i}, ${i})` }));
    const prompt = (call: ChatCall | undefined) => (call?.messages ?? []).map((m) => m.content).join('\n');

    it('injects K = 5 validated examples by default, logs the effective K, and reuses them on the retry', async () => {
      const llm = fakeLlm({ reformulate: ['q'], generate_code: [INVALID, VALID] });
      const { deps: d, logger } = deps(llm, fakeParser());
      let selections = 0;
      const result = await runPipeline({ ...d, examples: (r, k) => { selections += 1; return pool(r, k); } }, CODE);
      assert.equal(result.validationStatus, '');
      assert.deepEqual(result.fewShot, { status: 'enabled', k: 5, injected: 5 });
      assert.equal(selections, 1);
      const generations = llm.calls.filter((c) => promptTask(c.messages[0]?.content ?? '') === 'generate_code');
      assert.equal(generations.length, 2);
      for (const call of generations) {
        assert.match(prompt(call), /addVar\(x4, 4\)/);
        assert.doesNotMatch(prompt(call), /addVar\(x5, 5\)/);
      }
      assert.ok(logger.lines.some((l) => l.includes('[ptvl] few-shot: K=5, 5 validated example(s) injected')), logger.lines.join('\n'));
    });

    it('K comes from the configuration; 0 disables the injection', async () => {
      const llm = fakeLlm({ reformulate: ['q'], generate_code: [VALID] });
      const { deps: d } = deps(llm, fakeParser(), { pipeline: { fewShotExamples: 2 } });
      assert.deepEqual((await runPipeline({ ...d, examples: pool }, CODE)).fewShot, { status: 'enabled', k: 2, injected: 2 });
      const off = deps(fakeLlm({ reformulate: ['q'], generate_code: [VALID] }), fakeParser(), { pipeline: { fewShotExamples: 0 } });
      const result = await runPipeline({ ...off.deps, examples: () => { throw new Error('must not be called'); } }, CODE);
      assert.deepEqual(result.fewShot, { status: 'disabled', k: 0, injected: 0 });
    });

    it('a failing example retrieval degrades the run instead of failing it', async () => {
      const llm = fakeLlm({ reformulate: ['q'], generate_code: [VALID] });
      const { deps: d, logger } = deps(llm, fakeParser());
      const result = await runPipeline({ ...d, examples: () => { throw new Error('pool index corrupt'); } }, CODE);
      assert.equal(result.validationStatus, '');
      assert.equal(result.code.includes('encodeSHA256'), true);
      assert.deepEqual(result.fewShot, { status: 'degraded', k: 5, injected: 0, detail: 'pool index corrupt' });
      assert.ok(logger.lines.some((l) => l.includes('few_shot_injection: degraded')), logger.lines.join('\n'));
    });

    it('records how the examples were chosen, and flags the lexical fallback with its reason', async () => {
      const byEmbedding = deps(fakeLlm({ reformulate: ['q'], generate_code: [VALID] }), fakeParser());
      const embedded = await runPipeline({ ...byEmbedding.deps, examples: async (r, k) => ({ examples: pool(r, k), selection: 'embedding' }) }, CODE);
      assert.deepEqual(embedded.fewShot, { status: 'enabled', k: 5, injected: 5, selection: 'embedding' });
      assert.ok(byEmbedding.logger.lines.some((l) => l.includes('few-shot: K=5, 5 validated example(s) injected by embedding similarity')), byEmbedding.logger.lines.join('\n'));

      const lexical = deps(fakeLlm({ reformulate: ['q'], generate_code: [VALID] }), fakeParser());
      const fallback = await runPipeline({ ...lexical.deps, examples: async (r) => ({ examples: pool(r, 3), selection: 'lexical', detail: 'model missing' }) }, CODE);
      assert.deepEqual(fallback.fewShot, { status: 'enabled', k: 5, injected: 3, selection: 'lexical', selectionDetail: 'model missing' });
      assert.ok(lexical.logger.lines.some((l) => l.includes('no embedding similarity (model missing)') && l.includes('few_shot_selection: lexical')), lexical.logger.lines.join('\n'));
    });

    it('is not part of non-code answers', async () => {
      const llm = fakeLlm({ classify: ['{"type":"CONVERSATIONAL"}'], conversational: ['Hi!'] });
      const { deps: d } = deps(llm, fakeParser());
      assert.equal((await runPipeline({ ...d, examples: pool }, { query: 'hello' })).fewShot, undefined);
    });
  });

  it('CONVERSATIONAL uses the conversational model and no retrieval', async () => {
    const llm = fakeLlm({ classify: ['{"type":"CONVERSATIONAL"}'], conversational: ['Hi!'] });
    const { deps: d } = deps(llm, fakeParser());
    const result = await runPipeline(d, { query: 'hello' });
    assert.equal(result.text, 'Hi!');
    assert.deepEqual(retrieval.queries, []);
    assert.equal(llm.calls[1]?.model, 'qwen3:0.6b');
  });

  describe('ADR-0009 state on the result: parser_trace of the first attempt, context_relevant', () => {
    it('keeps the first validation\'s raw trace after a retry fixed the code; empty when the first attempt was valid', async () => {
      const fixed = await runPipeline(deps(fakeLlm({ reformulate: ['q'], generate_code: [INVALID, VALID] }), fakeParser()).deps, CODE);
      assert.equal(fixed.validationStatus, '');
      assert.equal(fixed.parserTrace, "Line 2: 'getSHA256' not defined — did you mean 'encodeSHA256'?");
      const valid = await runPipeline(deps(fakeLlm({ reformulate: ['q'], generate_code: [VALID] }), fakeParser()).deps, CODE);
      assert.equal(valid.parserTrace, '');
      const noCode = await runPipeline(deps(fakeLlm({ reformulate: ['q'], generate_code: ['', VALID] }), fakeParser()).deps, CODE);
      assert.equal(noCode.parserTrace, 'Line 1: the answer contained no AVAP code');
      const down = await runPipeline(deps(fakeLlm({ reformulate: ['q'], generate_code: [INVALID] }), fakeParser('down')).deps, CODE);
      assert.deepEqual([down.validationStatus, down.parserTrace], ['PARSER_UNAVAILABLE', ''], 'no verdict, no trace: the status says why');
      assert.equal(valid.contextRelevant, undefined, 'code generation has no relevance check');
    });

    it('the correction path: the given trace is the first attempt\'s', async () => {
      const bad = 'getSHA256(p, h)';
      const result = await runPipeline(deps(fakeLlm({ generate_code: [VALID] }), fakeParser()).deps, { query: 'fix', correction: { code: bad, trace: validateAvap(bad).trace } });
      assert.equal(result.parserTrace, "Line 1: 'getSHA256' not defined — did you mean 'encodeSHA256'?");
    });

    it('RETRIEVAL answers carry context_relevant (the first retrieval\'s verdict) and no parser_trace', async () => {
      const llm = () => fakeLlm({ classify: ['{"type":"RETRIEVAL"}'], reformulate: ['q'], generate: ['Use encodeSHA256(source, target).'] });
      const relevant = await runPipeline(deps(llm(), fakeParser()).deps, { query: 'how do I hash?' });
      assert.deepEqual([relevant.queryType, relevant.contextRelevant, relevant.parserTrace], ['RETRIEVAL', true, undefined]);
      const no: RelevancePort = { mode: 'llm', judge: async () => ({ ok: true, value: { relevant: false, detail: 'NO' } }) };
      const irrelevant = await runPipeline({ ...deps(llm(), fakeParser()).deps, relevance: no }, { query: 'how do I hash?' });
      assert.deepEqual([irrelevant.contextRelevant, irrelevant.relevanceRetry], [false, true]);
    });
  });

  it('cleans reformulations down to one search line', () => {
    assert.equal(cleanSearchQuery('<think>x</think>\nSearch query: "encodeSHA256 hash"\nmore', 'orig'), 'encodeSHA256 hash');
    assert.equal(cleanSearchQuery('   \n', 'orig'), 'orig');
  });
});

/**
 * Every status earned, over real sockets — the real parser service (gRPC, through the
 * proxy) and the scripted Ollama server (HTTP) with its fault modes: every
 * final status is earned on every route, a failed run claims nothing, one
 * retry cycle per request, and a stalled model never hangs a request.
 */
import assert from 'node:assert/strict';
import type { ResponseMessage } from '../../../src/core';
import { CORRECTION_HEAD } from '../../../src/core/routing/prompts';
import { lastUser } from '../../support/scriptedOllama';
import {
  fenced,
  harness,
  INVALID_CODE,
  pipelineHooks,
  scriptReformulate,
  task,
  VALID_CODE,
  type World,
} from './fixture';

describe('pipeline: every status is earned over real sockets', function () {
  let world: World;

  pipelineHooks((w) => {
    world = w;
  });

  const drafts = (messages: ResponseMessage[]) => messages.filter((m) => !m.is_final);
  const assertDrafts = (messages: ResponseMessage[]) => {
    for (const m of drafts(messages)) {
      assert.equal(!m.is_final && m.draft, true, JSON.stringify(m));
      assert.equal(m.avap_code, '');
      assert.equal('validation_status' in m, false, 'a draft makes no validity claim');
    }
    assert.equal(messages.filter((m) => m.is_final).length, 1);
    assert.equal(messages.at(-1)?.is_final, true);
  };

  /** Every node answers invalid AVAP: the model that writes sha256Encode whatever it is asked. */
  function invalidEverywhere(classification: string): void {
    world.ollama.on({ endpoint: 'chat', when: task('classify') }, { content: classification });
    world.ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256 password' });
    world.ollama.on({ endpoint: 'chat', when: task('relevance') }, { content: 'YES' });
    for (const node of ['generate', 'generate_code', 'conversational', 'platform'] as const) {
      world.ollama.on({ endpoint: 'chat', when: task(node) }, { content: fenced(INVALID_CODE) });
    }
  }

  for (const [route, request] of [
    ['CODE_GENERATION', { query: 'write code that hashes the password', forceType: 'CODE_GENERATION' as const }],
    ['RETRIEVAL', { query: 'how do I hash a password?', forceType: 'RETRIEVAL' as const }],
    ['CONVERSATIONAL', { query: 'hi! show me something', forceType: 'CONVERSATIONAL' as const }],
    ['PLATFORM', { query: 'my project usage is at 20%, what now?', forceType: 'PLATFORM' as const }],
  ] as const) {
    it(`invalid code on the ${route} route: validated, retried once with the trace, INVALID_UNRESOLVED — never ""`, async () => {
      const h = await harness(world);
      invalidEverywhere(`{"type":"${route}"}`);
      const messages: ResponseMessage[] = [];
      const result = await h.assistant.run(request, { onMessage: (m) => messages.push(m) });
      assert.equal(result.queryType, route);
      assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');
      assert.equal(result.attempts.length, 2);
      assert.equal(h.transport.calls.length, 2, 'each attempt went to the parser service');
      const retries = world.ollama.calls('chat').filter((r) => lastUser(r).includes(CORRECTION_HEAD));
      assert.equal(retries.length, 1, 'exactly one trace-guided retry');
      assert.match(lastUser(retries[0] as never), /Line 2: unknown command 'sha256Encode'/);
      assertDrafts(messages);
      // The final message delivers the answer the status is about: the invalid code it shows, flagged.
      assert.deepEqual(messages.at(-1), {
        text: fenced(INVALID_CODE),
        avap_code: INVALID_CODE,
        is_final: true,
        validation_status: 'INVALID_UNRESOLVED',
      });
      const events = h.telemetry.events;
      assert.deepEqual(
        events.map((e) => [e.attempt, e.verdict, e.final, e.validation_status ?? null]),
        [
          [1, 'invalid', false, null],
          [2, 'invalid', true, 'INVALID_UNRESOLVED'],
        ],
      );
      assert.ok(
        events[0]?.errors.every((e) => e.expected !== undefined),
        'error records carry expected',
      );
    });
  }

  it('the classifier answering prose twice falls back to RETRIEVAL — and the code of that answer is validated', async () => {
    const h = await harness(world, { pipeline: { maxRetries: 0 } });
    world.ollama.on({ endpoint: 'chat', when: task('classify') }, { content: 'Sure! This is a request for code.' });
    world.ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256' });
    world.ollama.on({ endpoint: 'chat', when: task('relevance') }, { content: 'YES' });
    world.ollama.on({ endpoint: 'chat', when: task('generate') }, { content: fenced(INVALID_CODE) });
    const result = await h.assistant.run({ query: 'write code that returns the SHA-256 of the password' });
    assert.equal(result.classification, 'default');
    assert.equal(result.queryType, 'RETRIEVAL');
    assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');
    assert.deepEqual(result.retry?.skipped, [{ trigger: 'parser-trace', reason: 'retries-disabled' }]);
  });

  it("a relevance reformulation uses the request's one retry: invalid code in the answer is not retried again", async () => {
    const h = await harness(world);
    world.ollama.on({ endpoint: 'chat', when: task('classify') }, { content: '{"type":"RETRIEVAL"}' });
    world.ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256' });
    world.ollama.on({ endpoint: 'chat', when: task('relevance') }, { content: 'NO' });
    const gen = world.ollama.on({ endpoint: 'chat', when: task('generate') }, { content: fenced(INVALID_CODE) });
    const result = await h.assistant.run({ query: 'how do I hash?' });
    assert.equal(result.relevanceRetry, true);
    assert.equal(gen.used, 1);
    assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');
    assert.equal(h.telemetry.events.at(-1)?.stop_reason, 'retry-cycle-used-by-relevance');
    assert.ok(
      h.logger.lines.some((l) =>
        l.includes("retry skipped (parser-trace: the request's one retry was already used by relevance)"),
      ),
      h.logger.lines.join('\n'),
    );
  });

  it('a documentation answer with valid code earns "" only after the parser saw it', async () => {
    const h = await harness(world);
    world.ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256' });
    world.ollama.on({ endpoint: 'chat', when: task('relevance') }, { content: 'YES' });
    world.ollama.on({ endpoint: 'chat', when: task('generate') }, { content: fenced(VALID_CODE) });
    const result = await h.assistant.run({ query: 'how do I hash?', forceType: 'RETRIEVAL' });
    assert.equal(result.validationStatus, '');
    assert.equal(h.transport.calls.length, 1);
    assert.equal(result.code, VALID_CODE);
  });

  it('a model that stalls mid-stream is aborted after the idle timeout with a clear error; nothing is claimed', async () => {
    const h = await harness(world, { ollama: { idleTimeoutMs: 300 } });
    scriptReformulate(world.ollama);
    world.ollama.on(
      { endpoint: 'chat', when: task('generate_code') },
      { content: fenced(VALID_CODE), stallAfterChunks: 3 },
    );
    const messages: ResponseMessage[] = [];
    const result = await h.assistant.run(
      { query: 'hash', forceType: 'CODE_GENERATION' },
      { onMessage: (m) => messages.push(m) },
    );
    assert.equal(result.error?.code, 'llm-timeout');
    assert.match(result.error?.message ?? '', /stopped sending mid-answer: nothing for 0\.3 s .*AVAP_LLM_IDLE_TIMEOUT/);
    assert.equal(result.validationStatus, undefined);
    assert.equal(drafts(messages).length, 3, 'the pieces that arrived were streamed as drafts');
    assert.deepEqual(messages.at(-1), { text: '', avap_code: '', is_final: true });
    assert.equal(h.transport.calls.length, 0, 'nothing was validated');
    const call = await world.ollama.waitFor(task('generate_code'));
    await new Promise<void>((resolve) => {
      const poll = () => (call.answered ? resolve() : setTimeout(poll, 10));
      poll();
    });
  });

  it('the idle timeout is separate from the first-byte allowance: a cold model load longer than the idle limit is waited for', async () => {
    const h = await harness(world, { ollama: { idleTimeoutMs: 100, ttfbTimeoutMs: 20_000 } });
    scriptReformulate(world.ollama);
    world.ollama.on(
      { endpoint: 'chat', when: task('generate_code') },
      { content: fenced(VALID_CODE), firstChunkDelayMs: 400 },
    );
    const result = await h.assistant.run({ query: 'hash', forceType: 'CODE_GENERATION' });
    assert.equal(result.error, undefined);
    assert.equal(result.validationStatus, '');
  });

  it('Ollama crashing on the retry: the invalid first answer stands INVALID_UNRESOLVED with the error', async () => {
    const h = await harness(world);
    scriptReformulate(world.ollama);
    world.ollama.on({ endpoint: 'chat', when: task('generate_code'), times: 1 }, { content: fenced(INVALID_CODE) });
    world.ollama.on({ endpoint: 'chat', when: task('generate_code') }, { crash: true });
    const result = await h.assistant.run({ query: 'hash', forceType: 'CODE_GENERATION' });
    assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');
    assert.ok(result.error, "the retry's failure is reported");
    assert.equal(result.code, INVALID_CODE);
    assert.equal(h.telemetry.events.at(-1)?.stop_reason, 'retry-failed');
  });
});

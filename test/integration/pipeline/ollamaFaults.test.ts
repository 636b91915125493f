/**
 * The Ollama client under real faults: nothing listening, a model that was
 * never pulled, a slow first byte, a slow but running stream, a stream cut
 * mid-answer, and cancellation — each as distinct, actionable errors.
 */
import assert from 'node:assert/strict';
import { type ResponseMessage, createOllamaLlm, defaultConfig } from '../../../src/core';
import {
  fenced,
  harness,
  pipelineHooks,
  scriptReformulate,
  task,
  VALID_CODE,
  type Harness,
  type World,
} from './fixture';
import { unusedPort } from '../../support/ports';

describe('pipeline: Ollama faults over real sockets', function () {
  let world: World;
  let h: Harness | undefined;
  const request = { query: 'hash the password', forceType: 'CODE_GENERATION' as const };

  pipelineHooks((w) => {
    world = w;
  });

  it('Ollama not running: llm-unreachable with the host and what to do, and a final message', async () => {
    const port = await unusedPort();
    h = await harness(world, { ollama: { host: `http://127.0.0.1:${port}` } });
    const messages: ResponseMessage[] = [];
    const result = await h.assistant.run(request, { onMessage: (m) => messages.push(m) });
    assert.equal(result.error?.code, 'llm-unreachable');
    assert.match(
      result.error?.message ?? '',
      new RegExp(`not running at http://127\\.0\\.0\\.1:${port}.*ollama serve`),
    );
    assert.equal(messages.length, 1);
    assert.equal(messages[0]?.is_final, true);
    assert.equal(h.transport.calls.length, 0);
  });

  it('a model that was never pulled: model-missing naming the model and `ollama pull`', async () => {
    h = await harness(world, { ollama: { model: 'not-pulled:7b' } });
    const result = await h.assistant.run(request);
    assert.equal(result.error?.code, 'model-missing');
    assert.match(result.error?.message ?? '', /'not-pulled:7b'.*ollama pull not-pulled:7b/);
  });

  it('no first byte within the TTFB timeout: llm-timeout', async () => {
    h = await harness(world, { ollama: { ttfbTimeoutMs: 200 } });
    world.ollama.on({ endpoint: 'chat', when: task('reformulate') }, { stall: true });
    const result = await h.assistant.run(request);
    assert.equal(result.error?.code, 'llm-timeout');
    assert.match(result.error?.message ?? '', /sent nothing for/);
  });

  it('headers without a body byte within the TTFB timeout also time out', async () => {
    h = await harness(world, { ollama: { ttfbTimeoutMs: 200 } });
    scriptReformulate(world.ollama);
    world.ollama.on(
      { endpoint: 'chat', when: task('generate_code') },
      { content: fenced(VALID_CODE), firstChunkDelayMs: 1000 },
    );
    const result = await h.assistant.run(request);
    assert.equal(result.error?.code, 'llm-timeout');
  });

  it('a stream that has started is never cut by the TTFB timeout, however slow', async () => {
    h = await harness(world, { ollama: { ttfbTimeoutMs: 150 } });
    scriptReformulate(world.ollama);
    const content = fenced(VALID_CODE);
    const pieces = content.match(/[\s\S]{1,12}/g) ?? [];
    world.ollama.on({ endpoint: 'chat', when: task('generate_code') }, { chunks: pieces, chunkDelayMs: 60 });
    assert.ok(pieces.length * 60 > 3 * 150, 'the stream lasts several timeouts');
    const result = await h.assistant.run(request);
    assert.equal(result.error, undefined);
    assert.equal(result.validationStatus, '');
    assert.equal(result.text, content);
  });

  it('a stream cut mid-answer: llm-failed ("cut off"), nothing validated', async () => {
    h = await harness(world);
    scriptReformulate(world.ollama);
    world.ollama.on(
      { endpoint: 'chat', when: task('generate_code') },
      { content: fenced(VALID_CODE), cutAfterChunks: 3 },
    );
    const messages: ResponseMessage[] = [];
    const result = await h.assistant.run(request, { onMessage: (m) => messages.push(m) });
    assert.equal(result.error?.code, 'llm-failed');
    assert.match(result.error?.message ?? '', /cut off/);
    assert.equal(h.transport.calls.length, 0);
    assert.ok(messages.filter((m) => !m.is_final).length <= 3, 'only pieces that arrived were streamed');
    assert.equal(messages[messages.length - 1]?.is_final, true);
  });

  it("an error reported inside the stream: llm-failed with Ollama's message", async () => {
    h = await harness(world);
    scriptReformulate(world.ollama);
    world.ollama.on(
      { endpoint: 'chat', when: task('generate_code') },
      { chunks: ['```avap\n'], streamError: 'out of memory' },
    );
    const result = await h.assistant.run(request);
    assert.equal(result.error?.code, 'llm-failed');
    assert.match(result.error?.message ?? '', /out of memory/);
  });

  it('cancellation while waiting for the model aborts the HTTP request', async () => {
    h = await harness(world);
    scriptReformulate(world.ollama);
    world.ollama.on({ endpoint: 'chat', when: task('generate_code') }, { stall: true });
    const controller = new AbortController();
    const pending = h.assistant.run(request, { signal: controller.signal });
    const call = await world.ollama.waitFor(task('generate_code'));
    controller.abort();
    const result = await pending;
    assert.equal(result.error?.code, 'cancelled');
    // The server sees the connection go away.
    await new Promise<void>((resolve) => {
      const poll = () => (call.answered ? resolve() : setTimeout(poll, 10));
      poll();
    });
  });

  it('cancellation mid-stream stops the stream', async () => {
    h = await harness(world);
    scriptReformulate(world.ollama);
    const pieces = fenced(VALID_CODE).match(/[\s\S]{1,4}/g) ?? [];
    world.ollama.on({ endpoint: 'chat', when: task('generate_code') }, { chunks: pieces, chunkDelayMs: 40 });
    const controller = new AbortController();
    const messages: ResponseMessage[] = [];
    const result = await h.assistant.run(request, {
      signal: controller.signal,
      onMessage: (m) => {
        messages.push(m);
        if (messages.length === 2) controller.abort();
      },
    });
    assert.equal(result.error?.code, 'cancelled');
    assert.ok(messages.filter((m) => !m.is_final).length < pieces.length);
    assert.equal(h.transport.calls.length, 0);
  });

  it('embeddings and the model list come from the same client', async () => {
    const llm = createOllamaLlm({ ...defaultConfig().ollama, host: world.ollama.url });
    const models = await llm.models();
    assert.deepEqual(models.ok && models.value, ['qwen3:1.7b', 'qwen3:0.6b', 'qwen3-embedding:0.6b']);
    const vectors = await llm.embed('qwen3-embedding:0.6b', ['a', 'b']);
    assert.equal(vectors.ok && vectors.value.length, 2);
    const missing = await llm.embed('nope', ['a']);
    assert.equal(!missing.ok && missing.error.code, 'model-missing');
  });
});

/**
 * Classification and the RETRIEVAL route end to end over real sockets:
 * the JSON-schema classifier with its repair and safe default, the relevance
 * check (LLM and cosine adapters) with the hinted second retrieval.
 */
import assert from 'node:assert/strict';
import {
  CLASSIFICATION_JSON_SCHEMA,
  LOG_CLASSIFIER_DEFAULT_ROUTE,
  logClassifierMalformed,
  contextInsufficientHint,
} from '../../../src/core';
import { lastUser } from '../../support/scriptedOllama';
import { harness, pipelineHooks, task, type Harness, type World } from './fixture';
import { prefixed } from '../../../src/core/ports';

describe('pipeline: classification and retrieval routing over real sockets', function () {
  let world: World;
  let h: Harness | undefined;

  pipelineHooks((w) => {
    world = w;
  });

  const QUESTION = 'How do I read a request parameter?';

  function scriptRetrievalRoute(relevance: 'YES' | 'NO' | undefined) {
    world.ollama.on({ endpoint: 'chat', when: task('classify') }, { content: '{"type":"RETRIEVAL"}' });
    world.ollama.on(
      { endpoint: 'chat', when: (r) => task('reformulate')(r) && !lastUser(r).startsWith('[CONTEXT_INSUFFICIENT]') },
      { content: 'loops inclusive bounds' },
    );
    world.ollama.on(
      { endpoint: 'chat', when: (r) => task('reformulate')(r) && lastUser(r).startsWith('[CONTEXT_INSUFFICIENT]') },
      { content: 'addParam request parameter query string' },
    );
    if (relevance) world.ollama.on({ endpoint: 'chat', when: task('relevance') }, { content: relevance });
    return world.ollama.on(
      { endpoint: 'chat', when: task('generate') },
      { content: 'Use addParam(name, target) [1].' },
    );
  }

  it('classifies through Ollama with the JSON schema as `format` and routes RETRIEVAL', async () => {
    h = await harness(world);
    const gen = scriptRetrievalRoute('YES');
    const result = await h.assistant.run({ query: QUESTION });
    assert.equal(result.error, undefined);
    assert.equal(result.queryType, 'RETRIEVAL');
    assert.equal(result.classification, 'llm');
    assert.equal(result.validationStatus, '');
    assert.equal(result.text, 'Use addParam(name, target) [1].');
    assert.equal(gen.used, 1);
    const classify = world.ollama.calls('chat').find(task('classify'));
    assert.deepEqual(classify?.body.format, CLASSIFICATION_JSON_SCHEMA);
    assert.equal(classify?.body.options?.temperature, 0);
    assert.equal(typeof classify?.body.options?.seed, 'number');
    assert.equal(typeof classify?.body.options?.num_ctx, 'number');
    assert.equal(classify?.body.keep_alive, h.config.ollama.keepAlive);
    assert.equal(result.relevanceRetry, false);
    assert.equal(h.transport.calls.length, 0, 'RETRIEVAL answers are not sent to the parser');
  });

  it('relevance NO → reformulate_with_hint → one more retrieval → generation, unconditionally', async () => {
    h = await harness(world);
    const gen = scriptRetrievalRoute('NO');
    const result = await h.assistant.run({ query: QUESTION });
    assert.equal(result.error, undefined);
    assert.equal(result.relevanceRetry, true);
    assert.equal(result.relevance?.relevant, false);
    assert.deepEqual(result.searchQueries, ['loops inclusive bounds', 'addParam request parameter query string']);
    assert.deepEqual(
      h.knowledge.queries,
      ['loops inclusive bounds', 'addParam request parameter query string'],
      'retrieved exactly twice',
    );
    const chats = world.ollama.calls('chat');
    assert.equal(chats.filter(task('relevance')).length, 1, 'the second context is not judged again');
    assert.equal(gen.used, 1, 'generation happens once, unconditionally');
    const hinted = chats.filter(task('reformulate'))[1];
    assert.equal(lastUser(hinted as never), contextInsufficientHint(QUESTION));
    // The generation used the second retrieval's context.
    const generation = chats.find(task('generate'));
    assert.match(generation?.body.messages?.[0]?.content ?? '', /addParam\(name, target\) reads a request parameter/);
    assert.ok(result.sources.some((s) => s.id === 'cmd-addParam::overview'));
    assert.equal(h.telemetry.events[0]?.relevance_retry, true);
  });

  it('the cosine adapter decides without an LLM call and triggers the same hinted retrieval', async () => {
    h = await harness(world, { relevance: { mode: 'cosine', cosineThreshold: 0.99 } });
    const gen = scriptRetrievalRoute(undefined);
    const result = await h.assistant.run({ query: QUESTION });
    assert.equal(result.error, undefined);
    assert.equal(result.relevance?.mode, 'cosine');
    assert.equal(result.relevance?.relevant, false);
    assert.match(result.relevance?.detail ?? '', /^cosine \d\.\d{3} < 0\.99$/);
    assert.equal(result.relevanceRetry, true);
    assert.equal(world.ollama.calls('chat').filter(task('relevance')).length, 0);
    assert.equal(gen.used, 1);
    assert.equal(result.retrievalMode, 'hybrid', 'vectors from the embedding model were fused with BM25');
  });

  it('the cosine adapter passes relevant context with a low threshold', async () => {
    h = await harness(world, { relevance: { mode: 'cosine', cosineThreshold: -1 } });
    scriptRetrievalRoute(undefined);
    const result = await h.assistant.run({ query: QUESTION });
    assert.equal(result.relevance?.relevant, true);
    assert.equal(result.relevanceRetry, false);
    assert.equal(h.knowledge.queries.length, 1);
  });

  it('a malformed classification gets one repair with the zod error verbatim', async () => {
    h = await harness(world);
    world.ollama.on({ endpoint: 'chat', when: task('classify'), times: 1 }, { content: '{"type":"QUESTION"}' });
    world.ollama.on({ endpoint: 'chat', when: task('classify'), times: 1 }, { content: '{"type":"CONVERSATIONAL"}' });
    const reply = world.ollama.on({ endpoint: 'chat', when: task('conversational') }, { content: 'Hello!' });
    const result = await h.assistant.run({ query: 'hi there' });
    assert.equal(result.queryType, 'CONVERSATIONAL');
    assert.equal(result.classification, 'repaired');
    assert.equal(reply.used, 1);
    const repair = world.ollama.calls('chat').filter(task('classify'))[1];
    assert.match(
      lastUser(repair as never),
      /Invalid option: expected one of "CODE_GENERATION"\|"RETRIEVAL"\|"CONVERSATIONAL"\|"PLATFORM"\n {2}→ at type/,
    );
    assert.ok(
      h.logger.lines.some((l) => l.startsWith(prefixed(logClassifierMalformed('').split('(')[0] ?? ''))),
      h.logger.lines.join('\n'),
    );
    assert.equal(world.ollama.calls('chat').filter(task('reformulate')).length, 0, 'CONVERSATIONAL skips retrieval');
  });

  it('malformed twice: the safe default route (RETRIEVAL), logged', async () => {
    h = await harness(world);
    world.ollama.on({ endpoint: 'chat', when: task('classify') }, { content: 'CODE please' });
    world.ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'addParam' });
    world.ollama.on({ endpoint: 'chat', when: task('relevance') }, { content: 'YES' });
    world.ollama.on({ endpoint: 'chat', when: task('generate') }, { content: 'An explanation.' });
    const result = await h.assistant.run({ query: 'something' });
    assert.equal(result.queryType, 'RETRIEVAL');
    assert.equal(result.classification, 'default');
    assert.equal(world.ollama.calls('chat').filter(task('classify')).length, 2);
    assert.ok(h.logger.lines.includes(prefixed(LOG_CLASSIFIER_DEFAULT_ROUTE)), h.logger.lines.join('\n'));
  });

  it('platform prompts take the fast path: no classifier call, no retrieval, conversational model', async () => {
    h = await harness(world);
    const reply = world.ollama.on({ endpoint: 'chat', when: task('platform') }, { content: 'Consider upgrading.' });
    const result = await h.assistant.run({
      query: 'You have a project usage percentage of 20%, provide a recommendation',
    });
    assert.equal(result.queryType, 'PLATFORM');
    assert.equal(result.classification, 'fast-path');
    assert.equal(reply.used, 1);
    assert.equal(world.ollama.calls('chat').length, 1);
    assert.equal(world.ollama.calls('chat')[0]?.body.model, h.config.ollama.conversationalModel);
    assert.equal(h.knowledge.queries.length, 0);
  });

  it('CODE_GENERATION chosen by the classifier goes through the parser', async () => {
    h = await harness(world);
    world.ollama.on({ endpoint: 'chat', when: task('classify') }, { content: '{"type":"CODE_GENERATION"}' });
    world.ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256' });
    world.ollama.on(
      { endpoint: 'chat', when: task('generate_code') },
      { content: '```avap\naddParam(p, v)\naddResult(v)\n```' },
    );
    const result = await h.assistant.run({ query: 'write code that echoes p' });
    assert.equal(result.queryType, 'CODE_GENERATION');
    assert.equal(result.validationStatus, '');
    assert.equal(h.transport.calls.length, 1);
  });
});

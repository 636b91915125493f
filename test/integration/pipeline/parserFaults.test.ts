/**
 * The parser client and the circuit breaker under real faults: the real
 * parser service behind a TCP proxy that refuses, stalls or cuts
 * connections, and a real process kill. The cooldown runs on a manual clock.
 */
import assert from 'node:assert/strict';
import {
  LOG_CLOSED,
  LOG_HALF_OPEN,
  LOG_PARSER_UNAVAILABLE,
  LOG_SKIP,
  prefixed,
  CANARY_FILENAME,
} from '../../../src/core';
import { startParserService } from '../../support/parserService';
import {
  fenced,
  harness,
  pipelineHooks,
  INVALID_CODE,
  scriptReformulate,
  task,
  VALID_CODE,
  type Harness,
  type World,
} from './fixture';

describe('pipeline: parser faults and the circuit breaker over real sockets', function () {
  let world: World;
  let h: Harness | undefined;

  pipelineHooks((w) => {
    world = w;
  });
  beforeEach(() => {
    scriptReformulate(world.ollama);
  });

  const request = { query: 'hash the password', forceType: 'CODE_GENERATION' as const };

  it('parser down: PARSER_UNAVAILABLE without an LLM retry, circuit opens after 3, no gRPC call while open, canary probe after the cooldown', async () => {
    h = await harness(world);
    const gen = world.ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(INVALID_CODE) });
    world.proxy.setMode('reset');

    for (let i = 1; i <= 3; i += 1) {
      const result = await h.assistant.run(request);
      assert.equal(result.validationStatus, 'PARSER_UNAVAILABLE');
      assert.equal(result.attempts.length, 1, 'an unavailable parser never triggers an LLM retry');
      const outcome = result.attempts[0]?.outcome;
      assert.equal(outcome?.kind === 'unavailable' && outcome.reason, 'transport');
    }
    assert.equal(gen.used, 3);
    assert.equal(h.transport.calls.length, 3);
    const open = h.assistant.parser.circuit();
    assert.equal(open.state, 'open');
    assert.equal(open.nextProbeAt, h.clock.now() + 30_000);
    assert.ok(h.logger.lines.some((l) => l.startsWith(prefixed(LOG_PARSER_UNAVAILABLE))));

    // While open: the answer comes back at once and nothing reaches the transport or the wire.
    const connections = world.proxy.connections;
    const bytes = world.proxy.bytesFromClient;
    const requests = world.proxy.requestsSeen;
    const skipped = await h.assistant.run(request);
    assert.equal(skipped.validationStatus, 'PARSER_UNAVAILABLE');
    const outcome = skipped.attempts[0]?.outcome;
    assert.equal(outcome?.kind === 'unavailable' && outcome.reason, 'circuit-open');
    assert.equal(h.transport.calls.length, 3, 'no gRPC call while OPEN');
    assert.equal(world.proxy.connections, connections);
    assert.equal(world.proxy.bytesFromClient, bytes);
    assert.equal(world.proxy.requestsSeen, requests);
    assert.ok(h.logger.lines.includes(prefixed(LOG_SKIP)));

    // The parser comes back, but the cooldown has not passed on the injected clock.
    world.proxy.setMode('pass');
    h.clock.advance(29_999);
    assert.equal((await h.assistant.run(request)).validationStatus, 'PARSER_UNAVAILABLE');
    assert.equal(h.transport.calls.length, 3);

    // After the cooldown the canary is the probe; the user's code follows once the circuit closed.
    h.clock.advance(1);
    world.ollama.reset();
    scriptReformulate(world.ollama);
    world.ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    const states: string[] = [];
    h.assistant.parser.onCircuitChange((s) => states.push(s.state));
    const recovered = await h.assistant.run(request);
    assert.equal(recovered.validationStatus, '');
    assert.deepEqual(
      h.transport.calls.slice(3).map((c) => c.filename),
      [CANARY_FILENAME, 'generated.avap'],
    );
    assert.deepEqual(states, ['half-open', 'closed']);
    assert.ok(h.logger.lines.includes(prefixed(LOG_HALF_OPEN)));
    assert.ok(h.logger.lines.includes(prefixed(LOG_CLOSED)));
    assert.equal(h.assistant.parser.circuit().state, 'closed');
  });

  it('a failed half-open probe re-opens the circuit for another cooldown', async () => {
    h = await harness(world);
    world.ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    world.proxy.setMode('reset');
    for (let i = 0; i < 3; i += 1) await h.assistant.run(request);
    h.clock.advance(30_000);
    const result = await h.assistant.run(request);
    assert.equal(result.validationStatus, 'PARSER_UNAVAILABLE');
    assert.deepEqual(
      h.transport.calls.slice(3).map((c) => c.filename),
      [CANARY_FILENAME],
    );
    const snapshot = h.assistant.parser.circuit();
    assert.equal(snapshot.state, 'open');
    assert.equal(snapshot.nextProbeAt, h.clock.now() + 30_000);
  });

  it('parser connection killed mid-call: transport failure, PARSER_UNAVAILABLE, counted by the breaker', async () => {
    h = await harness(world);
    const gen = world.ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(INVALID_CODE) });
    world.proxy.setMode('hold-responses');
    const before = world.proxy.requestsSeen;
    const pending = h.assistant.run(request);
    // Wait until the Validate call has reached the service (its answer is held back), then kill the connection.
    await world.proxy.waitForRequests(before + 1);
    world.proxy.cutAll();
    const result = await pending;
    assert.equal(result.validationStatus, 'PARSER_UNAVAILABLE');
    const outcome = result.attempts[0]?.outcome;
    assert.equal(outcome?.kind === 'unavailable' && outcome.reason, 'transport');
    assert.equal(gen.used, 1);
    assert.equal(h.assistant.parser.circuit().consecutiveFailures, 1);
  });

  it('a parser that does not answer within the deadline: timeout, PARSER_UNAVAILABLE', async () => {
    h = await harness(world, { parser: { timeoutMs: 300 } });
    world.ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    world.proxy.setMode('hold-responses');
    const result = await h.assistant.run(request);
    assert.equal(result.validationStatus, 'PARSER_UNAVAILABLE');
    const outcome = result.attempts[0]?.outcome;
    assert.equal(outcome?.kind === 'unavailable' && outcome.reason, 'timeout');
    assert.equal(h.assistant.parser.circuit().consecutiveFailures, 1);
  });

  it('the real parser process killed: PARSER_UNAVAILABLE, then the breaker opens', async () => {
    const doomed = await startParserService();
    h = await harness(world, { parser: { url: doomed.address } });
    world.ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    assert.equal((await h.assistant.run(request)).validationStatus, '');
    await doomed.kill();
    for (let i = 0; i < 3; i += 1)
      assert.equal((await h.assistant.run(request)).validationStatus, 'PARSER_UNAVAILABLE');
    assert.equal(h.assistant.parser.circuit().state, 'open');
  });

  it('timeout 0 disables validation: no parser call, circuit disabled, PARSER_UNAVAILABLE logged', async () => {
    h = await harness(world, { parser: { timeoutMs: 0 } });
    const gen = world.ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(INVALID_CODE) });
    const result = await h.assistant.run(request);
    assert.equal(result.validationStatus, 'PARSER_UNAVAILABLE');
    assert.equal(gen.used, 1);
    assert.equal(h.transport.calls.length, 0);
    assert.equal(h.assistant.parser.circuit().state, 'disabled');
    const outcome = result.attempts[0]?.outcome;
    assert.equal(outcome?.kind === 'unavailable' && outcome.reason, 'disabled');
    assert.ok(h.logger.lines.some((l) => l.startsWith(prefixed(LOG_PARSER_UNAVAILABLE))));
  });

  it('cancelling during validation cancels the gRPC call and is not a breaker failure', async () => {
    h = await harness(world);
    world.ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    world.proxy.setMode('hold-responses');
    const controller = new AbortController();
    const before = world.proxy.requestsSeen;
    const pending = h.assistant.run(request, { signal: controller.signal });
    await world.proxy.waitForRequests(before + 1);
    controller.abort();
    const result = await pending;
    assert.equal(result.error?.code, 'cancelled');
    const outcome = result.attempts[0]?.outcome;
    assert.equal(outcome?.kind === 'unavailable' && outcome.reason, 'cancelled');
    assert.deepEqual(h.assistant.parser.circuit(), { state: 'closed', consecutiveFailures: 0 });
  });
});

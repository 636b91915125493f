/**
 * The REST server in-process (fastify's inject) with in-memory fakes behind
 * the core's ports: the paths the process tests cannot reach cheaply.
 */
import assert from 'node:assert/strict';
import type { FinalMessage, ParserPort, PipelineRequest, PipelineResult, ResponseMessage } from '../../../src/core';
import type { ValidationResult } from '../../../src/parser';
import { bearerMatches, isLoopbackHost } from '../../../src/rest/auth';
import { createRestServer, GENERATION_ERROR_STATUS, type RestAssistant } from '../../../src/rest/server';
import { fakeLlm, llmError, type LlmScript } from '../../support/fakes/llm';
import { fakeParser } from '../../support/fakes/parser';

function result(patch: Partial<PipelineResult> = {}): PipelineResult {
  return {
    queryType: 'CODE_GENERATION',
    text: 'x',
    code: 'addVar(a, 1)',
    validationStatus: '',
    attempts: [],
    sources: [],
    relevanceRetry: false,
    generationId: 'g1',
    ...patch,
  };
}

function fakeAssistant(
  parser: ParserPort,
  run: (r: PipelineRequest, on?: (m: ResponseMessage) => void) => PipelineResult,
): RestAssistant & { requests: PipelineRequest[] } {
  const requests: PipelineRequest[] = [];
  return {
    requests,
    parser,
    parserEndpoint: 'injected',
    retrievalName: 'embedded',
    run(request, options) {
      requests.push(request);
      return Promise.resolve(run(request, options?.onMessage));
    },
  };
}

function server(assistant: RestAssistant, options: { token?: string; models?: LlmScript['models'] } = {}) {
  return createRestServer(
    {
      assistant,
      llm: fakeLlm({ models: options.models ?? (() => ({ ok: true, value: ['m1'] })) }),
      passages: () => [],
      models: { main: 'm1', host: 'http://127.0.0.1:1' },
    },
    { bodyLimit: 64 * 1024, version: 't', ...(options.token ? { token: options.token } : {}) },
  );
}

describe('REST server (in-process)', () => {
  it('health reports an open circuit and its next probe', async () => {
    const app = server(
      fakeAssistant(fakeParser('real', { state: 'open', consecutiveFailures: 3, nextProbeAt: 123 }), () => result()),
    );
    const response = await app.inject({ method: 'GET', url: '/health' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json<{ parser: unknown }>().parser, {
      endpoint: 'injected',
      circuit: { state: 'open', consecutiveFailures: 3, nextProbeAt: 123 },
    });
    assert.equal(response.json<{ status: string }>().status, 'ok');
    await app.close();
  });

  it('validate: an unavailable parser is a 503 naming the reason, never a verdict', async () => {
    const app = server(
      fakeAssistant(
        fakeParser({ kind: 'unavailable', reason: 'circuit-open', detail: 'circuit open until 12:00' }),
        () => result(),
      ),
    );
    const response = await app.inject({
      method: 'POST',
      url: '/v1/validate',
      payload: { source: 'addVar(a, 1)', filename: 'a.avap' },
    });
    assert.equal(response.statusCode, 503);
    assert.deepEqual(response.json(), {
      error: 'parser-unavailable',
      message: 'the AVAP parser could not validate the source (circuit-open): circuit open until 12:00',
    });
    await app.close();
  });

  it('validate: a refused source is judged locally (as the CLI does) without calling the parser', async () => {
    const parser = fakeParser();
    const app = server(fakeAssistant(parser, () => result()));
    const response = await app.inject({
      method: 'POST',
      url: '/v1/validate',
      payload: { source: 'a\u0000\u0000\u0000\u0000', filename: 'bin.avap' },
    });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json<ValidationResult>().valid, false);
    assert.match(response.json<ValidationResult>().trace[0]?.message ?? '', /binary/);
    assert.equal(parser.calls, 0);
    await app.close();
  });

  it('models: an Ollama failure is a 502 with its code', async () => {
    const app = server(
      fakeAssistant(fakeParser(), () => result()),
      { models: () => llmError('llm-unreachable', 'Ollama is not running') },
    );
    const response = await app.inject({ method: 'GET', url: '/v1/models' });
    assert.equal(response.statusCode, 502);
    assert.deepEqual(response.json(), { error: 'llm-unreachable', message: 'Ollama is not running' });
    await app.close();
  });

  it('generate: passes query, force_type and filename to the pipeline; the final message carries the run summary', async () => {
    const assistant = fakeAssistant(fakeParser(), (_r, on) => {
      on?.({ text: 'piece', avap_code: '', is_final: false, draft: true, attempt: 1 });
      on?.({ text: '', avap_code: 'addVar(a, 1)', is_final: true, validation_status: 'PARSER_UNAVAILABLE' });
      return result({ validationStatus: 'PARSER_UNAVAILABLE' });
    });
    const app = server(assistant);
    const response = await app.inject({
      method: 'POST',
      url: '/v1/generate',
      payload: { query: 'q', force_type: 'CODE_GENERATION', filename: 'x.avap' },
    });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(assistant.requests, [{ query: 'q', forceType: 'CODE_GENERATION', filename: 'x.avap' }]);
    const lines = response.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ResponseMessage);
    assert.deepEqual(lines, [
      { text: 'piece', avap_code: '', is_final: false, draft: true, attempt: 1 },
      {
        text: '',
        avap_code: 'addVar(a, 1)',
        is_final: true,
        validation_status: 'PARSER_UNAVAILABLE',
        generation_id: 'g1',
        query_type: 'CODE_GENERATION',
      },
    ]);
    await app.close();
  });

  it('generate: an error after streaming started ends the stream with the error on the final message', async () => {
    const app = server(
      fakeAssistant(fakeParser(), (_r, on) => {
        on?.({ text: 'partial', avap_code: '', is_final: false, draft: true, attempt: 1 });
        on?.({ text: '', avap_code: '', is_final: true });
        return result({
          code: '',
          validationStatus: undefined,
          error: { code: 'llm-failed', message: 'the answer was cut off' },
        });
      }),
    );
    const response = await app.inject({ method: 'POST', url: '/v1/generate', payload: { query: 'q' } });
    assert.equal(response.statusCode, 200);
    const final = JSON.parse(response.body.trim().split('\n').pop() as string) as FinalMessage & {
      error?: { error: string; message: string };
    };
    assert.deepEqual(final.error, { error: 'llm-failed', message: 'the answer was cut off' });
    assert.equal(final.is_final, true);
    assert.equal('validation_status' in final, false, 'a failed run makes no validity claim');
    await app.close();
  });

  it('generate: failures before any output map to HTTP statuses', async () => {
    for (const [code, status] of Object.entries(GENERATION_ERROR_STATUS)) {
      if (code === 'cancelled') continue;
      const app = server(
        fakeAssistant(fakeParser(), () => result({ code: '', error: { code: code as 'llm-failed', message: code } })),
      );
      const response = await app.inject({ method: 'POST', url: '/v1/generate', payload: { query: 'q' } });
      assert.equal(response.statusCode, status, code);
      assert.equal(response.json<{ error: string }>().error, code);
      await app.close();
    }
  });

  it('batch: a failed generation has its own status; the others still run', async () => {
    const app = server(fakeAssistant(fakeParser(), () => result({ error: { code: 'llm-timeout', message: 'slow' } })));
    const response = await app.inject({
      method: 'POST',
      url: '/v1/batch',
      payload: {
        requests: [
          { kind: 'generate', query: 'q' },
          { kind: 'validate', source: 'addVar(a, 1)', filename: 'a.avap' },
        ],
      },
    });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(
      response.json<{ results: { status: number }[] }>().results.map((r) => r.status),
      [504, 200],
    );
    await app.close();
  });

  it('the token check runs before anything else', async () => {
    const assistant = fakeAssistant(fakeParser(), () => result());
    const app = server(assistant, { token: 'a-long-enough-token' });
    const denied = await app.inject({ method: 'POST', url: '/v1/generate', payload: { query: 'q' } });
    assert.equal(denied.statusCode, 401);
    assert.equal(assistant.requests.length, 0);
    const allowed = await app.inject({
      method: 'POST',
      url: '/v1/generate',
      payload: { query: 'q' },
      headers: { authorization: 'Bearer a-long-enough-token' },
    });
    assert.equal(allowed.statusCode, 200);
    await app.close();
  });
});

describe('REST auth helpers', () => {
  const loopback: [string, boolean][] = [
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['::ffff:127.0.0.1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.10', false],
    ['10.0.0.1', false],
    ['example.com', false],
    ['128.0.0.1', false],
  ];
  for (const [host, expected] of loopback)
    it(`isLoopbackHost(${host}) = ${expected}`, () => assert.equal(isLoopbackHost(host), expected));

  it('bearerMatches compares the whole token, case-insensitive scheme', () => {
    assert.equal(bearerMatches('Bearer secret-token', 'secret-token'), true);
    assert.equal(bearerMatches('bearer secret-token', 'secret-token'), true);
    assert.equal(bearerMatches('Bearer secret-token2', 'secret-token'), false);
    assert.equal(bearerMatches('Bearer secret', 'secret-token'), false);
    assert.equal(bearerMatches('Basic secret-token', 'secret-token'), false);
    assert.equal(bearerMatches(undefined, 'secret-token'), false);
  });
});

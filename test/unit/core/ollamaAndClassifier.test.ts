import assert from 'node:assert/strict';
// internal-import: how Ollama's errors map to LlmError codes, tested without a server
import { callFetch, classifyOllamaError } from '../../../src/core/llm/ollamaLlm';
// internal-import: the classifier's parsing of a model answer, tested without a model
import { classify, parseClassification } from '../../../src/core/routing/classifier';
import {
  CLASSIFICATION_JSON_SCHEMA,
  type LlmPort,
  correctionContext,
  promptTask,
  PROMPT_HEADERS,
  contextInsufficientHint,
} from '../../../src/core';
import { memoryLogger } from '../../support/fakes/ports';

const base = {
  host: 'http://127.0.0.1:11434',
  model: 'm',
  timedOut: false,
  cancelled: false,
  ttfbTimeoutMs: 1000,
  started: false,
};

describe('core/llm Ollama error classification and the TTFB fetch', () => {
  it('tells not running, model missing, timeout, cancelled and cut streams apart', () => {
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    assert.equal(classifyOllamaError(refused, base).code, 'llm-unreachable');
    const notFound = Object.assign(new Error('model "m" not found, try pulling it first'), { status_code: 404 });
    assert.deepEqual(classifyOllamaError(notFound, base), {
      code: 'model-missing',
      message: "model 'm' is not available in Ollama at http://127.0.0.1:11434 — run: ollama pull m",
    });
    assert.equal(classifyOllamaError(new Error('aborted'), { ...base, timedOut: true }).code, 'llm-timeout');
    assert.equal(classifyOllamaError(new Error('aborted'), { ...base, cancelled: true }).code, 'cancelled');
    const reset = Object.assign(new TypeError('terminated'), { cause: { code: 'UND_ERR_SOCKET' } });
    assert.equal(classifyOllamaError(reset, { ...base, responded: true }).code, 'llm-failed');
    assert.equal(classifyOllamaError(Object.assign(new Error('boom'), { status_code: 500 }), base).code, 'llm-failed');
  });

  it('aborts when no body byte arrives in time, but not once the body has started', async () => {
    const slowHeaders: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
      });
    const ctx = callFetch(slowHeaders, 20);
    await assert.rejects(ctx.fetch('http://x'));
    assert.equal(ctx.timedOut(), true);

    const streaming: typeof fetch = () => {
      let n = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          // The first piece comes at once; the rest each take longer than the whole TTFB budget.
          if (n > 0) await new Promise((r) => setTimeout(r, 40));
          if (n++ < 4) controller.enqueue(new TextEncoder().encode(`${n}`));
          else controller.close();
        },
      });
      return Promise.resolve(new Response(body));
    };
    const ok = callFetch(streaming, 20);
    const response = await ok.fetch('http://x');
    assert.equal(await response.text(), '1234');
    assert.equal(ok.timedOut(), false);
    assert.equal(ok.responded(), true);
  });

  it('an aborted caller signal reaches the fetch', () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const spy: typeof fetch = (_i, init) => {
      seen = init?.signal ?? undefined;
      return new Promise(() => undefined);
    };
    void callFetch(spy, 10_000, controller.signal).fetch('http://x');
    controller.abort();
    assert.equal(seen?.aborted, true);
  });
});

describe('core/routing classifier and prompts', () => {
  it('parses with zod and keeps its error text verbatim', () => {
    assert.deepEqual(parseClassification('{"type":"PLATFORM"}'), { ok: true, value: 'PLATFORM' });
    assert.deepEqual(parseClassification('```json\n{"type":"RETRIEVAL"}\n```'), { ok: true, value: 'RETRIEVAL' });
    const bad = parseClassification('{"type":"CODE"}');
    assert.equal(bad.ok, false);
    assert.match(!bad.ok ? bad.error.message : '', /Invalid option/);
    assert.equal(!bad.ok && bad.error.kind, 'wrong-shape');
    assert.match(parseClassification('{"type":"RETRIEVAL","extra":1}').ok ? '' : 'strict', /strict/);
    const notJson = parseClassification('nope');
    assert.ok(!notJson.ok && notJson.error.kind === 'not-json' && /^not JSON/.test(notJson.error.message));
  });

  it('the transport schema is the zod schema as JSON schema', () => {
    assert.deepEqual(CLASSIFICATION_JSON_SCHEMA, {
      type: 'object',
      properties: { type: { type: 'string', enum: ['CODE_GENERATION', 'RETRIEVAL', 'CONVERSATIONAL', 'PLATFORM'] } },
      required: ['type'],
      additionalProperties: false,
    });
  });

  it('a forced type costs no LLM call', async () => {
    const llm = { chat: () => Promise.reject(new Error('must not be called')) } as unknown as LlmPort;
    assert.deepEqual(
      await classify({ llm, model: 'm', logger: memoryLogger() }, { query: 'x', forceType: 'CODE_GENERATION' }),
      {
        ok: true,
        value: { type: 'CODE_GENERATION', how: 'forced', errors: [] },
      },
    );
  });

  it('prompts carry their node header and the design wording', () => {
    assert.equal(promptTask(`${PROMPT_HEADERS.relevance}\nmore`), 'relevance');
    assert.equal(promptTask('something else'), undefined);
    assert.equal(
      correctionContext(['Line 2: x']),
      'The previous attempt produced invalid AVAP code. Specific failures:\nLine 2: x\nCorrect these errors. Do not repeat the same constructs.',
    );
    assert.equal(
      contextInsufficientHint('q'),
      '[CONTEXT_INSUFFICIENT] The previous retrieval did not return relevant context for: "q" Reformulate this query using broader terms or alternative phrasing.',
    );
  });
});

/**
 * The Ollama adapter of the LLM port, through the official `ollama` package.
 *
 * - Deterministic by default: temperature 0 and a fixed seed, explicit
 *   num_ctx and keep_alive on every request.
 * - A time-to-first-byte timeout: if no byte of the response body arrives in
 *   `ttfbTimeoutMs` (room for a cold model load) the call fails with
 *   `llm-timeout`. Once the first byte is in, the idle timeout takes over: a
 *   stream silent for `idleTimeoutMs` (AVAP_LLM_IDLE_TIMEOUT) is aborted with
 *   `llm-timeout` too, so a stalled model never hangs a request. A slow but
 *   moving stream is never cut.
 * - Every call takes an AbortSignal (the ollama client has no per-call signal
 *   for non-streamed requests, so the adapter supplies the fetch it uses).
 * - Failures are classified: `llm-unreachable` (nothing listening),
 *   `model-missing` (404 "model … not found"), `llm-timeout`, `cancelled`,
 *   `llm-failed` (anything else, including a stream cut short).
 */
import { Ollama } from 'ollama';
import type { OllamaConfig } from '../config';
import type { ChatCall, LlmError, LlmPort, LlmResult } from './port';

class TtfbTimeout extends Error {
  constructor(readonly ms: number) {
    super(`no response within ${ms} ms`);
  }
}

class IdleTimeout extends Error {
  constructor(readonly ms: number) {
    super(`the response stalled for ${ms} ms`);
  }
}

type FetchLike = typeof fetch;

interface CallContext {
  fetch: FetchLike;
  timedOut: () => boolean;
  /** True when a started response went silent for the idle timeout. */
  stalled: () => boolean;
  /** The call is over: no timer of it may fire any more. */
  done: () => void;
  /** True once a response (status line and headers) has arrived. */
  responded: () => boolean;
}

/**
 * A fetch bound to one call: aborts with the caller's signal, when the first
 * body byte does not arrive in time, or when a started body goes silent for
 * `idleTimeoutMs` (0: no idle limit).
 */
export function callFetch(
  baseFetch: FetchLike,
  ttfbTimeoutMs: number,
  callerSignal?: AbortSignal,
  idleTimeoutMs = 0,
): CallContext {
  let timedOut = false;
  let stalled = false;
  let responded = false;
  const stops = new Set<() => void>();
  const wrapped: FetchLike = async (input, init = {}) => {
    const timeout = new AbortController();
    const signals = [timeout.signal, ...(init.signal ? [init.signal] : []), ...(callerSignal ? [callerSignal] : [])];
    const signal = AbortSignal.any(signals);
    let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(() => {
      timedOut = true;
      timeout.abort(new TtfbTimeout(ttfbTimeoutMs));
    }, ttfbTimeoutMs);
    const stop = () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
    };
    /** After each piece: the next must come within the idle timeout. */
    const idle = () => {
      stop();
      if (idleTimeoutMs > 0) {
        timer = setTimeout(() => {
          stalled = true;
          timeout.abort(new IdleTimeout(idleTimeoutMs));
        }, idleTimeoutMs);
        // The open socket keeps the process alive while the stream is pending; the timer must not outlive it.
        timer.unref?.();
      }
    };
    stops.add(stop);
    let response: Response;
    try {
      response = await baseFetch(input, { ...init, signal });
    } catch (err) {
      stop();
      throw err;
    }
    responded = true;
    if (!response.body) {
      stop();
      return response;
    }
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          idle();
          controller.enqueue(chunk);
        },
        flush() {
          stop();
        },
      }),
    );
    // A reader that stops reading (cancel) must not leave a timer running.
    signal.addEventListener('abort', stop, { once: true });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return {
    fetch: wrapped,
    timedOut: () => timedOut,
    stalled: () => stalled,
    responded: () => responded,
    done: () => {
      for (const stop of stops) stop();
    },
  };
}

function causeCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const errors = (current as { errors?: unknown[] }).errors;
    if (Array.isArray(errors) && errors.length) {
      const inner = causeCode(errors[0]);
      if (inner) return inner;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Failures to reach the server at all (before any response). */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ECONNRESET',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export function classifyOllamaError(
  err: unknown,
  context: {
    host: string;
    model?: string;
    timedOut: boolean;
    cancelled: boolean;
    ttfbTimeoutMs: number;
    started: boolean;
    responded?: boolean;
    stalled?: boolean;
    idleTimeoutMs?: number;
  },
): LlmError {
  const message = err instanceof Error ? err.message : String(err);
  if (context.cancelled) return { code: 'cancelled', message: 'the request was cancelled' };
  if (context.stalled) {
    const seconds = Math.round((context.idleTimeoutMs ?? 0) / 100) / 10;
    return {
      code: 'llm-timeout',
      message:
        `Ollama at ${context.host} stopped sending mid-answer: nothing for ${seconds} s — the model may be stuck or the server overloaded; ` +
        'the partial answer was discarded. Try again, or raise AVAP_LLM_IDLE_TIMEOUT (avap.ollama.idleTimeout)',
    };
  }
  if (context.timedOut) {
    return {
      code: 'llm-timeout',
      message: `Ollama at ${context.host} sent nothing for ${Math.round(context.ttfbTimeoutMs / 1000)} s — the model may still be loading; try again or raise OLLAMA_TTFB_TIMEOUT`,
    };
  }
  const status = (err as { status_code?: unknown }).status_code;
  if (typeof status === 'number') {
    if (status === 404 && /not found|pull/i.test(message)) {
      return {
        code: 'model-missing',
        message: `model '${context.model ?? '?'}' is not available in Ollama at ${context.host} — run: ollama pull ${context.model ?? '<model>'}`,
      };
    }
    return { code: 'llm-failed', message: `Ollama at ${context.host} answered ${status}: ${message}` };
  }
  const code = causeCode(err);
  const beforeResponse = !context.started && !context.responded;
  if (beforeResponse && code && UNREACHABLE_CODES.has(code)) {
    return {
      code: 'llm-unreachable',
      message: `Ollama is not running at ${context.host} (${code}) — start it with 'ollama serve' or set OLLAMA_HOST`,
    };
  }
  if (beforeResponse && /fetch failed/i.test(message)) {
    return {
      code: 'llm-unreachable',
      message: `Ollama is not reachable at ${context.host} (${code ?? message}) — start it with 'ollama serve' or set OLLAMA_HOST`,
    };
  }
  if (
    context.started ||
    context.responded ||
    /terminated|did not receive done|other side closed|premature/i.test(message)
  ) {
    return {
      code: 'llm-failed',
      message: `the answer from Ollama at ${context.host} was cut off (${code ?? message}); partial output was discarded`,
    };
  }
  return { code: 'llm-failed', message: `Ollama at ${context.host} failed: ${message}` };
}

export interface OllamaLlmOptions {
  /** A fetch to use instead of the global one (tests). */
  fetch?: FetchLike;
}

export function createOllamaLlm(config: OllamaConfig, options: OllamaLlmOptions = {}): LlmPort {
  const baseFetch = options.fetch ?? fetch;
  const host = config.host;

  async function run<T>(
    model: string | undefined,
    signal: AbortSignal | undefined,
    body: (client: Ollama, markStarted: () => void) => Promise<T>,
  ): Promise<LlmResult<T>> {
    if (signal?.aborted) return { ok: false, error: { code: 'cancelled', message: 'the request was cancelled' } };
    const context = callFetch(baseFetch, config.ttfbTimeoutMs, signal, config.idleTimeoutMs);
    const client = new Ollama({ host, fetch: context.fetch });
    let started = false;
    try {
      return {
        ok: true,
        value: await body(client, () => {
          started = true;
        }),
      };
    } catch (err) {
      return {
        ok: false,
        error: classifyOllamaError(err, {
          host,
          model,
          timedOut: context.timedOut(),
          cancelled: Boolean(signal?.aborted),
          ttfbTimeoutMs: config.ttfbTimeoutMs,
          started,
          responded: context.responded(),
          stalled: context.stalled(),
          idleTimeoutMs: config.idleTimeoutMs,
        }),
      };
    } finally {
      context.done();
    }
  }

  const modelOptions = (maxTokens?: number) => ({
    temperature: config.temperature,
    seed: config.seed,
    num_ctx: config.numCtx,
    ...(maxTokens ? { num_predict: maxTokens } : {}),
  });

  return {
    chat(call: ChatCall) {
      return run(call.model, call.signal, async (client, markStarted) => {
        const request = {
          model: call.model,
          messages: call.messages,
          keep_alive: config.keepAlive,
          think: config.think,
          options: modelOptions(call.maxTokens),
          ...(call.format ? { format: call.format } : {}),
        };
        if (!call.onToken) {
          const response = await client.chat({ ...request, stream: false });
          return { text: response.message?.content ?? '' };
        }
        const stream = await client.chat({ ...request, stream: true });
        let text = '';
        for await (const part of stream) {
          const piece = part.message?.content ?? '';
          if (piece) {
            markStarted();
            text += piece;
            call.onToken(piece);
          }
        }
        return { text };
      });
    },
    embed(model, texts, signal) {
      return run(model, signal, async (client) => {
        const response = await client.embed({ model, input: texts, keep_alive: config.keepAlive, truncate: true });
        return response.embeddings;
      });
    },
    models(signal) {
      return run(undefined, signal, async (client) => {
        const response = await client.list();
        return response.models.map((m) => m.name);
      });
    },
  };
}

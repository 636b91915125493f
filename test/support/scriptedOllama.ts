/**
 * A scripted Ollama-compatible HTTP server for tests: real sockets, the real
 * wire format (JSON and streaming NDJSON), and replies chosen by rules.
 *
 * Endpoints: POST /api/chat, POST /api/generate, POST /api/embed,
 * GET /api/tags, GET /api/version. Unknown paths answer 404.
 *
 * Replies come from rules, checked in the order they were added:
 *
 *   const ollama = await startScriptedOllama({ models: ['qwen3:1.7b'] });
 *   ollama.on({ endpoint: 'chat', when: (r) => lastUser(r).includes('sha'), times: 1 }, { content: '```avap\n…\n```' });
 *   ollama.on({ endpoint: 'chat' }, (req) => ({ content: 'fallback' }));
 *
 * A rule with `times` is used that many times and then skipped (record/replay
 * style: a test lists the conversation it expects, in order). When no rule
 * matches, chat/generate answer HTTP 500 "no scripted reply" (so a missing
 * script fails loudly) and embed answers deterministic bag-of-words vectors
 * (`hashEmbedding`). A model not in `models` gets Ollama's 404
 * `model "x" not found, try pulling it first`.
 *
 * Timing controls (all optional) on a reply: `headersDelayMs` (nothing at
 * all for a while), `firstChunkDelayMs` (headers at once, then a wait before
 * the first streamed piece), `chunkDelayMs` (between streamed pieces), `stall` (never answer),
 * `stallAfterChunks` (stream N pieces, then go silent with the connection open: a model
 * stuck mid-answer), `cutAfterChunks` (destroy the socket after N streamed pieces),
 * `tokensPerSecond` (a model generating at that rate: one piece per token, split
 * after whitespace, paced evenly). A recorded streamed request counts the pieces it
 * was sent (`piecesSent`, of `piecesTotal`) and says whether the client went away
 * before the end (`clientClosed`: an aborted stream).
 * Faults: `crash` (the connection is reset before any answer, as when the server
 * process dies; use `times` to crash on the second call), `status` with
 * `rawError` (an error answered as plain text, not JSON, as a proxy or a
 * crashing server does). Every
 * request is recorded in `requests`; `waitFor(predicate)` resolves when one
 * arrives.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

type Endpoint = 'chat' | 'generate' | 'embed' | 'tags' | 'version';

/** The fields of an Ollama request body the tests read (chat, generate and embed). */
interface OllamaRequestBody {
  model?: string;
  messages?: { role: string; content: string; images?: string[] }[];
  prompt?: string;
  input?: string | string[];
  format?: unknown;
  options?: { temperature?: number; seed?: number; num_ctx?: number; num_predict?: number; [key: string]: unknown };
  keep_alive?: string | number;
  stream?: boolean;
  [key: string]: unknown;
}

export interface RecordedRequest {
  endpoint: Endpoint | 'other';
  method: string;
  path: string;
  /** The JSON body (`{}` when the body was empty or not a JSON object). */
  body: OllamaRequestBody;
  /** The body as sent. */
  raw: string;
  /** Set once the reply has been fully written (or the socket cut). */
  answered: boolean;
  /** Streamed generations: the pieces written so far, and how many the reply had. */
  piecesSent?: number;
  piecesTotal?: number;
  /** True when the connection closed before the reply was complete: the client aborted the stream (or `cutAfterChunks` cut it). */
  clientClosed?: boolean;
}

interface ScriptedReply {
  /** chat/generate: the answer text (streamed in `chunks` when the request streams). */
  content?: string;
  /** Explicit pieces for streaming; default: `content` split after whitespace. */
  chunks?: string[];
  /** embed: the vectors to return. */
  embeddings?: number[][];
  /** Answer with this HTTP status and `{"error": error}`. */
  status?: number;
  error?: string;
  /** Delay before anything (status line included) is written. */
  headersDelayMs?: number;
  /** Streaming: delay between the headers and the first piece. */
  firstChunkDelayMs?: number;
  chunkDelayMs?: number;
  /** Streaming at this many tokens per second (one piece per whitespace-separated token); overrides `chunkDelayMs`. */
  tokensPerSecond?: number;
  stall?: boolean;
  /** Streaming: send this many pieces, then nothing more (the connection stays open). */
  stallAfterChunks?: number;
  cutAfterChunks?: number;
  /** Reset the connection before answering anything (a crashed server). */
  crash?: boolean;
  /** With `status`: the body as plain text instead of Ollama's JSON error. */
  rawError?: string;
  /** A raw `error` object mid-stream, as Ollama sends it (after `chunks`). */
  streamError?: string;
}

interface Rule {
  endpoint?: Endpoint;
  when?: (request: RecordedRequest) => boolean;
  times?: number;
}

type Responder = ScriptedReply | ((request: RecordedRequest) => ScriptedReply);

export interface ScriptedOllama {
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Adds a rule; returns a handle telling how many times it was used. */
  on(rule: Rule, reply: Responder): { readonly used: number };
  /** Forgets rules and recorded requests. */
  reset(): void;
  /** Resolves with the first recorded request (past or future) that satisfies `predicate`. */
  waitFor(predicate: (request: RecordedRequest) => boolean): Promise<RecordedRequest>;
  /** Requests of one endpoint. */
  calls(endpoint: Endpoint): RecordedRequest[];
  close(): Promise<void>;
}

export interface ScriptedOllamaOptions {
  /** Models reported by /api/tags and accepted by chat/generate/embed. Default: any model is accepted. */
  models?: string[];
  /** Dimensions of the default embedding. Default 64. */
  embeddingDims?: number;
}

/** The text of the last user message of a chat request. */
export function lastUser(request: RecordedRequest): string {
  const messages = request.body.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i -= 1) if (messages[i]?.role === 'user') return messages[i]?.content ?? '';
  return request.body.prompt ?? '';
}

/** The system prompt of a chat request ('' if none). */
export function systemPrompt(request: RecordedRequest): string {
  const messages = request.body.messages ?? [];
  return messages.find((m) => m.role === 'system')?.content ?? '';
}

/** Lower-cased word tokens. */
function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9_]+/g) ?? [];
}

/** FNV-1a, for a stable bucket per word. */
function hash(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i += 1) {
    h ^= word.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * A deterministic bag-of-words embedding: texts that share words have a high
 * cosine, unrelated texts a low one. Unit length.
 */
function hashEmbedding(text: string, dims = 64): number[] {
  const vector = new Array<number>(dims).fill(0);
  for (const word of words(text)) {
    const h = hash(word);
    vector[h % dims] = (vector[h % dims] ?? 0) + ((h >>> 16) % 2 === 0 ? 1 : 0.5);
  }
  const norm = Math.sqrt(vector.reduce((s, v) => s + v * v, 0)) || 1;
  return vector.map((v) => v / norm);
}

function splitPieces(text: string): string[] {
  return text.match(/\S*\s*/g)?.filter((p) => p !== '') ?? [];
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function startScriptedOllama(options: ScriptedOllamaOptions = {}): Promise<ScriptedOllama> {
  const rules: { rule: Rule; reply: Responder; used: number }[] = [];
  const requests: RecordedRequest[] = [];
  const waiters: { predicate: (r: RecordedRequest) => boolean; resolve: (r: RecordedRequest) => void }[] = [];
  const sockets = new Set<Socket>();
  const dims = options.embeddingDims ?? 64;

  const modelKnown = (name: unknown) =>
    !options.models ||
    (typeof name === 'string' && (options.models.includes(name) || options.models.includes(`${name}:latest`)));

  function pick(request: RecordedRequest): ScriptedReply | undefined {
    for (const entry of rules) {
      const { rule } = entry;
      if (rule.endpoint && rule.endpoint !== request.endpoint) continue;
      if (rule.times !== undefined && entry.used >= rule.times) continue;
      if (rule.when && !rule.when(request)) continue;
      entry.used += 1;
      return typeof entry.reply === 'function' ? entry.reply(request) : entry.reply;
    }
    return undefined;
  }

  function record(request: RecordedRequest): void {
    requests.push(request);
    for (const waiter of [...waiters]) {
      if (waiter.predicate(request)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(request);
      }
    }
  }

  function writeJson(res: http.ServerResponse, status: number, body: unknown): Promise<void> {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
    return Promise.resolve();
  }

  async function answerGeneration(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    request: RecordedRequest,
    reply: ScriptedReply,
  ): Promise<void> {
    const model = request.body.model ?? 'scripted';
    const created = () => new Date().toISOString();
    const isChat = request.endpoint === 'chat';
    const frame = (piece: string, done: boolean) =>
      isChat
        ? { model, created_at: created(), message: { role: 'assistant', content: piece }, done }
        : { model, created_at: created(), response: piece, done };
    const finalFields = {
      done_reason: 'stop',
      total_duration: 1,
      load_duration: 0,
      prompt_eval_count: 1,
      prompt_eval_duration: 1,
      eval_count: 1,
      eval_duration: 1,
    };
    const stream = request.body.stream ?? true;
    const content = reply.content ?? (reply.chunks ?? []).join('');
    if (!stream) {
      await writeJson(res, 200, { ...frame(content, true), ...finalFields });
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
    res.flushHeaders();
    if (reply.firstChunkDelayMs) await sleep(reply.firstChunkDelayMs);
    const pieces = reply.chunks ?? splitPieces(content);
    const delay = reply.tokensPerSecond ? 1000 / reply.tokensPerSecond : reply.chunkDelayMs;
    request.piecesSent = 0;
    request.piecesTotal = pieces.length;
    res.once('close', () => {
      if (!res.writableFinished) request.clientClosed = true;
    });
    for (const [index, piece] of pieces.entries()) {
      if (reply.stallAfterChunks !== undefined && index >= reply.stallAfterChunks) return; // silent until the client gives up
      if (reply.cutAfterChunks !== undefined && index >= reply.cutAfterChunks) {
        req.socket.destroy();
        return;
      }
      if (index > 0 && delay) await sleep(delay);
      if (res.destroyed) return;
      res.write(`${JSON.stringify(frame(piece, false))}\n`);
      request.piecesSent += 1;
    }
    if (reply.cutAfterChunks !== undefined) {
      req.socket.destroy();
      return;
    }
    if (reply.streamError) {
      res.end(`${JSON.stringify({ error: reply.streamError })}\n`);
      return;
    }
    res.end(`${JSON.stringify({ ...frame('', true), ...finalFields })}\n`);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const endpoint: RecordedRequest['endpoint'] =
      path === '/api/chat'
        ? 'chat'
        : path === '/api/generate'
          ? 'generate'
          : path === '/api/embed'
            ? 'embed'
            : path === '/api/tags'
              ? 'tags'
              : path === '/api/version'
                ? 'version'
                : 'other';
    let parsed: unknown;
    try {
      parsed = raw ? JSON.parse(raw) : undefined;
    } catch {
      parsed = undefined;
    }
    const body =
      parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as OllamaRequestBody) : {};
    const request: RecordedRequest = { endpoint, method: req.method ?? 'GET', path, body, raw, answered: false };
    record(request);
    const done = () => {
      request.answered = true;
    };
    res.once('close', done);

    if (endpoint === 'other') return writeJson(res, 404, { error: `scripted ollama: no route ${path}` });
    if (endpoint === 'version') return writeJson(res, 200, { version: '0.12.0-scripted' });
    if (endpoint === 'tags') {
      const names = options.models ?? [];
      return writeJson(res, 200, {
        models: names.map((name) => ({
          name,
          model: name,
          modified_at: new Date(0).toISOString(),
          size: 1,
          digest: 'scripted',
          details: {},
        })),
      });
    }
    const { model } = request.body;
    if (!modelKnown(model)) {
      return writeJson(res, 404, { error: `model "${String(model)}" not found, try pulling it first` });
    }
    const reply = pick(request);
    if (reply?.stall) return; // never answers; the client's timeout or cancellation ends it
    if (reply?.crash) {
      req.socket.destroy();
      return;
    }
    if (reply?.headersDelayMs) await sleep(reply.headersDelayMs);
    if (res.destroyed) return;
    if (reply?.rawError !== undefined) {
      res.writeHead(reply.status ?? 500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(reply.rawError);
      return;
    }
    if (reply?.status || reply?.error)
      return writeJson(res, reply.status ?? 500, { error: reply.error ?? 'scripted failure' });
    if (endpoint === 'embed') {
      const { input } = request.body;
      const texts = Array.isArray(input) ? input : [input ?? ''];
      return writeJson(res, 200, {
        model,
        embeddings: reply?.embeddings ?? texts.map((t) => hashEmbedding(t, dims)),
        total_duration: 1,
        load_duration: 0,
        prompt_eval_count: texts.length,
      });
    }
    if (!reply)
      return writeJson(res, 500, {
        error: `scripted ollama: no scripted reply for ${endpoint} (${lastUser(request).slice(0, 80)})`,
      });
    return answerGeneration(req, res, request, reply);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(err.message));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    on(rule, reply) {
      const entry = { rule, reply, used: 0 };
      rules.push(entry);
      return {
        get used() {
          return entry.used;
        },
      };
    },
    reset() {
      rules.length = 0;
      requests.length = 0;
    },
    waitFor(predicate) {
      const existing = requests.find(predicate);
      if (existing) return Promise.resolve(existing);
      return new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
    calls(endpoint) {
      return requests.filter((r) => r.endpoint === endpoint);
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Record/replay for the LLM: a decorator of the core's LlmPort that stores
 * every answer in a cassette keyed by the request (model, messages, format,
 * length cap; or model and texts for embeddings), so an evaluation can be
 * replayed deterministically without a model server. In replay mode a request
 * missing from the cassette is an error (data, not an exception) that names
 * the request, never a silent fallback.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ChatCall, LlmPort, LlmResult } from '../core';
import { fail, ok, type Failure, type Result } from '../result';

const CASSETTE_VERSION = 1;

export type CassetteMode = 'record' | 'replay';

interface ChatRecord {
  kind: 'chat';
  model: string;
  summary: string;
  text: string;
}
interface EmbedRecord {
  kind: 'embed';
  model: string;
  summary: string;
  vectors: number[][];
}
interface ModelsRecord {
  kind: 'models';
  summary: string;
  models: string[];
}
type CassetteRecord = ChatRecord | EmbedRecord | ModelsRecord;

export interface CassetteFile {
  cassetteVersion: number;
  /** Free text: what the cassette was recorded against. */
  recordedAgainst: string;
  entries: Record<string, CassetteRecord>;
}

/** Canonical JSON (sorted keys) so that key order never changes a cassette key. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** @internal */
export function chatKey(call: ChatCall): string {
  const material = {
    kind: 'chat',
    model: call.model,
    messages: call.messages,
    format: call.format ?? null,
    maxTokens: call.maxTokens ?? null,
  };
  return createHash('sha256').update(canonical(material)).digest('hex').slice(0, 32);
}

function embedKey(model: string, texts: readonly string[]): string {
  return createHash('sha256')
    .update(canonical({ kind: 'embed', model, texts }))
    .digest('hex')
    .slice(0, 32);
}

const MODELS_KEY = 'models';

function summarize(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 117)}…` : flat;
}

/** Why a cassette cannot be replayed: the file cannot be read, or it is not a cassette of this version. */
type CassetteFailure = Failure<'unreadable' | 'not-a-cassette'>;
export type LoadedCassette = Result<CassetteFile, CassetteFailure>;

export function loadCassette(file: string): LoadedCassette {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (err) {
    return fail(
      'unreadable',
      `cannot read cassette ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  try {
    const parsed = JSON.parse(raw) as CassetteFile;
    if (parsed.cassetteVersion !== CASSETTE_VERSION || typeof parsed.entries !== 'object' || parsed.entries === null) {
      return fail('not-a-cassette', `${file} is not a version ${CASSETTE_VERSION} cassette`);
    }
    return ok(parsed);
  } catch (err) {
    return fail('not-a-cassette', `${file} is not valid JSON: ${(err as Error).message}`);
  }
}

export interface CassetteLlm extends LlmPort {
  /** Writes the cassette (record mode); atomic rename so a crash never leaves half a file. */
  save(): void;
  /** Requests that replay could not answer. */
  readonly misses: string[];
}

/**
 * Record: forwards to `inner` and stores each successful answer.
 * Replay: answers from the cassette only (`inner` is not called).
 */
export function cassetteLlm(mode: CassetteMode, file: string, cassette: CassetteFile, inner?: LlmPort): CassetteLlm {
  const misses: string[] = [];
  const miss = (key: string, what: string): LlmResult<never> => {
    misses.push(`${key} ${what}`);
    return {
      ok: false,
      error: {
        code: 'llm-failed',
        message: `cassette ${path.basename(file)} has no answer for ${what} (key ${key}); record it again`,
      },
    };
  };
  const needInner = (): LlmPort => {
    if (!inner) throw new Error('record mode needs a real LLM');
    return inner;
  };

  return {
    misses,
    async chat(call) {
      const key = chatKey(call);
      const what = `chat ${call.model}: ${summarize(call.messages.at(-1)?.content ?? '')}`;
      if (mode === 'replay') {
        const hit = cassette.entries[key];
        if (hit?.kind !== 'chat') return miss(key, what);
        call.onToken?.(hit.text);
        return { ok: true, value: { text: hit.text } };
      }
      const result = await needInner().chat(call);
      if (result.ok)
        cassette.entries[key] = { kind: 'chat', model: call.model, summary: what, text: result.value.text };
      return result;
    },
    async embed(model, texts, signal) {
      const key = embedKey(model, texts);
      const what = `embed ${model}: ${texts.length} text(s), first "${summarize(texts[0] ?? '')}"`;
      if (mode === 'replay') {
        const hit = cassette.entries[key];
        return hit?.kind === 'embed' ? { ok: true, value: hit.vectors } : miss(key, what);
      }
      const result = await needInner().embed(model, texts, signal);
      if (result.ok) cassette.entries[key] = { kind: 'embed', model, summary: what, vectors: result.value };
      return result;
    },
    async models(signal) {
      if (mode === 'replay') {
        const hit = cassette.entries[MODELS_KEY];
        return hit?.kind === 'models' ? { ok: true, value: hit.models } : miss(MODELS_KEY, 'model list');
      }
      const result = await needInner().models(signal);
      if (result.ok) cassette.entries[MODELS_KEY] = { kind: 'models', summary: 'model list', models: result.value };
      return result;
    },
    save() {
      if (mode !== 'record') return;
      mkdirSync(path.dirname(file), { recursive: true });
      const sorted: CassetteFile = {
        ...cassette,
        entries: Object.fromEntries(
          Object.keys(cassette.entries)
            .sort()
            .map((k) => [k, cassette.entries[k] as CassetteRecord]),
        ),
      };
      const tmp = `${file}.tmp-${process.pid}`;
      writeFileSync(tmp, `${JSON.stringify(sorted, null, 1)}\n`);
      renameSync(tmp, file);
    },
  };
}

export function emptyCassette(recordedAgainst: string): CassetteFile {
  return { cassetteVersion: CASSETTE_VERSION, recordedAgainst, entries: {} };
}

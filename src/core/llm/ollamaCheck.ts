/**
 * "Is Ollama ready for the assistant?" — the first-run check behind the
 * editor's **AVAP: Check Ollama** (and anything else that wants to ask).
 * Editor-free: it asks the server at the configured URL, through the official
 * `ollama` client, for its version and the models it has pulled, and compares
 * them with the models the configuration needs (generation, conversational,
 * embedding, the judge). The answer is data: whether the server answers (and
 * if not, why, with the LLM port's error codes), each needed model with its
 * roles and whether it is pulled, and the exact `ollama pull …` lines for the
 * missing ones. It never throws and never waits longer than `timeoutMs` per
 * request.
 */
import { Ollama } from 'ollama';
import { callFetch, classifyOllamaError } from './ollamaLlm';
import type { LlmError } from './port';

type ModelRole = 'generation' | 'conversational' | 'embedding' | 'judge';

export interface NeededModel {
  name: string;
  role: ModelRole;
}

interface CheckedModel {
  name: string;
  /** Every role this model serves (one model may serve several). */
  roles: ModelRole[];
  pulled: boolean;
}

type OllamaCheckStatus =
  /** The server answers and every needed model is pulled. */
  | 'ready'
  /** The server answers; some needed models are not pulled (see `pullCommands`). */
  | 'models-missing'
  /** Nothing usable answered at the URL (see `error`). */
  | 'unreachable';

export interface OllamaCheck {
  status: OllamaCheckStatus;
  host: string;
  /** The server's version, when it answered. */
  version?: string;
  /** When `unreachable`: why (llm-unreachable, llm-timeout, llm-failed, cancelled). */
  error?: LlmError;
  /** The needed models, one entry per distinct name, in the order first needed. Pulled is false when unreachable. */
  models: CheckedModel[];
  /** Names of the needed models the server does not have (empty when unreachable: nothing is known). */
  missing: string[];
  /** One `ollama pull NAME` per missing model. */
  pullCommands: string[];
  /** One line for people: what is true and what to do. */
  summary: string;
}

export interface OllamaCheckOptions {
  host: string;
  models: readonly NeededModel[];
  /** Per-request limit on the wait for an answer. Default 5000 ms. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
}

/** The models an assistant configuration needs, by role; the judge only when it is on. */
export function neededModels(config: {
  model: string;
  conversationalModel: string;
  embeddingModel: string;
  judgeModel?: string;
}): NeededModel[] {
  const needs: NeededModel[] = [
    { name: config.model, role: 'generation' },
    { name: config.conversationalModel, role: 'conversational' },
    { name: config.embeddingModel, role: 'embedding' },
  ];
  if (config.judgeModel) needs.push({ name: config.judgeModel, role: 'judge' });
  return needs.filter((need) => need.name.trim() !== '');
}

/**
 * Ollama's canonical name of a model: a name without a tag means `:latest`
 * (`llama3` is `llama3:latest`). A colon inside the registry host
 * (`host:5000/ns/model`) is not a tag.
 * @internal
 */
export function canonicalModelName(name: string): string {
  const trimmed = name.trim();
  const last = trimmed.slice(trimmed.lastIndexOf('/') + 1);
  return last.includes(':') ? trimmed : `${trimmed}:latest`;
}

/**
 * The shell line that pulls one model.
 * @internal
 */
export function pullCommand(name: string): string {
  return `ollama pull ${name.trim()}`;
}

function mergeNeeds(needs: readonly NeededModel[]): { name: string; roles: ModelRole[] }[] {
  const byName = new Map<string, { name: string; roles: ModelRole[] }>();
  for (const need of needs) {
    const key = canonicalModelName(need.name);
    const entry = byName.get(key) ?? { name: need.name.trim(), roles: [] };
    if (!entry.roles.includes(need.role)) entry.roles.push(need.role);
    byName.set(key, entry);
  }
  return [...byName.values()];
}

const describe = (model: { name: string; roles: ModelRole[] }) => `${model.name} (${model.roles.join(', ')})`;

export async function checkOllama(options: OllamaCheckOptions): Promise<OllamaCheck> {
  const { host } = options;
  const timeoutMs = options.timeoutMs ?? 5000;
  const merged = mergeNeeds(options.models);
  const unreachable = (error: LlmError): OllamaCheck => ({
    status: 'unreachable',
    host,
    error,
    models: merged.map((m) => ({ ...m, pulled: false })),
    missing: [],
    pullCommands: [],
    summary:
      error.code === 'cancelled'
        ? 'The Ollama check was cancelled.'
        : `Ollama does not answer at ${host}: ${error.message}.`,
  });
  if (options.signal?.aborted) return unreachable({ code: 'cancelled', message: 'the check was cancelled' });

  const context = callFetch(options.fetch ?? fetch, timeoutMs, options.signal);
  const client = new Ollama({ host, fetch: context.fetch });
  let version: string | undefined;
  let pulled: string[];
  try {
    version = (await client.version()).version;
    pulled = (await client.list()).models.map((m) => m.name);
  } catch (err) {
    const error = classifyOllamaError(err, {
      host,
      timedOut: context.timedOut(),
      cancelled: Boolean(options.signal?.aborted),
      ttfbTimeoutMs: timeoutMs,
      started: false,
      responded: context.responded(),
    });
    // No model was asked for: a 404 here means the URL is not an Ollama server (or not its API root).
    if (error.code === 'model-missing') {
      return unreachable({
        code: 'llm-failed',
        message: `the server at ${host} has no Ollama API (${err instanceof Error ? err.message : String(err)}) — is avap.ollama.url the Ollama server?`,
      });
    }
    return unreachable(error);
  } finally {
    context.done();
  }

  const have = new Set(pulled.map(canonicalModelName));
  const models = merged.map((m) => ({ ...m, pulled: have.has(canonicalModelName(m.name)) }));
  const missing = models.filter((m) => !m.pulled);
  const server = `Ollama${version ? ` ${version}` : ''} answers at ${host}`;
  if (missing.length === 0) {
    return {
      status: 'ready',
      host,
      ...(version ? { version } : {}),
      models,
      missing: [],
      pullCommands: [],
      summary: `${server}; every model the assistant needs is pulled: ${models.map(describe).join('; ')}.`,
    };
  }
  const pullCommands = missing.map((m) => pullCommand(m.name));
  return {
    status: 'models-missing',
    host,
    ...(version ? { version } : {}),
    models,
    missing: missing.map((m) => m.name),
    pullCommands,
    summary:
      `${server}, but ${missing.length === 1 ? 'a model is' : `${missing.length} models are`} not pulled: ` +
      `${missing.map(describe).join('; ')}. Run: ${pullCommands.join(' && ')}`,
  };
}

/**
 * Shared set-up of the pipeline integration tests: the real parser service
 * behind a fault-injecting TCP proxy, the scripted Ollama, a small knowledge
 * source, and an assistant wired to them over real sockets.
 */
import {
  createAssistant,
  defaultConfig,
  mergeConfig,
  type Assistant,
  type AssistantConfig,
  type DeepPartial,
  createGrpcTransport,
  type ParserTransport,
  type KnowledgeSource,
  memoryTelemetry,
  promptTask,
  type PromptTask,
} from '../../../src/core';
import { ManualClock, memoryLogger } from '../../support/fakes/ports';
import { startParserService, type RunningParserService } from '../../support/parserService';
import {
  startScriptedOllama,
  systemPrompt,
  type RecordedRequest,
  type ScriptedOllama,
} from '../../support/scriptedOllama';
import { startTcpProxy, type TcpProxy } from '../../support/tcpProxy';

export const MODELS = ['qwen3:1.7b', 'qwen3:0.6b', 'qwen3-embedding:0.6b'];

/** A rule predicate: the chat request of one node of the graph. */
export const task = (name: PromptTask) => (request: RecordedRequest) => promptTask(systemPrompt(request)) === name;

export const VALID_CODE = 'addParam(password, p)\nencodeSHA256(p, h)\naddResult(h)';
/** An error without a proven fix (an unknown name that is no near miss): the parser's fixes cannot help, the LLM retry runs. */
export const INVALID_CODE = 'addParam(password, p)\nsha256Encode(p, h)\naddResult(h)';
/** One error with a proven fix (the invented getSHA256) and one without: still a case for the LLM retry, whose prompt names the fix. */
export const PARTLY_FIXABLE_CODE = 'addParam(password, p)\ngetSHA256(p, h)\nsha256Encode(h, d)\naddResult(d)';
export const FOREIGN_CODE = 'import hashlib\ndef hash(p):\n    return hashlib.sha256(p)';
/** Every error carries a proven fix (a `;` terminator, an invented name): the parser's fixes turn it into VALID_CODE. */
export const FIXABLE_CODE = 'addParam(password, p);\ngetSHA256(p, h)\naddResult(h)';
/** A foreign keyword without a provable fix on the second line, then a long tail a model would go on generating. */
export const FOREIGN_EARLY_CODE = [
  'addParam(password, p)',
  'print(p)',
  ...Array.from({ length: 40 }, (_, i) => `addVar(v${i}, ${i})`),
  'addResult(p)',
].join('\n');

export const fenced = (code: string, before = 'Here is the program:', after = 'It hashes the parameter.') =>
  `${before}\n\`\`\`avap\n${code}\n\`\`\`\n${after}`;

/** A small knowledge source that records the queries it was searched with. */
function recordingKnowledge(): KnowledgeSource & { queries: string[] } {
  const chunks = [
    {
      id: 'cmd-encodeSHA256::overview',
      title: 'encodeSHA256',
      heading: 'Overview',
      text: 'encodeSHA256(source, target) stores the SHA-256 hex digest of source in target.',
    },
    {
      id: 'cmd-addParam::overview',
      title: 'addParam',
      heading: 'Overview',
      text: 'addParam(name, target) reads a request parameter from the query string, JSON body or form data.',
    },
    {
      id: 'ch-loops::overview',
      title: 'Loops',
      heading: 'Overview',
      text: 'startLoop(i, from, to) … endLoop() repeats with inclusive bounds.',
    },
  ];
  const queries: string[] = [];
  return {
    chunks,
    queries,
    fingerprint: 'test-kb',
    search(query, k) {
      queries.push(query);
      const words = query.toLowerCase().split(/\W+/).filter(Boolean);
      return chunks
        .map((c) => ({ id: c.id, score: words.filter((w) => `${c.title} ${c.text}`.toLowerCase().includes(w)).length }))
        .filter((h) => h.score > 0)
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
        .slice(0, k);
    },
    chunk: (id) => chunks.find((c) => c.id === id),
  };
}

/** Wraps a transport and records every call that reached it. */
function countingTransport(
  inner: ParserTransport,
): ParserTransport & { calls: { filename: string; source: string }[] } {
  const calls: { filename: string; source: string }[] = [];
  return {
    calls,
    call(source, filename, options) {
      calls.push({ filename, source });
      return inner.call(source, filename, options);
    },
    reconnect: () => inner.reconnect?.(),
    close: () => inner.close(),
  };
}

export interface World {
  parser: RunningParserService;
  proxy: TcpProxy;
  ollama: ScriptedOllama;
}

async function startWorld(): Promise<World> {
  const parser = await startParserService();
  const [host, port] = [
    parser.address.slice(0, parser.address.lastIndexOf(':')),
    Number(parser.address.slice(parser.address.lastIndexOf(':') + 1)),
  ];
  const proxy = await startTcpProxy(host, port, { http2: true });
  const ollama = await startScriptedOllama({ models: MODELS });
  return { parser, proxy, ollama };
}

async function stopWorld(world: World | undefined): Promise<void> {
  if (!world) return;
  await world.ollama.close();
  await world.proxy.close();
  await world.parser.stop();
}

/** Harnesses created since the last test ended; `pipelineHooks` disposes them. */
const liveHarnesses = new Set<Harness>();

/**
 * The mocha hooks every pipeline suite shares: one world for the suite, a
 * clean script and a passing proxy before each test, and every harness the
 * test created disposed after it.
 */
export function pipelineHooks(setWorld: (world: World) => void): void {
  let world: World | undefined;
  before(async () => {
    world = await startWorld();
    setWorld(world);
  });
  after(async () => {
    await stopWorld(world);
  });
  beforeEach(() => {
    world?.ollama.reset();
    world?.proxy.setMode('pass');
  });
  afterEach(async () => {
    const created = [...liveHarnesses];
    liveHarnesses.clear();
    await Promise.all(created.map((h) => h.assistant.dispose()));
  });
}

export interface Harness {
  assistant: Assistant;
  transport: ReturnType<typeof countingTransport>;
  clock: ManualClock;
  logger: ReturnType<typeof memoryLogger>;
  telemetry: ReturnType<typeof memoryTelemetry>;
  knowledge: ReturnType<typeof recordingKnowledge>;
  config: AssistantConfig;
}

/** An assistant over real sockets: gRPC through the proxy, HTTP to the scripted Ollama (disposed after the test). */
export async function harness(world: World, patch: DeepPartial<AssistantConfig> = {}): Promise<Harness> {
  const config = mergeConfig(
    mergeConfig(defaultConfig(), {
      parser: { url: world.proxy.address, breakerCooldownMs: 30_000, breakerThreshold: 3 },
      ollama: { host: world.ollama.url },
      pipeline: { fewShotExamples: 0 },
    }),
    patch,
  );
  const grpc = createGrpcTransport(config.parser.url as string);
  if (!grpc.ok) throw new Error(grpc.error.message);
  const transport = countingTransport(grpc.value.transport);
  const clock = new ManualClock();
  const logger = memoryLogger();
  const telemetry = memoryTelemetry();
  const knowledge = recordingKnowledge();
  const created = await createAssistant(config, { parserTransport: transport, clock, logger, telemetry, knowledge });
  if (!created.ok) throw new Error(created.error.message);
  const made: Harness = { assistant: created.value, transport, clock, logger, telemetry, knowledge, config };
  liveHarnesses.add(made);
  return made;
}

/** Scripts the nodes every code request passes through (reformulate), leaving generation to the test. */
export function scriptReformulate(ollama: ScriptedOllama, query = 'encodeSHA256 addParam password'): void {
  ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: query });
}

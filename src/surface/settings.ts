/**
 * Every `avap.*` setting, declared once: its key, type, default, bounds, scope, place in the Settings editor, its
 * description, the environment variable of the design it mirrors (name AND unit: a setting in seconds mirrors a
 * variable in seconds), and where the core's configuration takes it. Generated from it: package.json's
 * `contributes.configuration` and the README's settings table (`npm run contributes`; a unit test fails when they
 * differ); read from it: the editor's settings reader (src/editor/settings), the settings → core configuration
 * mapping (`coreFields`, ./values.ts) and the core's environment reader (src/core/config.ts).
 *
 * The tree's shape is the shape of the values the editor reads (`SettingValues`): `SETTINGS.parser.timeoutSeconds`
 * is read as `settings.parser.timeoutSeconds`.
 */
import type { SettingDeclaration } from './settingTypes';

export const SETTINGS = {
  parser: {
    url: {
      key: 'avap.parser.url',
      type: 'string',
      default: '',
      format: 'parser-url',
      emptyMeans: 'bundled service',
      scope: 'machine-overridable',
      order: 1,
      env: { name: 'AVAP_PARSER_URL' },
      core: { path: 'parser.url' },
      summary: '`host:port`, `grpc://…` or `grpcs://…`; several replicas: `host:port,host:port` or `dns:///name:port`',
      description:
        'Address of the AVAP parser service (`host:port`, `grpc://host:port` or `grpcs://host:port`; env `AVAP_PARSER_URL`). Several replicas: a comma-separated list (`host:port,host:port`) or `dns:///name:port`, balanced round-robin over every address and health-checked. Empty: the extension starts its bundled parser service on a free loopback port.',
    },
    timeoutSeconds: {
      key: 'avap.parser.timeout',
      type: 'number',
      default: 2,
      minimum: 0,
      maximum: 600,
      unit: 's',
      scope: 'window',
      order: 2,
      env: { name: 'AVAP_PARSER_TIMEOUT', unit: 's' },
      core: { path: 'parser.timeoutMs', unit: 'ms' },
      summary:
        'deadline per parser call, decimals allowed; 0 disables validation. The variable and `--parser-timeout` are **seconds** (they were milliseconds before; over 600 is refused)',
      description:
        'Deadline of one parser call, in seconds, decimals allowed (env `AVAP_PARSER_TIMEOUT`, also in seconds — it was milliseconds before). `0` disables validation: answers with code are returned `PARSER_UNAVAILABLE` (unvalidated).',
    },
    breakerThreshold: {
      key: 'avap.parser.circuitBreaker.threshold',
      type: 'integer',
      default: 3,
      minimum: 1,
      maximum: 100,
      scope: 'window',
      order: 3,
      env: { name: 'PARSER_CB_THRESHOLD' },
      core: { path: 'parser.breakerThreshold' },
      summary: 'consecutive failures before the circuit opens',
      description:
        'Consecutive parser failures that open the circuit (env `PARSER_CB_THRESHOLD`). While open, no parser call is made and code is marked unvalidated.',
    },
    breakerCooldownSeconds: {
      key: 'avap.parser.circuitBreaker.cooldown',
      type: 'number',
      default: 30,
      minimum: 0,
      maximum: 3600,
      unit: 's',
      scope: 'window',
      order: 4,
      env: { name: 'PARSER_CB_COOLDOWN', unit: 's' },
      core: { path: 'parser.breakerCooldownMs', unit: 'ms' },
      summary: 'time before a half-open probe',
      description: 'Seconds an open circuit waits before probing the parser again (env `PARSER_CB_COOLDOWN`).',
    },
  },
  ollama: {
    url: {
      key: 'avap.ollama.url',
      type: 'string',
      default: 'http://127.0.0.1:11434',
      format: 'http-url',
      required: true,
      scope: 'machine-overridable',
      order: 10,
      env: { name: 'OLLAMA_HOST' },
      core: { path: 'ollama.host' },
      summary: 'the local LLM server',
      description: 'Base URL of the Ollama server (env `OLLAMA_HOST`).',
    },
    model: {
      key: 'avap.ollama.model',
      type: 'string',
      default: 'qwen3:1.7b',
      required: true,
      scope: 'window',
      order: 11,
      env: { name: 'OLLAMA_MODEL_NAME' },
      core: { path: 'ollama.model' },
      summary: 'the model for code, documentation answers, classification and relevance',
      description:
        'Model for code generation, retrieval answers, classification and relevance (env `OLLAMA_MODEL_NAME`).',
    },
    conversationalModel: {
      key: 'avap.ollama.conversationalModel',
      type: 'string',
      default: 'qwen3:0.6b',
      required: true,
      scope: 'window',
      order: 12,
      env: { name: 'OLLAMA_MODEL_NAME_CONVERSATIONAL' },
      core: { path: 'ollama.conversationalModel' },
      summary: 'the model for conversational and platform answers',
      description: 'Model for conversational and platform answers (env `OLLAMA_MODEL_NAME_CONVERSATIONAL`).',
    },
    embeddingModel: {
      key: 'avap.ollama.embeddingModel',
      type: 'string',
      default: 'qwen3-embedding:0.6b',
      required: true,
      scope: 'window',
      order: 13,
      env: { name: 'OLLAMA_EMBEDDING_MODEL' },
      core: { path: 'ollama.embeddingModel' },
      summary: 'the embedding model for retrieval and cosine relevance',
      description: 'Embedding model for retrieval and cosine relevance (env `OLLAMA_EMBEDDING_MODEL`).',
    },
    idleTimeoutSeconds: {
      key: 'avap.ollama.idleTimeout',
      type: 'number',
      default: 60,
      minimum: 0,
      maximum: 3600,
      unit: 's',
      scope: 'window',
      order: 14,
      env: { name: 'AVAP_LLM_IDLE_TIMEOUT', unit: 's' },
      core: { path: 'ollama.idleTimeoutMs', unit: 'ms' },
      summary:
        'a started answer silent this long is aborted with an error; 0 = no limit (the wait for the first byte, a cold model load, is `OLLAMA_TTFB_TIMEOUT`, ms, default 120000)',
      description:
        'Seconds a started answer may stay silent before it is aborted with an error (env `AVAP_LLM_IDLE_TIMEOUT`); `0` = no limit. The wait for the first byte (a cold model load) is separate (env `OLLAMA_TTFB_TIMEOUT`).',
    },
  },
  elasticsearch: {
    url: {
      key: 'avap.elasticsearch.url',
      type: 'string',
      default: '',
      format: 'http-url',
      emptyMeans: 'embedded index',
      scope: 'machine-overridable',
      order: 20,
      env: { name: 'AVAP_ES_URL' },
      core: { path: 'retrieval.esUrl' },
      summary:
        'hybrid BM25 + kNN retrieval from Elasticsearch; the API key (`AVAP_ES_API_KEY`) is kept in the secret storage',
      description:
        'Elasticsearch URL of the AVAP knowledge index (env `AVAP_ES_URL`). Empty: the embedded index shipped with the extension. The API key is kept in the secret storage: run **AVAP: Set Elasticsearch API Key**.',
    },
    index: {
      key: 'avap.elasticsearch.index',
      type: 'string',
      default: 'avap-knowledge-v1',
      required: true,
      scope: 'window',
      order: 21,
      env: { name: 'AVAP_ES_INDEX' },
      core: { path: 'retrieval.esIndex' },
      summary: 'the Elasticsearch index',
      description: 'Name of the Elasticsearch index (env `AVAP_ES_INDEX`).',
    },
  },
  relevance: {
    mode: {
      key: 'avap.relevance.mode',
      type: 'string',
      enum: ['llm', 'cosine'],
      default: 'llm',
      scope: 'window',
      order: 30,
      enumDescriptions: [
        'Ask the model whether the retrieved context is relevant (YES/NO).',
        'Compare the query embedding with the mean of the chunk embeddings.',
      ],
      env: { name: 'AVAP_RELEVANCE_MODE' },
      core: { path: 'relevance.mode' },
      summary: 'how the retrieved context is checked for relevance',
      description: 'How retrieved context is checked for relevance before answering (env `AVAP_RELEVANCE_MODE`).',
    },
    cosineThreshold: {
      key: 'avap.relevance.cosineThreshold',
      type: 'number',
      default: 0.5,
      minimum: -1,
      maximum: 1,
      scope: 'window',
      order: 31,
      env: { name: 'AVAP_RELEVANCE_THRESHOLD' },
      core: { path: 'relevance.cosineThreshold' },
      summary: 'cosine relevance: the similarity the context must reach',
      description:
        'Cosine relevance: the context is relevant when the similarity reaches this value (env `AVAP_RELEVANCE_THRESHOLD`).',
    },
  },
  generation: {
    maxRetries: {
      key: 'avap.generation.maxRetries',
      type: 'integer',
      default: 1,
      enum: [0, 1],
      rule: '0 or 1 (one retry cycle per request at most)',
      scope: 'window',
      order: 35,
      enumDescriptions: [
        'No retry of any kind: invalid code is returned `INVALID_UNRESOLVED` at once.',
        "One retry cycle per request, used by whichever comes first: the relevance reformulation, the parser's trace or the judge's hint.",
      ],
      env: { name: 'AVAP_MAX_RETRIES' },
      core: { path: 'pipeline.maxRetries' },
      summary:
        "0 or 1: the request's one retry cycle (relevance, parser trace or judge hint); a skipped retry is logged with its reason",
      description:
        "The retry cycle of each request, `0` or `1` (env `AVAP_MAX_RETRIES`). With `1`, invalid code goes back to the model once with the parser's trace — unless the request already used its one retry (relevance reformulation or judge hint); a skipped retry is logged with its reason.",
    },
    fewShotExamples: {
      key: 'avap.generation.fewShotExamples',
      type: 'integer',
      default: 5,
      minimum: 0,
      maximum: 20,
      scope: 'window',
      order: 36,
      env: { name: 'AVAP_FEW_SHOT_K' },
      core: { path: 'pipeline.fewShotExamples' },
      summary: 'validated examples in the code prompt (0: none), chosen by embedding similarity',
      description:
        'How many validated AVAP examples, the most similar to the request, go into the prompt before code generation; `0` disables the injection (env `AVAP_FEW_SHOT_K`).',
    },
  },
  quality: {
    judge: {
      key: 'avap.quality.judge',
      type: 'boolean',
      default: false,
      scope: 'window',
      order: 37,
      env: { name: 'AVAP_JUDGE' },
      summary: 'LLM judge on documentation answers, one hinted retry',
      description:
        "Score documentation answers (RETRIEVAL) with the LLM judge — grounding 0.5, specificity 0.3, actionability 0.2 — and retry once with the weakest dimension's hint when the composite is below the threshold. Costs one more LLM call per answer (env `AVAP_JUDGE`).",
    },
    judgeThreshold: {
      key: 'avap.quality.judgeThreshold',
      type: 'number',
      default: 0.6,
      minimum: 0,
      maximum: 1,
      scope: 'window',
      order: 38,
      env: { name: 'AVAP_JUDGE_THRESHOLD' },
      summary: "the judge's pass mark",
      description: "Pass mark of the judge's composite score, 0–1 (env `AVAP_JUDGE_THRESHOLD`).",
    },
  },
  validation: {
    debounceMs: {
      key: 'avap.validation.debounce',
      type: 'integer',
      default: 300,
      minimum: 0,
      maximum: 10000,
      unit: 'ms',
      scope: 'window',
      order: 40,
      summary: 'typing pause before a document is validated',
      description: 'Milliseconds after the last keystroke before an `.avap` document is validated.',
    },
  },
  inlayHints: {
    parameterNames: {
      key: 'avap.inlayHints.parameterNames',
      type: 'boolean',
      default: false,
      scope: 'resource',
      order: 41,
      summary:
        'parameter names before positional arguments (`url:`); the variable-or-text hints are always on. The language server reads the same name',
      description:
        'Show parameter names before the positional arguments of commands and user functions (`url:` in `RequestGet(url, …)`). The hints that say whether a one-word argument is a variable or text are always shown. The language server reads the same setting (`avap.inlayHints.parameterNames`).',
    },
  },
  telemetry: {
    file: {
      key: 'avap.telemetry.file',
      type: 'string',
      default: '',
      emptyMeans: 'extension storage',
      scope: 'machine',
      order: 50,
      env: { name: 'AVAP_TELEMETRY_FILE' },
      core: { path: 'telemetry.file' },
      summary: 'the append-only telemetry log (JSONL)',
      description:
        "JSONL file for the validation telemetry log (one event per attempt; read by **AVAP: Show Validation Metrics**; env `AVAP_TELEMETRY_FILE`). Empty: a file in the extension's storage.",
    },
  },
  signals: {
    enabled: {
      key: 'avap.signals.enabled',
      type: 'boolean',
      default: true,
      scope: 'window',
      order: 51,
      summary: 'record training signals in a local append-only file',
      description:
        'Record training signals — each answer with its context and scores, your 👍/👎, and whether you accepted or edited generated code — in a local append-only file. Nothing leaves this machine; export with `node dist/cli.js export`.',
    },
    file: {
      key: 'avap.signals.file',
      type: 'string',
      default: '',
      emptyMeans: 'extension storage',
      scope: 'machine',
      order: 52,
      env: { name: 'AVAP_SIGNALS_FILE' },
      summary: 'the local training-signal store (JSONL)',
      description:
        "JSONL file of the training-signal store (env `AVAP_SIGNALS_FILE`). Empty: a file in the extension's storage.",
    },
  },
  run: {
    allowHttp: {
      key: 'avap.run.allowHttp',
      type: 'array',
      default: [],
      scope: 'machine-overridable',
      order: 60,
      env: { name: 'AVAP_RUN_ALLOW_HTTP', list: 'comma-separated' },
      summary:
        'hosts (`HOST` or `HOST:PORT`) a run in the editor may really call; anything else answers from the recorded fixtures or fails with `http-not-recorded`',
      description:
        'Hosts a run (*AVAP: Run File*, the Testing view) may really call with `RequestGet` / `RequestPost`, each `HOST` or `HOST:PORT` (env `AVAP_RUN_ALLOW_HTTP`, comma-separated). Anything else answers from the recorded fixtures only, or fails with `http-not-recorded`.',
    },
    timeoutSeconds: {
      key: 'avap.run.timeout',
      type: 'number',
      default: 5,
      minimum: 0.001,
      maximum: 600,
      unit: 's',
      scope: 'window',
      order: 61,
      env: { name: 'AVAP_RUN_TIMEOUT', unit: 's' },
      summary: 'wall-time budget of a run (`time-budget`)',
      description:
        'Wall-time budget of one run, in seconds (env `AVAP_RUN_TIMEOUT`, also seconds): a run over it is stopped with `time-budget`.',
    },
    maxSteps: {
      key: 'avap.run.maxSteps',
      type: 'integer',
      default: 1000000,
      minimum: 1,
      maximum: 1000000000,
      scope: 'window',
      order: 62,
      env: { name: 'AVAP_RUN_MAX_STEPS' },
      summary: 'statements a run may execute (`step-budget`)',
      description:
        'Statements one run may execute (env `AVAP_RUN_MAX_STEPS`): a loop that does not end stops with `step-budget`.',
    },
    maxMemoryMb: {
      key: 'avap.run.maxMemory',
      type: 'integer',
      default: 256,
      minimum: 16,
      maximum: 16384,
      unit: 'MiB',
      scope: 'window',
      order: 63,
      env: { name: 'AVAP_RUN_MAX_MEMORY', unit: 'MiB' },
      summary: "heap cap of a run's worker (`memory-budget`)",
      description:
        "Heap cap of a run's worker, in MiB (env `AVAP_RUN_MAX_MEMORY`, also MiB): a run over it is stopped with `memory-budget`.",
    },
    showValues: {
      key: 'avap.run.showValues',
      type: 'boolean',
      default: true,
      scope: 'window',
      order: 64,
      summary: 'values at the ends of the lines after a run',
      description:
        'After a run, show at the end of each line the value it assigned (hover for the whole value); an edit clears them.',
    },
  },
} as const satisfies Record<string, Record<string, SettingDeclaration>>;

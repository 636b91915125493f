// The extension's `contributes` and `activationEvents`, kept here as code so they can be
// reviewed in one place. `node scripts/sync-contributes.mjs` writes exactly these two keys
// into package.json (and nothing else).

const command = (command, title, extra = {}) => ({ command, title, category: 'AVAP', ...extra });

export const activationEvents = ['onLanguage:avap'];

export const contributes = {
  languages: [
    {
      id: 'avap',
      aliases: ['AVAP', 'avap'],
      extensions: ['.avap'],
      configuration: './language-configuration.json',
    },
  ],
  // One layout for AVAP everywhere: the formatter's (two spaces), which `avap fmt` applies too.
  configurationDefaults: { '[avap]': { 'editor.tabSize': 2, 'editor.insertSpaces': true } },
  grammars: [{ language: 'avap', scopeName: 'source.avap', path: './syntaxes/avap.tmLanguage.json' }],
  snippets: [{ language: 'avap', path: './snippets/avap.code-snippets' }],
  commands: [
    command('avap.validateDocument', 'Validate Document', { icon: '$(check)' }),
    command('avap.showOutput', 'Show Output'),
    command('avap.resetParserCircuit', 'Reset Parser Circuit'),
    command('avap.generateCode', 'Generate Code…', { icon: '$(sparkle)' }),
    command('avap.generateAtCursor', 'Generate at Cursor', { icon: '$(sparkle)' }),
    command('avap.acceptPendingChange', 'Accept Generated Change', { icon: '$(check)' }),
    command('avap.rejectPendingChange', 'Reject Generated Change', { icon: '$(discard)' }),
    command('avap.fixAll', 'Fix All Auto-fixable Problems'),
    command('avap.ask', 'Ask…', { icon: '$(comment-discussion)' }),
    command('avap.regenerateWithTrace', 'Regenerate with Trace'),
    command('avap.cancelGeneration', 'Cancel Generation'),
    command('avap.showValidationMetrics', 'Show Validation Metrics'),
    command('avap.openEvaluationReport', 'Open Evaluation Report…'),
    command('avap.setElasticsearchApiKey', 'Set Elasticsearch API Key'),
    command('avap.clearChat', 'Clear Chat', { icon: '$(clear-all)' }),
    command('avap.acceptGenerated', 'Accept Generated Code'),
    command('avap.rateGenerated', 'Rate Generated Code'),
    command('avap.checkOllama', 'Check Ollama', { icon: '$(pulse)' }),
    command('avap.openExample', 'Open an Example…'),
    command('avap.openWalkthrough', 'Get Started'),
    // Running AVAP in the editor (issue 27): the runtime's sandbox, its result view, the Testing view.
    command('avap.runFile', 'Run File', { icon: '$(play)' }),
    command('avap.editRunRequest', 'Edit Run Request…', { icon: '$(edit)' }),
    command('avap.addTestCaseFromLastRun', 'Add Test Case from Last Run'),
    command('avap.testFile', "Run the File's Test Cases", { icon: '$(beaker)' }),
  ],
  menus: {
    commandPalette: [
      { command: 'avap.validateDocument', when: 'editorLangId == avap' },
      { command: 'avap.regenerateWithTrace', when: 'editorLangId == avap' },
      { command: 'avap.generateAtCursor', when: 'editorLangId == avap && !editorReadonly' },
      { command: 'avap.fixAll', when: 'editorLangId == avap && !editorReadonly' },
      { command: 'avap.acceptPendingChange', when: 'avap.pendingChange' },
      { command: 'avap.rejectPendingChange', when: 'avap.pendingChange' },
      { command: 'avap.acceptGenerated', when: 'false' },
      { command: 'avap.rateGenerated', when: 'false' },
      { command: 'avap.runFile', when: 'editorLangId == avap' },
      { command: 'avap.editRunRequest', when: 'editorLangId == avap' },
      { command: 'avap.testFile', when: 'editorLangId == avap' },
    ],
    'editor/title': [
      { command: 'avap.runFile', when: 'editorLangId == avap', group: 'navigation@1' },
      { command: 'avap.validateDocument', when: 'editorLangId == avap', group: 'navigation@2' },
    ],
    'view/title': [{ command: 'avap.clearChat', when: 'view == avap.chat', group: 'navigation' }],
    'editor/context': [
      { command: 'avap.generateAtCursor', when: 'editorLangId == avap && !editorReadonly', group: '1_avap@1' },
      { command: 'avap.fixAll', when: 'editorLangId == avap && !editorReadonly', group: '1_avap@2' },
      { command: 'avap.regenerateWithTrace', when: 'editorLangId == avap && !editorReadonly', group: '1_avap@3' },
    ],
    'explorer/context': [
      { command: 'avap.openEvaluationReport', when: 'resourceFilename == report.json', group: 'navigation@90' },
    ],
  },
  // First run: Help › Welcome › Walkthroughs, opened once by the extension on its first activation.
  walkthroughs: [
    {
      id: 'avap.welcome',
      title: 'Get Started with AVAP Assistant',
      description: 'Check that Ollama is ready, open an AVAP example and generate validated code at the cursor.',
      featuredFor: ['**/*.avap'],
      steps: [
        {
          id: 'avap.welcome.about',
          title: 'What AVAP Assistant does',
          description:
            "Every AVAP line the assistant writes is checked by the real AVAP parser before you see it: invalid code goes back to the model once with the parser's trace, and what stays invalid or unchecked says so.\n[Open the Ask AVAP view](command:avap.ask)",
          media: { markdown: 'media/walkthrough/about.md' },
        },
        {
          id: 'avap.welcome.checkOllama',
          title: 'Check Ollama',
          description:
            'The assistant talks to a local Ollama server. Check that it answers at `avap.ollama.url` and that the configured models are pulled; a missing model comes with its exact `ollama pull` line to copy or run.\n[Check Ollama](command:avap.checkOllama)',
          media: { markdown: 'media/walkthrough/ollama.md' },
          completionEvents: ['onCommand:avap.checkOllama'],
        },
        {
          id: 'avap.welcome.openExample',
          title: 'Open an example',
          description:
            'Open an AVAP program: the parser validates it as you type — squiggles, quick fixes and the status item.\n[Open an Example](command:avap.openExample)',
          media: { markdown: 'media/walkthrough/example.md' },
          completionEvents: ['onCommand:avap.openExample', 'onLanguage:avap'],
        },
        {
          id: 'avap.welcome.run',
          title: 'Run it and read the response',
          description:
            'Run the example on the AVAP runtime, in a sandbox: the response (status, JSON body), the logs and each step open beside the file, and every line shows the value it assigned. Set the query, headers or body with **AVAP: Edit Run Request…**.\n[Run File](command:avap.runFile)',
          media: { markdown: 'media/walkthrough/run.md' },
          completionEvents: ['onCommand:avap.runFile'],
        },
        {
          id: 'avap.welcome.generate',
          title: 'Generate at the cursor',
          description:
            'In an .avap file, describe what you need: the validated answer goes in at the cursor (or replaces the selection) for you to accept or reject.\n[Generate at Cursor](command:avap.generateAtCursor)',
          media: { markdown: 'media/walkthrough/generate.md' },
          completionEvents: ['onCommand:avap.generateAtCursor'],
        },
      ],
    },
  ],
  keybindings: [
    {
      command: 'avap.generateAtCursor',
      key: 'ctrl+i',
      mac: 'cmd+i',
      when: 'editorTextFocus && editorLangId == avap && !editorReadonly',
    },
    { command: 'avap.runFile', key: 'ctrl+alt+r', mac: 'cmd+alt+r', when: 'editorTextFocus && editorLangId == avap' },
  ],
  // Completion and checks in the JSON editor for a program's request and test files (JSON schemas in schemas/).
  jsonValidation: [
    { fileMatch: '*.avap.request.json', url: './schemas/avap-request.schema.json' },
    { fileMatch: '*.avap.test.json', url: './schemas/avap-test.schema.json' },
  ],
  viewsContainers: {
    activitybar: [{ id: 'avap', title: 'AVAP', icon: 'media/avap.svg' }],
  },
  views: {
    avap: [{ type: 'webview', id: 'avap.chat', name: 'Ask AVAP' }],
  },
  configuration: {
    title: 'AVAP',
    properties: {
      'avap.parser.url': {
        type: 'string',
        default: '',
        scope: 'machine-overridable',
        order: 1,
        markdownDescription:
          'Address of the AVAP parser service (`host:port`, `grpc://host:port` or `grpcs://host:port`; env `AVAP_PARSER_URL`). Several replicas: a comma-separated list (`host:port,host:port`) or `dns:///name:port`, balanced round-robin over every address and health-checked. Empty: the extension starts its bundled parser service on a free loopback port.',
      },
      'avap.parser.timeout': {
        type: 'number',
        default: 2,
        minimum: 0,
        maximum: 600,
        scope: 'window',
        order: 2,
        markdownDescription:
          'Deadline of one parser call, in seconds, decimals allowed (env `AVAP_PARSER_TIMEOUT`, also in seconds — it was milliseconds before). `0` disables validation: answers with code are returned `PARSER_UNAVAILABLE` (unvalidated).',
      },
      'avap.parser.circuitBreaker.threshold': {
        type: 'integer',
        default: 3,
        minimum: 1,
        maximum: 100,
        scope: 'window',
        order: 3,
        markdownDescription:
          'Consecutive parser failures that open the circuit (env `PARSER_CB_THRESHOLD`). While open, no parser call is made and code is marked unvalidated.',
      },
      'avap.parser.circuitBreaker.cooldown': {
        type: 'number',
        default: 30,
        minimum: 0,
        maximum: 3600,
        scope: 'window',
        order: 4,
        markdownDescription:
          'Seconds an open circuit waits before probing the parser again (env `PARSER_CB_COOLDOWN`).',
      },
      'avap.ollama.url': {
        type: 'string',
        default: 'http://127.0.0.1:11434',
        scope: 'machine-overridable',
        order: 10,
        markdownDescription: 'Base URL of the Ollama server (env `OLLAMA_HOST`).',
      },
      'avap.ollama.model': {
        type: 'string',
        default: 'qwen3:1.7b',
        scope: 'window',
        order: 11,
        markdownDescription:
          'Model for code generation, retrieval answers, classification and relevance (env `OLLAMA_MODEL_NAME`).',
      },
      'avap.ollama.conversationalModel': {
        type: 'string',
        default: 'qwen3:0.6b',
        scope: 'window',
        order: 12,
        markdownDescription: 'Model for conversational and platform answers (env `OLLAMA_MODEL_NAME_CONVERSATIONAL`).',
      },
      'avap.ollama.embeddingModel': {
        type: 'string',
        default: 'qwen3-embedding:0.6b',
        scope: 'window',
        order: 13,
        markdownDescription: 'Embedding model for retrieval and cosine relevance (env `OLLAMA_EMBEDDING_MODEL`).',
      },
      'avap.ollama.idleTimeout': {
        type: 'number',
        default: 60,
        minimum: 0,
        maximum: 3600,
        scope: 'window',
        order: 14,
        markdownDescription:
          'Seconds a started answer may stay silent before it is aborted with an error (env `AVAP_LLM_IDLE_TIMEOUT`); `0` = no limit. The wait for the first byte (a cold model load) is separate (env `OLLAMA_TTFB_TIMEOUT`).',
      },
      'avap.elasticsearch.url': {
        type: 'string',
        default: '',
        scope: 'machine-overridable',
        order: 20,
        markdownDescription:
          'Elasticsearch URL of the AVAP knowledge index (env `AVAP_ES_URL`). Empty: the embedded index shipped with the extension. The API key is kept in the secret storage: run **AVAP: Set Elasticsearch API Key**.',
      },
      'avap.elasticsearch.index': {
        type: 'string',
        default: 'avap-knowledge-v1',
        scope: 'window',
        order: 21,
        markdownDescription: 'Name of the Elasticsearch index (env `AVAP_ES_INDEX`).',
      },
      'avap.relevance.mode': {
        type: 'string',
        enum: ['llm', 'cosine'],
        default: 'llm',
        scope: 'window',
        order: 30,
        enumDescriptions: [
          'Ask the model whether the retrieved context is relevant (YES/NO).',
          'Compare the query embedding with the mean of the chunk embeddings.',
        ],
        markdownDescription:
          'How retrieved context is checked for relevance before answering (env `AVAP_RELEVANCE_MODE`).',
      },
      'avap.relevance.cosineThreshold': {
        type: 'number',
        default: 0.5,
        minimum: -1,
        maximum: 1,
        scope: 'window',
        order: 31,
        markdownDescription:
          'Cosine relevance: the context is relevant when the similarity reaches this value (env `AVAP_RELEVANCE_THRESHOLD`).',
      },
      'avap.generation.maxRetries': {
        type: 'integer',
        default: 1,
        enum: [0, 1],
        scope: 'window',
        order: 35,
        enumDescriptions: [
          'No retry of any kind: invalid code is returned `INVALID_UNRESOLVED` at once.',
          "One retry cycle per request, used by whichever comes first: the relevance reformulation, the parser's trace or the judge's hint.",
        ],
        markdownDescription:
          "The retry cycle of each request, `0` or `1` (env `AVAP_MAX_RETRIES`). With `1`, invalid code goes back to the model once with the parser's trace — unless the request already used its one retry (relevance reformulation or judge hint); a skipped retry is logged with its reason.",
      },
      'avap.generation.fewShotExamples': {
        type: 'integer',
        default: 5,
        minimum: 0,
        maximum: 20,
        scope: 'window',
        order: 36,
        markdownDescription:
          'How many validated AVAP examples, the most similar to the request, go into the prompt before code generation; `0` disables the injection (env `AVAP_FEW_SHOT_K`).',
      },
      'avap.quality.judge': {
        type: 'boolean',
        default: false,
        scope: 'window',
        order: 37,
        markdownDescription:
          "Score documentation answers (RETRIEVAL) with the LLM judge — grounding 0.5, specificity 0.3, actionability 0.2 — and retry once with the weakest dimension's hint when the composite is below the threshold. Costs one more LLM call per answer (env `AVAP_JUDGE`).",
      },
      'avap.quality.judgeThreshold': {
        type: 'number',
        default: 0.6,
        minimum: 0,
        maximum: 1,
        scope: 'window',
        order: 38,
        markdownDescription: "Pass mark of the judge's composite score, 0–1 (env `AVAP_JUDGE_THRESHOLD`).",
      },
      'avap.validation.debounce': {
        type: 'integer',
        default: 300,
        minimum: 0,
        maximum: 10000,
        scope: 'window',
        order: 40,
        markdownDescription: 'Milliseconds after the last keystroke before an `.avap` document is validated.',
      },
      'avap.inlayHints.parameterNames': {
        type: 'boolean',
        default: false,
        scope: 'resource',
        order: 41,
        markdownDescription:
          'Show parameter names before the positional arguments of commands and user functions (`url:` in `RequestGet(url, …)`). The hints that say whether a one-word argument is a variable or text are always shown. The language server reads the same setting (`avap.inlayHints.parameterNames`).',
      },
      'avap.telemetry.file': {
        type: 'string',
        default: '',
        scope: 'machine',
        order: 50,
        markdownDescription:
          "JSONL file for the validation telemetry log (one event per attempt; read by **AVAP: Show Validation Metrics**; env `AVAP_TELEMETRY_FILE`). Empty: a file in the extension's storage.",
      },
      'avap.signals.enabled': {
        type: 'boolean',
        default: true,
        scope: 'window',
        order: 51,
        markdownDescription:
          'Record training signals — each answer with its context and scores, your 👍/👎, and whether you accepted or edited generated code — in a local append-only file. Nothing leaves this machine; export with `node dist/cli.js export`.',
      },
      'avap.signals.file': {
        type: 'string',
        default: '',
        scope: 'machine',
        order: 52,
        markdownDescription:
          "JSONL file of the training-signal store (env `AVAP_SIGNALS_FILE`). Empty: a file in the extension's storage.",
      },
      'avap.run.allowHttp': {
        type: 'array',
        items: { type: 'string' },
        default: [],
        scope: 'machine-overridable',
        order: 60,
        markdownDescription:
          'Hosts a run (*AVAP: Run File*, the Testing view) may really call with `RequestGet` / `RequestPost`, each `HOST` or `HOST:PORT` (env `AVAP_RUN_ALLOW_HTTP`, comma-separated). Anything else answers from the recorded fixtures only, or fails with `http-not-recorded`.',
      },
      'avap.run.timeout': {
        type: 'number',
        default: 5,
        minimum: 0.001,
        maximum: 600,
        scope: 'window',
        order: 61,
        markdownDescription:
          'Wall-time budget of one run, in seconds (env `AVAP_RUN_TIMEOUT`, also seconds): a run over it is stopped with `time-budget`.',
      },
      'avap.run.maxSteps': {
        type: 'integer',
        default: 1000000,
        minimum: 1,
        maximum: 1000000000,
        scope: 'window',
        order: 62,
        markdownDescription:
          'Statements one run may execute (env `AVAP_RUN_MAX_STEPS`): a loop that does not end stops with `step-budget`.',
      },
      'avap.run.maxMemory': {
        type: 'integer',
        default: 256,
        minimum: 16,
        maximum: 16384,
        scope: 'window',
        order: 63,
        markdownDescription:
          "Heap cap of a run's worker, in MiB (env `AVAP_RUN_MAX_MEMORY`, also MiB): a run over it is stopped with `memory-budget`.",
      },
      'avap.run.showValues': {
        type: 'boolean',
        default: true,
        scope: 'window',
        order: 64,
        markdownDescription:
          'After a run, show at the end of each line the value it assigned (hover for the whole value); an edit clears them.',
      },
    },
  },
};

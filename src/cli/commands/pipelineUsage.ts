/**
 * The help text of the pipeline options, shared by `generate`, `ask`, `eval`
 * and `serve`. It is kept as whole pieces — one per option, the environment
 * note, the validation note, the note on the command line's output, the exit
 * codes — so a command leaves out what does not apply to it piece by piece,
 * never by filtering lines (which once cut a sentence in half and ran the
 * next one into it).
 */

/** One option: its flag and description lines, as `  --flag ARG   text` with continuation lines. */
export interface UsageOption {
  flag: string;
  lines: string[];
}

export const PIPELINE_OPTION_LINES: readonly UsageOption[] = [
  { flag: '--json', lines: ['print the response messages as JSON lines (the last has is_final: true)'] },
  {
    flag: '--parser-url URL',
    lines: [
      'parser service (host:port, grpc://…, grpcs://…, a list a:1,b:2 or dns:///name:port,',
      'balanced round-robin); default $AVAP_PARSER_URL, else the bundled service',
    ],
  },
  {
    flag: '--parser-timeout S',
    lines: [
      'seconds per parser call, decimals allowed (0.5); 0 disables validation',
      '(default $AVAP_PARSER_TIMEOUT, else 2). Both are SECONDS — they were milliseconds',
      'before; a value over 600 is refused as a likely leftover millisecond figure',
    ],
  },
  { flag: '--ollama-url URL', lines: ['Ollama server (default $OLLAMA_HOST, else http://127.0.0.1:11434)'] },
  { flag: '--model NAME', lines: ['main model (default $OLLAMA_MODEL_NAME, else qwen3:1.7b)'] },
  {
    flag: '--embedding-model M',
    lines: ['embedding model (default $OLLAMA_EMBEDDING_MODEL, else qwen3-embedding:0.6b)'],
  },
  { flag: '--es-url URL', lines: ['Elasticsearch (default $AVAP_ES_URL, else the embedded index)'] },
  { flag: '--es-index NAME', lines: ['Elasticsearch index (default $AVAP_ES_INDEX, else avap-knowledge-v1)'] },
  { flag: '--retrieval MODE', lines: ['hybrid | knn_only (default $AVAP_RETRIEVAL_MODE, else hybrid)'] },
  { flag: '--relevance MODE', lines: ['llm | cosine (default $AVAP_RELEVANCE_MODE, else llm)'] },
  {
    flag: '--telemetry FILE',
    lines: ['append one JSON line per attempt to FILE (default $AVAP_TELEMETRY_FILE)'],
  },
  { flag: '--quiet', lines: ['do not print [ptvl] log lines on stderr'] },
];

export const PIPELINE_ENV_NOTE = `  Also from the environment: PARSER_CB_THRESHOLD (parser failures before the circuit opens, 3),
  PARSER_CB_COOLDOWN (seconds before a probe, 30), AVAP_MAX_RETRIES (0 or 1: the request's one retry
  cycle, used by the relevance reformulation, the parser's trace or the judge's hint, 1),
  AVAP_FEW_SHOT_K (validated examples in the code prompt, 5; 0 disables), OLLAMA_TTFB_TIMEOUT (ms until
  the first byte, for a cold model load, 120000), AVAP_LLM_IDLE_TIMEOUT (seconds of silence that end a
  started answer, 60; 0 = no limit), AVAP_CACHE_DIR (where the few-shot pool's embedding vectors are
  cached; default $XDG_CACHE_HOME or ~/.cache, then avap-assistant).`;

/** What validation_status promises; every front end that validates says it. */
export const VALIDATION_NOTE = `Every answer's code is validated on every route before the final message: validation_status "" means
the parser validated every AVAP block shown (or there is none).`;

/** How `generate` and `ask` print an answer (not how `serve` or `eval` report theirs). */
export const CLI_OUTPUT_NOTE = `With --json, every message before the
last has "draft": true and no status (a draft with "replace": true holds the whole answer repaired by the
parser's fixes and replaces the attempt's earlier drafts); the last has "text", the answer delivered (the
text whose code was validated), validation_status (absent when the run failed, with
"error"), "retrieval" ({"status": "ok" | "degraded", "reason"}) and "retry" (what used the one retry,
what was skipped and why), "repaired_by": "parser-fixes" when the parser's proven fixes repaired the
answer (no LLM retry) and "early_abort" ({attempt, line, rule}) when a streamed answer was stopped on a
line certain to be rejected. In text mode stdout streams the answer and ends with the answer as validated
(printed again whole after a "---" line when it differs from what streamed, e.g. repaired by the parser's
fixes); every outcome other than valid is reported on stderr, and so are a repair (repair: …) and an early
stop (stream: …).`;

export const PIPELINE_EXIT_CODES = `Exit codes: 0 valid (or not code), 3 INVALID_UNRESOLVED, 4 PARSER_UNAVAILABLE,
            2 usage error or LLM unreachable/failed/stalled, 130 interrupted.`;

/**
 * The option lines, with descriptions starting at column `2 + width`
 * (`generate` uses 22; `serve` and `eval` align with their own options at 23).
 */
export function optionLines(options: readonly UsageOption[], width: number): string {
  const pad = ' '.repeat(2 + width);
  return options
    .map(({ flag, lines }) =>
      [`  ${flag.padEnd(width - 1)} ${lines[0] ?? ''}`, ...lines.slice(1).map((line) => `${pad}${line}`)].join('\n'),
    )
    .join('\n');
}

/** The pipeline options without the flags a command does not take. */
export function pipelineOptions(without: readonly string[] = []): UsageOption[] {
  return PIPELINE_OPTION_LINES.filter((option) => !without.includes(option.flag.split(' ')[0] ?? ''));
}

/**
 * `generate [--json] [options] "request"` — AVAP code for a request (the route
 * is forced to CODE_GENERATION), validated by the parser with one retry.
 * Shares its machinery with `ask` (exported below).
 */
import { parseArgs } from 'node:util';
import {
  attemptCount,
  ConfigError,
  configFromEnv,
  createAssistant,
  mergeConfig,
  normalizeOllamaHost,
  prefixedLogger,
  type AssistantConfig,
  type PipelineResult,
  type QueryType,
  type ResponseMessage,
  parseParserTimeout,
  parseRelevanceMode,
  parseRetrievalMode,
  firstAttemptFields,
  describeSkip,
  stripThinking,
} from '../../core';
import { renderTrace } from '../../parser';
import { defaultCacheDir } from '../cacheDir';
import { EXIT, UsageError, type CliCommand, type CliIO } from '../command';
import {
  CLI_OUTPUT_NOTE,
  optionLines,
  PIPELINE_ENV_NOTE,
  PIPELINE_EXIT_CODES,
  PIPELINE_OPTION_LINES,
  VALIDATION_NOTE,
} from './pipelineUsage';

export const PIPELINE_OPTIONS_USAGE = [
  optionLines(PIPELINE_OPTION_LINES, 22),
  PIPELINE_ENV_NOTE,
  `${VALIDATION_NOTE} ${CLI_OUTPUT_NOTE}`,
  PIPELINE_EXIT_CODES,
].join('\n');

const USAGE = `Usage: node dist/cli.js generate [--json] [options] "request"
  Writes AVAP code for the request and validates it with the parser (one retry with the trace).
${PIPELINE_OPTIONS_USAGE}`;

export const PIPELINE_OPTIONS = {
  json: { type: 'boolean', default: false },
  'parser-url': { type: 'string' },
  'parser-timeout': { type: 'string' },
  'ollama-url': { type: 'string' },
  model: { type: 'string' },
  'embedding-model': { type: 'string' },
  'es-url': { type: 'string' },
  'es-index': { type: 'string' },
  retrieval: { type: 'string' },
  relevance: { type: 'string' },
  telemetry: { type: 'string' },
  quiet: { type: 'boolean', default: false },
} as const;

type PipelineFlags = {
  json?: boolean;
  'parser-url'?: string;
  'parser-timeout'?: string;
  'ollama-url'?: string;
  model?: string;
  'embedding-model'?: string;
  'es-url'?: string;
  'es-index'?: string;
  retrieval?: string;
  relevance?: string;
  telemetry?: string;
  quiet?: boolean;
};

/** The configuration from the environment with the flags on top. Throws UsageError for bad values. */
export function configFromFlags(flags: PipelineFlags, env: NodeJS.ProcessEnv): AssistantConfig {
  try {
    const base = configFromEnv(env);
    const config = mergeConfig(base, {
      parser: {
        url: flags['parser-url'],
        timeoutMs:
          flags['parser-timeout'] === undefined
            ? undefined
            : parseParserTimeout('--parser-timeout', flags['parser-timeout']),
      },
      ollama: { host: flags['ollama-url'], model: flags.model, embeddingModel: flags['embedding-model'] },
      retrieval: {
        esUrl: flags['es-url'],
        esIndex: flags['es-index'],
        mode: flags.retrieval === undefined ? undefined : parseRetrievalMode('--retrieval', flags.retrieval),
      },
      relevance: {
        mode: flags.relevance === undefined ? undefined : parseRelevanceMode('--relevance', flags.relevance),
      },
      telemetry: { file: flags.telemetry },
    });
    config.ollama.host = normalizeOllamaHost(config.ollama.host);
    config.cache.dir ??= defaultCacheDir(env);
    return config;
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(err.message);
    throw err;
  }
}

/** @internal */
export function exitCodeFor(result: PipelineResult): number {
  if (result.error?.code === 'cancelled') return 130;
  if (result.validationStatus === 'INVALID_UNRESOLVED') return EXIT.invalidUnresolved;
  if (result.validationStatus === 'PARSER_UNAVAILABLE') return EXIT.parserUnavailable;
  if (result.error || result.validationStatus === undefined) return EXIT.usage;
  return EXIT.ok;
}

function lastAttempt(result: PipelineResult) {
  return result.attempts[result.attempts.length - 1];
}

function lastTrace(result: PipelineResult) {
  const last = lastAttempt(result);
  return last && last.outcome.kind === 'validated' ? last.outcome.result.trace : [];
}

/**
 * The stderr report of text mode: every outcome but a clean valid one says what it is.
 * @internal
 */
export function outcomeLines(result: PipelineResult): string[] {
  const lines: string[] = [];
  const attempts = `after ${attemptCount(result)} attempt(s)`;
  if (result.retrieval?.status === 'degraded')
    lines.push(
      `retrieval: degraded — answered without documentation context (${result.retrieval.reason ?? 'retrieval failed'})`,
    );
  for (const skip of result.retry?.skipped ?? []) lines.push(`retry: skipped — ${describeSkip(skip)}`);
  if (result.earlyAbort) {
    const { attempt, line, rule } = result.earlyAbort;
    lines.push(
      `stream: attempt ${attempt} stopped early — line ${line} (${rule}) is certain to be rejected; the model was stopped and asked again with the trace`,
    );
  }
  if (result.repair) {
    const { attempt, applied, rounds } = result.repair;
    lines.push(
      `repair: attempt ${attempt} repaired by the parser's fixes — ${applied.length} fix(es) in ${rounds} round(s), validated by the parser service; no LLM retry spent`,
    );
  }
  if (result.error) lines.push(`avap: ${result.error.message}`);
  switch (result.validationStatus) {
    case undefined:
      lines.push(
        `validation: none — the run ${result.error?.code === 'cancelled' ? 'was cancelled' : 'failed'} before any code was validated (${result.error?.code ?? 'failed'})`,
      );
      break;
    case 'INVALID_UNRESOLVED': {
      lines.push(
        `validation: INVALID_UNRESOLVED ${attempts}${result.error ? ' (the retry could not be generated)' : ''}`,
      );
      const trace = renderTrace(lastTrace(result));
      if (trace) lines.push(trace);
      break;
    }
    case 'PARSER_UNAVAILABLE': {
      const outcome = lastAttempt(result)?.outcome;
      const why = outcome?.kind === 'unavailable' ? ` (${outcome.reason}: ${outcome.detail})` : '';
      lines.push(
        `validation: PARSER_UNAVAILABLE ${attempts} — the code was not validated${why}; it may or may not be valid`,
      );
      break;
    }
    case '':
      if (result.code) lines.push(`validation: valid AVAP ${attempts}`);
      break;
  }
  return lines;
}

/**
 * Text mode: the line before an answer the parser's proven fixes repaired, printed whole after the model's.
 * @internal
 */
export const REPAIRED_HEADER = "--- repaired by the parser's fixes: the answer as validated ---";
/**
 * Text mode: the line before the delivered answer when it differs from what streamed last.
 * @internal
 */
export const DELIVERED_HEADER = '--- the answer as validated ---';

/**
 * Whether what streamed of the last attempt shows the delivered answer and
 * nothing else that could be read as part of it: the same text, or the same
 * after an empty reasoning block (`<think></think>`).
 * @internal
 */
export function streamedAsDelivered(streamed: string, delivered: string): boolean {
  if (streamed === delivered) return true;
  if (stripThinking(streamed) !== delivered || !streamed.endsWith(delivered)) return false;
  return (
    streamed
      .slice(0, streamed.length - delivered.length)
      .replace(/<\/?think>/g, '')
      .trim() === ''
  );
}

/** Runs one request end to end and prints it; returns the exit code. */
export async function runRequest(
  args: string[],
  io: CliIO,
  forceType: QueryType | undefined,
  usageWhat: string,
): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: PIPELINE_OPTIONS, allowPositionals: true, strict: true });
  const query = positionals.join(' ').trim();
  if (!query) throw new UsageError(`no ${usageWhat} given`);
  const config = configFromFlags(values, io.env);
  const json = Boolean(values.json);
  const logger = prefixedLogger((line) => {
    if (!values.quiet) io.stderr(`${line}\n`);
  });

  const created = await createAssistant(config, { logger, bundled: { onLog: () => undefined } });
  if (!created.ok) throw new UsageError(created.error.message);
  const assistant = created.value;
  let currentAttempt = 1;
  let printedText = false;
  /** What stdout shows of the current attempt: the delivered answer must be the last thing it shows. */
  let shown = '';
  const onMessage = (message: ResponseMessage) => {
    if (message.is_final) return;
    if (json) {
      io.stdout(`${JSON.stringify(message)}\n`);
      return;
    }
    if (message.attempt !== undefined && message.attempt !== currentAttempt) {
      currentAttempt = message.attempt;
      shown = '';
      io.stdout(`\n\n--- attempt ${currentAttempt}: regenerating with the parser's trace ---\n\n`);
    }
    if (message.replace) {
      shown = '';
      io.stdout(`\n\n${REPAIRED_HEADER}\n\n`);
    }
    printedText = true;
    shown += message.text;
    io.stdout(message.text);
  };
  let result: PipelineResult;
  try {
    result = await assistant.run({ query, ...(forceType ? { forceType } : {}) }, { signal: io.signal, onMessage });
  } finally {
    await assistant.dispose();
  }

  if (json) {
    // The final message, with the run's summary alongside the four fields of the contract.
    io.stdout(
      `${JSON.stringify({
        text: result.text,
        avap_code: result.code,
        is_final: true,
        ...(result.validationStatus !== undefined ? { validation_status: result.validationStatus } : {}),
        query_type: result.queryType,
        attempts: attemptCount(result),
        generation_id: result.generationId,
        trace: lastTrace(result),
        ...(result.retrieval ? { retrieval: result.retrieval } : {}),
        ...(result.retry ? { retry: result.retry } : {}),
        ...(result.repair && result.validationStatus === '' ? { repaired_by: result.repair.by } : {}),
        ...(result.earlyAbort ? { early_abort: result.earlyAbort } : {}),
        ...firstAttemptFields(result),
        ...(result.fewShot?.status === 'degraded' ? { few_shot_injection: 'degraded' } : {}),
        ...(result.error ? { error: result.error } : {}),
      })}\n`,
    );
  } else {
    // The answer on stdout is the one whose code was validated: when it is not what streamed last, it follows whole.
    if (result.text && !streamedAsDelivered(shown, result.text)) {
      io.stdout(`${printedText ? '\n\n' : ''}${DELIVERED_HEADER}\n\n${result.text}`);
      printedText = true;
    }
    if (printedText) io.stdout('\n');
    const lines = outcomeLines(result);
    if (lines.length) io.stderr(`\n${lines.join('\n')}\n`);
  }
  return exitCodeFor(result);
}

export const generateCommand: CliCommand = {
  name: 'generate',
  summary: 'write AVAP code for a request, validated by the parser (one retry)',
  usage: USAGE,
  run: (args, io) => runRequest(args, io, 'CODE_GENERATION', 'request'),
};

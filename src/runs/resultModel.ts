/**
 * What the result view shows of a run, as data its page renders (the page builds its DOM from this with text
 * nodes only, so nothing a run returns is ever read as HTML): the HTTP status, the response body, the logs, the
 * portability notes and the step trace, each line with its place in the program. Pure.
 */
import type { PortabilityNote, RunResult } from '../runtime/host';
import { shortValue } from './values';

/**
 * Steps the view lists at most (the trace itself is bounded by the run: RunResult.stepsOmitted).
 * @internal
 */
export const VIEW_STEPS = 2_000;

export interface RunViewModel {
  /** The program's name (`age-check.avap`, or `chat block 2`). */
  title: string;
  /** Whether lines can be opened (the run was of a document, not of a chat block). */
  linked: boolean;
  /** One line: the request sent (`GET ?age=30`). */
  request: string;
  status: number;
  statusText: string;
  /** success (2xx/3xx), client (4xx), failure (5xx or an uncaught error). */
  tone: 'success' | 'client' | 'failure';
  durationMs: number;
  /** The response body: what addResult built. */
  body: unknown;
  /** The same, as indented JSON (the Copy button's text). */
  bodyText: string;
  /** `text`: the command and the message in one line, as the diagnostic reads (errorText). */
  error?: { line: number; command: string; message: string; code: string; text: string };
  logs: { line?: number; text: string; ok: boolean }[];
  portability: { line: number; text: string; rule: string }[];
  steps: { line: number; command: string; changes: string }[];
  /** Steps executed but not listed (beyond the trace's bound or the view's). */
  stepsHidden: number;
  /** Set while the run is going (the page shows a spinner and a Cancel button). */
  running?: boolean;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** An error's command and message in one line (`itemFromList: list index out of range`), the command once. */
export function errorText(error: { command: string; message: string }): string {
  if (!error.command || error.message.startsWith(`${error.command}:`) || error.message.startsWith(`${error.command} `))
    return error.message;
  return `${error.command}: ${error.message}`;
}

/** @internal */
export function statusText(status: number): string {
  return STATUS_TEXT[status] ?? '';
}

function logLine(entry: unknown): { line?: number; text: string; ok: boolean } {
  if (typeof entry !== 'object' || entry === null) return { text: String(entry), ok: true };
  const e = entry as { command?: unknown; line?: unknown; success?: unknown; error?: unknown };
  const ok = e.success !== false;
  const text = `${typeof e.command === 'string' ? e.command : '?'}${ok ? '' : ` — ${typeof e.error === 'string' ? e.error : 'failed'}`}`;
  return { ...(typeof e.line === 'number' ? { line: e.line } : {}), text, ok };
}

function portabilityLine(note: PortabilityNote): { line: number; text: string; rule: string } {
  return { line: note.line, rule: note.rule, text: `${note.spec}; on AVAP Lite: ${note.reference}` };
}

export interface ViewInput {
  title: string;
  linked: boolean;
  request: string;
  result: RunResult;
  durationMs: number;
}

export function runViewModel({ title, linked, request, result, durationMs }: ViewInput): RunViewModel {
  const steps = (result.steps ?? []).slice(0, VIEW_STEPS).map((step) => ({
    line: step.line,
    command: step.command,
    changes: Object.entries(step.changes)
      .map(([name, value]) => `${name} = ${shortValue(value, 80)}`)
      .join(', '),
  }));
  const recorded = result.steps?.length ?? 0;
  const tone = result.error || result.status >= 500 ? 'failure' : result.status >= 400 ? 'client' : 'success';
  return {
    title,
    linked,
    request,
    status: result.status,
    statusText: statusText(result.status),
    tone,
    durationMs,
    body: result.result,
    bodyText: JSON.stringify(result.result, null, 2),
    ...(result.error ? { error: { ...result.error, text: errorText(result.error) } } : {}),
    logs: result.logs.map(logLine),
    portability: result.portability.map(portabilityLine),
    steps,
    stepsHidden: recorded - steps.length + (result.stepsOmitted ?? 0),
  };
}

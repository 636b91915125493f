/**
 * *Add Test Case from Last Run*: a run's request and response become a case of the program's test file — the
 * request file's fields as they are written (so a fixtures file stays a file name), and as expectations the
 * status and the whole response, or the error's code when the run ended on one. The case goes in at the end of
 * `cases` without rewriting the rest of the file (its layout and comments-free JSON stay as written). Pure.
 */
import { err, ok, type Failure, type Result } from '../result';
import type { RunResult } from '../runtime/host';
import { positionAt } from './jsonTree';
import { outlineTestFile, type Place } from './outline';

/** The fields of a request file as written (`request`, `fixtures`, `sql`, `now`, `seed`), or undefined without one. */
export type RequestFields = Record<string, unknown> | undefined;

/** A name that says what the case sends and gets: `GET ?age=30 → 200`. */
export function caseName(fields: RequestFields, result: RunResult): string {
  const request = (fields?.request ?? {}) as { method?: unknown; query?: unknown; body?: unknown };
  const method = typeof request.method === 'string' ? request.method.toUpperCase() : request.body ? 'POST' : 'GET';
  const query =
    typeof request.query === 'object' && request.query !== null
      ? Object.entries(request.query as Record<string, unknown>)
          .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
          .join('&')
      : '';
  const outcome = result.error ? `${result.status} ${result.error.code}` : String(result.status);
  return `${method}${query ? ` ?${query}` : ''} → ${outcome}`;
}

/** The case a run becomes. */
export function caseFromRun(name: string, fields: RequestFields, result: RunResult): Record<string, unknown> {
  const expect: Record<string, unknown> = result.error
    ? { status: result.status, error: result.error.code }
    : { status: result.status, result: result.result, error: false };
  return { name, ...(fields ?? {}), expect };
}

export interface AddedCase {
  text: string;
  /** Where the new case starts in the new text. */
  at: Place;
  /** The name it was given (made unique in the file). */
  name: string;
}

/** `name`, or `name (2)`, `name (3)`… — the first not taken. */
function unique(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let i = 2; ; i++) if (!taken.has(`${name} (${i})`)) return `${name} (${i})`;
}

/**
 * The test file's text with `testCase` added at the end of `cases` (a new file when `text` is undefined or blank).
 * A file that cannot hold cases is left alone and the error says why.
 */
export function appendCase(
  text: string | undefined,
  testCase: Record<string, unknown>,
): Result<AddedCase, Failure<'bad-test-file'>> {
  const wanted = typeof testCase.name === 'string' ? testCase.name : 'case';
  if (text === undefined || text.trim() === '') {
    const fresh = { ...testCase, name: wanted };
    const body = JSON.stringify(fresh, null, 2).replace(/\n/g, '\n    ');
    const created = `{\n  "cases": [\n    ${body}\n  ]\n}\n`;
    return ok({ text: created, at: positionAt(created, created.indexOf('{', 1)), name: wanted });
  }
  const outline = outlineTestFile(text);
  if (!outline.ok)
    return err({
      kind: 'bad-test-file',
      message: `${outline.error.message} (line ${outline.error.at.line + 1})`,
    });
  const { cases, casesClose } = outline.value;
  const name = unique(wanted, new Set(cases.map((c) => c.name)));
  const last = cases[cases.length - 1];
  // Indent as the cases already are (or two steps in from the `cases` line), and close as the file did.
  const lineStart = (offset: number) => text.lastIndexOf('\n', offset - 1) + 1;
  const indentOf = (offset: number) => /^[ \t]*/.exec(text.slice(lineStart(offset)))?.[0] ?? '';
  const indent = last ? indentOf(last.start) : `${indentOf(casesClose)}  `;
  const body = JSON.stringify({ ...testCase, name }, null, 2).replace(/\n/g, `\n${indent}`);
  const insertAt = last ? last.end : casesClose;
  const closing = last ? '' : `\n${indentOf(casesClose)}`;
  const piece = `${last ? ',' : ''}\n${indent}${body}${closing}`;
  const joined = text.slice(0, insertAt) + piece + text.slice(insertAt);
  const startOffset = insertAt + piece.indexOf('{');
  return ok({ text: joined, at: positionAt(joined, startOffset), name });
}

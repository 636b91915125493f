/**
 * The read-only virtual document a diagnostic's `code` links to: the whole
 * trace of a document in its text form (`Line N: …`), each entry followed by
 * its rule code and what that rule finds. Pure: URI shape and text.
 */
import { renderEntry, ruleOf, type TraceEntry, type ValidationResult } from '../../parser';

export const TRACE_SCHEME = 'avap-trace';

/** Path and query of the trace URI for a source document URI (as a string). */
export function traceUriParts(sourceUri: string): { path: string; query: string } {
  const base = sourceUri.split(/[\\/]/).pop() || 'document';
  const name = decodeSafe(base.replace(/[?#].*$/, '')) || 'document';
  return { path: `/${name}.trace.txt`, query: encodeURIComponent(sourceUri) };
}

/** The source document URI a trace URI stands for. */
export function sourceUriFromTraceQuery(query: string): string {
  return decodeSafe(query);
}

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function renderTraceDocument(sourceLabel: string, result: ValidationResult | undefined): string {
  if (!result) {
    return `AVAP parser trace for ${sourceLabel}\n\nNo verdict: the document has not been validated (or the parser was unavailable).\n`;
  }
  const header = [
    `AVAP parser trace for ${sourceLabel}`,
    `Parser: ${result.parserVersion}`,
    `Verdict: ${result.valid ? 'VALID' : 'INVALID'}${result.truncated ? ' (trace truncated)' : ''}`,
    '',
  ];
  const body = result.trace.length === 0 ? 'No findings.' : result.trace.map(entryWithRule).join('\n');
  return `${header.join('\n')}\n${body}\n`;
}

function entryWithRule(entry: TraceEntry): string {
  return `${renderEntry(entry)}\n    ${entry.code}: ${ruleOf(entry.code).summary}`;
}

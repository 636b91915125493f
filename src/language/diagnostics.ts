/**
 * Parser trace entries → editor-independent diagnostic descriptions (0-based
 * positions, clamped to the document). Pure: the adapters turn them into
 * vscode.Diagnostic objects or the protocol's. A light entry (LAYER_ENTRIES):
 * the editor's diagnostics read it without the language features.
 */
import { ruleOf, type RuleCode } from '../parser/catalogue/rules';
import type { Severity, TraceEntry, TraceFix } from '../parser/types';

export const DIAGNOSTIC_SOURCE = 'avap-parser';

export interface DiagnosticSpec {
  /** 0-based line. */
  line: number;
  /** 0-based start character (UTF-16). */
  start: number;
  /** 0-based end character, exclusive. */
  end: number;
  severity: Severity;
  /** The rule's code (e.g. `unknown-command`); the diagnostic's `code`. */
  code: RuleCode;
  message: string;
  suggestion?: string;
  token: string;
  /** The entry's proven fix, in 0-based document positions; absent when it has none (or it does not fit the document). */
  fix?: DocumentFix;
}

/** An edit in 0-based document positions (UTF-16 characters, end exclusive). */
export interface DocumentEdit {
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
  newText: string;
}

export interface DocumentFix {
  title: string;
  edits: DocumentEdit[];
}

/**
 * A trace fix in document positions, or undefined when an edit falls outside
 * the document as it is (`lineLengths`): a fix is applied to the user's text,
 * so it is never clamped into some other place.
 * @internal
 */
export function documentFix(fix: TraceFix, lineLengths: readonly number[]): DocumentFix | undefined {
  const edits: DocumentEdit[] = [];
  for (const e of fix.edits) {
    const fits = (line: number, column: number) =>
      line >= 1 && line <= lineLengths.length && column >= 1 && column <= (lineLengths[line - 1] ?? 0) + 1;
    if (!fits(e.line, e.column) || !fits(e.endLine, e.endColumn)) return undefined;
    edits.push({
      line: e.line - 1,
      character: e.column - 1,
      endLine: e.endLine - 1,
      endCharacter: e.endColumn - 1,
      newText: e.newText,
    });
  }
  return edits.length > 0 ? { title: fix.title, edits } : undefined;
}

/**
 * The message shown in the editor: the parser's text, with the suggestion
 * spelled out unless the entry's rule already quotes it in its message.
 * @internal
 */
export function diagnosticMessage(entry: Pick<TraceEntry, 'code' | 'message' | 'suggestion'>): string {
  if (entry.suggestion === undefined || ruleOf(entry.code).suggestion === 'quoted') return entry.message;
  return `${entry.message} (suggestion: '${entry.suggestion}')`;
}

/**
 * The lengths of the lines a trace and its fixes name (0-based index; the
 * others stay unset and are never read), so a long document costs nothing.
 * `lineLength(i)` reads line i (0-based) of the document.
 */
export function tracedLineLengths(
  trace: readonly TraceEntry[],
  lineCount: number,
  lineLength: (line: number) => number,
): number[] {
  const lengths: number[] = new Array<number>(lineCount);
  const measure = (oneBased: number) => {
    const line = Math.min(Math.max(0, oneBased - 1), lineCount - 1);
    if (line >= 0) lengths[line] ??= lineLength(line);
  };
  for (const entry of trace) {
    measure(entry.line);
    for (const edit of entry.fix?.edits ?? []) {
      measure(edit.line);
      measure(edit.endLine);
    }
  }
  return lengths;
}

/**
 * Maps entries to ranges inside the document. `lineLengths[i]` is the length of
 * 0-based line i; it has one slot per line, and only the lines the entries name
 * are read. Out-of-range lines go to the last line; an empty range covers
 * the whole line so the squiggle is visible.
 */
export function traceToDiagnosticSpecs(trace: readonly TraceEntry[], lineLengths: readonly number[]): DiagnosticSpec[] {
  const lastLine = Math.max(0, lineLengths.length - 1);
  return trace.map((entry) => {
    const line = Math.min(Math.max(0, entry.line - 1), lastLine);
    const length = lineLengths[line] ?? 0;
    let start = Math.min(Math.max(0, entry.column - 1), length);
    let end = Math.min(Math.max(start, entry.endColumn - 1), length);
    if (end <= start) {
      // Nothing to underline at that spot (e.g. end of file): underline the line's text instead.
      const text = firstNonSpace(start, length);
      start = text.start;
      end = text.end;
    }
    const spec: DiagnosticSpec = {
      line,
      start,
      end,
      severity: entry.severity,
      code: entry.code,
      message: diagnosticMessage(entry),
      token: entry.token,
    };
    if (entry.suggestion !== undefined) spec.suggestion = entry.suggestion;
    const fix = entry.fix && documentFix(entry.fix, lineLengths);
    if (fix) spec.fix = fix;
    return spec;
  });
}

function firstNonSpace(start: number, length: number): { start: number; end: number } {
  if (length === 0) return { start: 0, end: 0 };
  if (start < length) return { start, end: length };
  return { start: 0, end: length };
}

/** A quick fix that replaces the diagnostic's range. */
export interface ReplacementFix {
  title: string;
  replacement: string;
}

/**
 * The quick fix of a diagnostic, decided by its rule: a rule whose catalogue
 * entry declares a suggestion style offers its entry's suggestion as a
 * replacement of the range (`current` is the text there now).
 */
export function replacementFix(
  spec: Pick<DiagnosticSpec, 'code' | 'suggestion'>,
  current: string,
): ReplacementFix | undefined {
  if (spec.suggestion === undefined || ruleOf(spec.code).suggestion === undefined) return undefined;
  return { title: `Replace '${current}' with '${spec.suggestion}'`, replacement: spec.suggestion };
}

/** Counts by severity, for the status bar. */
export function countSeverities(trace: readonly TraceEntry[]): { errors: number; warnings: number } {
  let errors = 0;
  let warnings = 0;
  for (const entry of trace) {
    if (entry.severity === 'error') errors++;
    else warnings++;
  }
  return { errors, warnings };
}

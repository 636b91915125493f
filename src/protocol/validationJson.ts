/**
 * The JSON shape of one validated file, shared by `cli validate --json` and the
 * REST `POST /v1/validate`: {file, valid, trace[], parserVersion, truncated};
 * each trace entry carries its rule `code` next to its category, and its
 * proven `fix` (or null). Keys in a fixed order, so the output is byte-for-byte
 * the same whichever way the trace came (in-process or decoded from the wire).
 */
import type { TraceEntry, TraceFix, ValidationResult } from '../parser';

interface TraceEntryJson {
  line: number;
  column: number;
  endColumn: number;
  severity: string;
  category: string;
  /** The rule's stable code, e.g. `unknown-command`. */
  code: string;
  message: string;
  /** Replacement text for [column, endColumn); "" when there is none. */
  suggestion: string;
  token: string;
  /** The proven repair: {title, edits: [{line, column, endLine, endColumn, newText}]}; null when there is none. */
  fix: TraceFix | null;
}

export interface ValidationJson {
  file: string;
  valid: boolean;
  trace: TraceEntryJson[];
  parserVersion: string;
  truncated: boolean;
}

function entryToJson(entry: TraceEntry): TraceEntryJson {
  return {
    line: entry.line,
    column: entry.column,
    endColumn: entry.endColumn,
    severity: entry.severity,
    category: entry.category,
    code: entry.code,
    message: entry.message,
    suggestion: entry.suggestion ?? '',
    token: entry.token,
    fix: entry.fix
      ? {
          title: entry.fix.title,
          edits: entry.fix.edits.map((e) => ({
            line: e.line,
            column: e.column,
            endLine: e.endLine,
            endColumn: e.endColumn,
            newText: e.newText,
          })),
        }
      : null,
  };
}

export function validationToJson(file: string, result: ValidationResult): ValidationJson {
  return {
    file,
    valid: result.valid,
    trace: result.trace.map(entryToJson),
    parserVersion: result.parserVersion,
    truncated: result.truncated,
  };
}

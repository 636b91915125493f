/**
 * The JSON shape of one validated file, shared by `cli validate --json` and the
 * REST `POST /v1/validate`: {file, valid, trace[], parserVersion, truncated};
 * each trace entry carries its rule `code` next to its category.
 */
import type { TraceEntry, ValidationResult } from '../parser/types';

export interface TraceEntryJson {
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
}

export interface ValidationJson {
  file: string;
  valid: boolean;
  trace: TraceEntryJson[];
  parserVersion: string;
  truncated: boolean;
}

export function entryToJson(entry: TraceEntry): TraceEntryJson {
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

import type { RuleDefinition } from './catalogue/rules';
import type { FixHint } from './fixes/candidates';
import type { TraceEntry } from './types';

/**
 * A finding of `rule` at [column, endColumn) on `line`, both 1-based (an empty
 * range is widened to one column). Code, category and severity come from the
 * rule: the one place a trace entry is made.
 */
export function traceEntry(
  rule: RuleDefinition,
  line: number,
  column: number,
  endColumn: number,
  message: string,
  token: string,
  suggestion?: string,
): TraceEntry {
  const entry: TraceEntry = {
    line,
    column,
    endColumn: Math.max(endColumn, column + 1),
    severity: rule.severity,
    category: rule.category,
    code: rule.code,
    message,
    token,
  };
  if (suggestion !== undefined && suggestion !== '') entry.suggestion = suggestion;
  return entry;
}

/**
 * Collects trace entries. Offsets are absolute positions in the source; the
 * reporter turns them into 1-based line/column using the line table.
 *
 * It keeps at most `hardLimit` entries so that a hostile input cannot make the
 * trace grow without bound; `saturated` tells the analysis it may stop early.
 */
export class Reporter {
  readonly entries: TraceEntry[] = [];
  /** Candidate fixes of kept entries, to be proven once the analysis is done (fixes/prove.ts). */
  readonly hints = new Map<TraceEntry, FixHint>();
  /** Errors seen, including those beyond the limit: validity never depends on the cap. */
  errorCount = 0;
  private overflowed = false;

  constructor(private readonly hardLimit: number) {}

  get saturated(): boolean {
    return this.overflowed;
  }

  add(entry: TraceEntry, hint?: FixHint): void {
    if (entry.severity === 'error') this.errorCount++;
    if (this.entries.length >= this.hardLimit) {
      this.overflowed = true;
      return;
    }
    this.entries.push(entry);
    if (hint) this.hints.set(entry, hint);
  }

  /** Report a finding of `rule` at [column, endColumn) on `line` (see traceEntry), with a candidate fix when there is one. */
  at(
    rule: RuleDefinition,
    line: number,
    column: number,
    endColumn: number,
    message: string,
    token: string,
    suggestion?: string,
    hint?: FixHint,
  ): void {
    this.add(traceEntry(rule, line, column, endColumn, message, token, suggestion), hint);
  }
}

/** Orders entries by position and applies the cap, keeping errors before warnings. */
export function finalizeTrace(
  entries: TraceEntry[],
  cap: number,
  overflowed: boolean,
): { trace: TraceEntry[]; truncated: boolean } {
  if (entries.length === 0 && !overflowed) return { trace: [], truncated: false };
  const byPosition = (a: TraceEntry, b: TraceEntry) => a.line - b.line || a.column - b.column;
  if (entries.length <= cap && !overflowed) {
    return { trace: [...entries].sort(byPosition), truncated: false };
  }
  const errors = entries.filter((e) => e.severity === 'error').sort(byPosition);
  const warnings = entries.filter((e) => e.severity === 'warning').sort(byPosition);
  const kept = [...errors, ...warnings].slice(0, cap).sort(byPosition);
  return { trace: kept, truncated: true };
}

import type { RuleDefinition } from './catalogue/rules';
import type { FixHint } from './fixes/candidates';
import type { Token } from './scanner';
import type { TraceEntry } from './types';

/** A finding of `rule` at [column, endColumn) on `line`, both 1-based, with a candidate fix when there is one. */
interface LineFinding {
  rule: RuleDefinition;
  line: number;
  column: number;
  endColumn: number;
  message: string;
  /** The text the finding is about, as the trace shows it. */
  token: string;
  suggestion?: string;
  hint?: FixHint;
}

/** A finding at the offsets [start, end) of the line being analysed (the analysis turns them into columns). */
export interface OffsetFinding {
  rule: RuleDefinition;
  start: number;
  end: number;
  message: string;
  token: string;
  suggestion?: string;
  hint?: FixHint;
}

/** A finding spanning the tokens `from` … `to` of the line being analysed: its token is their text. */
export interface TokenFinding {
  rule: RuleDefinition;
  from: Token;
  to: Token;
  message: string;
  suggestion?: string;
  hint?: FixHint;
}

/**
 * The trace entry of a finding (an empty range is widened to one column).
 * Code, category and severity come from the rule: the one place a trace entry
 * is made.
 */
export function traceEntry(finding: Omit<LineFinding, 'hint'>): TraceEntry {
  const { rule, line, column, endColumn, message, token, suggestion } = finding;
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
 * The words (message, suggestion, candidate fix) of some findings, filled in
 * only for those a caller shows (Reporter.describe): a group of findings
 * reported together, described in the order they were reported.
 */
export interface Describer {
  /** Fills in the words of those of its findings that are in `shown` (in position order: the trace). */
  describe(shown: readonly TraceEntry[]): void;
}

/**
 * Which of `entries` (kept entries, in the order they were reported) are in `shown` (in position order), as flags:
 * found by walking both by line when `entries` come in line order (an end of file's unknown names do), else (or
 * where many findings share a line) through a set. The set hashed every entry of the trace, on every validation
 * whose trace shows an unknown name.
 */
export function shownAmong(entries: readonly TraceEntry[], shown: readonly TraceEntry[]): Uint8Array {
  const flags = new Uint8Array(entries.length);
  let ordered = true;
  for (let i = 1; i < entries.length && ordered; i++)
    ordered = (entries[i] as TraceEntry).line >= (entries[i - 1] as TraceEntry).line;
  for (let i = 1; i < shown.length && ordered; i++)
    ordered = (shown[i] as TraceEntry).line >= (shown[i - 1] as TraceEntry).line;
  let budget = 8 * (entries.length + shown.length) + 64;
  if (ordered) {
    let p = 0;
    for (let i = 0; i < entries.length && budget > 0; i++) {
      const entry = entries[i] as TraceEntry;
      while (p < shown.length && (shown[p] as TraceEntry).line < entry.line) p++;
      for (let q = p; q < shown.length && (shown[q] as TraceEntry).line === entry.line && budget-- > 0; q++) {
        if (shown[q] === entry) {
          flags[i] = 1;
          break;
        }
      }
    }
    if (budget > 0) return flags;
  }
  const set = new Set(shown);
  for (let i = 0; i < entries.length; i++) flags[i] = set.has(entries[i] as TraceEntry) ? 1 : 0;
  return flags;
}

export interface ReporterOptions {
  /**
   * Findings may be reported without their words, left to a Describer: the caller reads only the rule, line and
   * columns of the entries it does not show (a proof compares findings by those; the trace cap chooses by them),
   * and calls `describe` with those it shows. Without it, every finding has its words when reported.
   */
  wordsWhenShown?: boolean;
  /**
   * The findings are only counted and compared by rule and line, never shown (a fix proof's re-analysis, its
   * forks): a finding may be reported without its words (message, shortened token) and without its candidate fix,
   * which would cost more to build than the rest of the finding, and no candidate is kept (each kept one was an entry
   * hashed into a map nobody read). Implies `wordsWhenShown`.
   */
  wordless?: boolean;
}

/** The hints of every wordless reporter, which keeps none (add never writes to it): a fork makes no map of its own. */
const NO_HINTS = new Map<TraceEntry, FixHint>();

/**
 * Collects trace entries. Offsets are absolute positions in the source; the
 * reporter turns them into 1-based line/column using the line table.
 *
 * It keeps at most `hardLimit` entries so that a hostile input cannot make the
 * trace grow without bound; `saturated` tells the analysis it may stop early.
 */
export class Reporter {
  readonly entries: TraceEntry[] = [];
  /** Candidate fixes of kept entries, to be proven once the analysis is done (fixes/prove.ts); none kept when wordless. */
  readonly hints: Map<TraceEntry, FixHint>;
  /** Errors seen, including those beyond the limit: validity never depends on the cap. */
  errorCount = 0;
  private overflowed = false;
  /** Findings may be reported without their words (ReporterOptions.wordsWhenShown). */
  readonly wordsWhenShown: boolean;
  /** Findings are never shown: their words may be left out (ReporterOptions.wordless). */
  readonly wordless: boolean;
  private readonly describers: Describer[] = [];

  constructor(
    private readonly hardLimit: number,
    options: ReporterOptions = {},
  ) {
    this.wordless = options.wordless === true;
    this.wordsWhenShown = options.wordsWhenShown === true || this.wordless;
    this.hints = this.wordless ? NO_HINTS : new Map<TraceEntry, FixHint>();
  }

  get saturated(): boolean {
    return this.overflowed;
  }

  /** Keeps `entry` (false when the reporter is full). */
  add(entry: TraceEntry, hint?: FixHint): boolean {
    if (entry.severity === 'error') this.errorCount++;
    if (this.entries.length >= this.hardLimit) {
      this.overflowed = true;
      return false;
    }
    this.entries.push(entry);
    if (hint && !this.wordless) this.hints.set(entry, hint);
    return true;
  }

  /** Kept findings whose words `describer` fills in when they are shown (only with `wordsWhenShown`). */
  later(describer: Describer): void {
    this.describers.push(describer);
  }

  /** Gives the findings in `shown` (kept entries, in position order: the trace) the words they were reported without. */
  describe(shown: readonly TraceEntry[]): void {
    if (this.describers.length === 0) return;
    for (const describer of this.describers) describer.describe(shown);
    this.describers.length = 0;
  }

  /** Reports a finding (see traceEntry), with its candidate fix when there is one. */
  at(finding: LineFinding): void {
    this.add(traceEntry(finding), finding.hint);
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
  // Errors alone (sorted already) when they fill the cap.
  const kept = errors.length >= cap ? errors.slice(0, cap) : [...errors, ...warnings].slice(0, cap).sort(byPosition);
  return { trace: kept, truncated: true };
}

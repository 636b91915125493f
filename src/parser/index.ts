/**
 * The AVAP parser: an editor-free library that says whether AVAP code is valid
 * and, when it is not, where and why, line by line. It never throws.
 */
import { Analyzer } from './analyzer';
import { binaryCheck, binaryCheckIn, decodeInput, hasNulInSample } from './guard';
import { Rule, ruleOf } from './catalogue/rules';
import { finalizeTrace, Reporter, traceEntry } from './reporter';
import { proveFixes } from './fixes/prove';
import { RESYNC_MIN_LENGTH, ResyncProver } from './fixes/resync';
import { addLateHints } from './fixes/late';
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_FIX_PROOFS,
  DEFAULT_MAX_TRACE_ENTRIES,
  type ParseOptions,
  type TraceEntry,
  type ValidationResult,
} from './types';
import { PARSER_VERSION } from './version';

export * from './types';
export { PARSER_VERSION } from './version';
export { renderEntry, renderTrace } from './render';
export { guardInput, oversizeEntry } from './guard';
export { closestName } from './suggest';
export { LineAnalysis } from './stream';
export * as catalogue from './catalogue';
export { /** @internal */ applyTextEdits, repairWithFixes, type RepairOutcome, type RepairStop } from './fixes/repair';
export { fixAll, /** @internal */ hasAutoFixes, /** @internal */ minimalEdit, type FixAllResult } from './fixes/fixAll';
export type { OffsetEdit } from './fixes/text';
export {
  /** @internal */ isRuleCode,
  Rule,
  /** @internal */ RULE_CODES,
  ruleOf,
  /** @internal */ RULES,
  type RuleCode,
} from './catalogue/rules';

const isSemantic = (entry: TraceEntry): boolean => ruleOf(entry.code).semantic === true;

/** Every finding of a fixed program, for a proof; undefined when there were too many to compare. */
function reparse(text: string, limit: number): readonly TraceEntry[] | undefined {
  // A proof compares findings by rule and line only: their words are never needed.
  const reporter = new Reporter(limit, { wordless: true });
  new Analyzer(text, reporter).run();
  return reporter.saturated ? undefined : reporter.entries;
}

/** The result of an input the guard refused. */
function refused(entry: TraceEntry): ValidationResult {
  return { valid: false, trace: [entry], truncated: false, parserVersion: PARSER_VERSION };
}

/**
 * Validates AVAP source text (or UTF-8 bytes). Always returns a result. Entries
 * with a mechanical repair carry it as `fix` once the parser has proven it on
 * the re-parsed program (fixes/prove.ts).
 */
export function validateAvap(source: string | Uint8Array, options: ParseOptions = {}): ValidationResult {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const cap = Math.max(1, options.maxTraceEntries ?? DEFAULT_MAX_TRACE_ENTRIES);
  try {
    // The binary check runs up front only for a NUL (nearly every binary file has one), else after the analysis,
    // over the lines the scanner read: the plain reader read every character of the others and found no control
    // character (analysis/plainTokens.ts). An analysis stopped early read no line after it: the whole check then.
    const decoded = decodeInput(source, maxBytes);
    const guarded = decoded.ok && hasNulInSample(decoded.value) ? binaryCheck(decoded.value) : decoded;
    if (!guarded.ok) return refused(guarded.error);
    const limit = Math.max(cap * 4, 1000);
    // Findings the trace cap leaves out are never read but for their rule and line: only those shown get words.
    const reporter = new Reporter(limit, { wordsWhenShown: true });
    const analyzer = new Analyzer(guarded.value, reporter);
    analyzer.run();
    const binary = analyzer.stoppedEarly ? binaryCheck(guarded.value) : binaryCheckIn(guarded.value, analyzer.scanned);
    if (!binary.ok) return refused(binary.error);
    const { trace, truncated } = finalizeTrace(reporter.entries, cap, reporter.saturated);
    reporter.describe(trace);
    // Invalid code gets its fixes proven; valid code only those of its semantic warnings (a run-time trap
    // whose fix is the point), so valid code without one — nearly all of it — proves nothing.
    const valid = reporter.errorCount === 0;
    const proving = valid ? trace.filter(isSemantic) : trace;
    if (proving.length > 0 && !reporter.saturated) {
      // Only the trace's entries are proven: the others need no candidate.
      if (!valid) addLateHints({ targets: trace, entries: reporter.entries, hints: reporter.hints });
      proveFixes({
        text: guarded.value,
        all: reporter.entries,
        trace: proving,
        hints: reporter.hints,
        maxProofs: Math.max(0, options.maxFixProofs ?? DEFAULT_MAX_FIX_PROOFS),
        reparse: (text) => reparse(text, limit),
        resync:
          guarded.value.length < RESYNC_MIN_LENGTH
            ? undefined
            : new ResyncProver(guarded.value, reporter.entries, limit, analyzer.state.functions),
        only: options.proveOnly,
        partial: options.partial,
      });
    }
    return { valid: reporter.errorCount === 0, trace, truncated, parserVersion: PARSER_VERSION };
  } catch (err) {
    // Defence in depth: the analysis is written not to throw (property tests check
    // it), but a library that promises a result must keep that promise.
    const detail = err instanceof Error ? err.message : String(err);
    return {
      valid: false,
      trace: [
        traceEntry({
          rule: Rule.InternalError,
          line: 1,
          column: 1,
          endColumn: 2,
          message: `internal parser error (${detail}) — please report this input`,
          token: '',
        }),
      ],
      truncated: false,
      parserVersion: PARSER_VERSION,
    };
  }
}

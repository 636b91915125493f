/**
 * The AVAP parser: an editor-free library that says whether AVAP code is valid
 * and, when it is not, where and why, line by line. It never throws.
 */
import { Analyzer } from './analyzer';
import { guardInput } from './guard';
import { Rule } from './catalogue/rules';
import { finalizeTrace, Reporter, traceEntry } from './reporter';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_TRACE_ENTRIES, type ParseOptions, type ValidationResult } from './types';
import { PARSER_VERSION } from './version';

export * from './types';
export { PARSER_VERSION, RULES_VERSION } from './version';
export { renderEntry, renderTrace, type RenderOptions } from './render';
export { guardInput, oversizeEntry, type GuardOutcome } from './guard';
export * as catalogue from './catalogue';
export {
  isRuleCode, Rule, RULE_CODES, ruleOf, RULES, UNSPECIFIED_RULE,
  type RuleCode, type RuleDefinition, type RuleName, type RuleSpec, type SuggestionStyle,
} from './catalogue/rules';

/** Validates AVAP source text (or UTF-8 bytes). Always returns a result. */
export function validateAvap(source: string | Uint8Array, options: ParseOptions = {}): ValidationResult {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const cap = Math.max(1, options.maxTraceEntries ?? DEFAULT_MAX_TRACE_ENTRIES);
  try {
    const guarded = guardInput(source, maxBytes);
    if (!guarded.ok) {
      return { valid: false, trace: [guarded.entry], truncated: false, parserVersion: PARSER_VERSION };
    }
    const reporter = new Reporter(Math.max(cap * 4, 1000));
    new Analyzer(guarded.text, reporter).run();
    const { trace, truncated } = finalizeTrace(reporter.entries, cap, reporter.saturated);
    return { valid: reporter.errorCount === 0, trace, truncated, parserVersion: PARSER_VERSION };
  } catch (err) {
    // Defence in depth: the analysis is written not to throw (property tests check
    // it), but a library that promises a result must keep that promise.
    const detail = err instanceof Error ? err.message : String(err);
    return {
      valid: false,
      trace: [traceEntry(Rule.InternalError, 1, 1, 2, `internal parser error (${detail}) — please report this input`, '')],
      truncated: false,
      parserVersion: PARSER_VERSION,
    };
  }
}

/**
 * Fixes built after the analysis, for findings the analysis reports
 * without a candidate: each needs more of the program than the finding's line
 * — where a loop's body ends, which block an `end()` closed, whether a name is
 * read elsewhere — so it is read from the text (fixes/view.ts) only when a
 * proof asks for it. A candidate is still only a guess: prove.ts offers it
 * when the finding is gone and no finding appeared, as every fix.
 */
import type { RuleCode } from '../catalogue/rules';
import type { TraceEntry } from '../types';
import { materialize, type FixHint } from './candidates';
import { meaningFix } from './meaning';
import { earlyEndFix, strayCloserFix } from './closers';
import { foreachFix, forEachMethodFix, forInFix, startLoopListFix } from './listLoops';
import { openCallFix, openStringFix } from './openEnds';
import { outputCallFix, isOutputCall } from './output';
import { closingWordFix, keyAssignmentFix, stringLineFix, ternaryFix } from './shapes';
import { whileFix } from './whileLoops';

type Builder = (entry: TraceEntry, entries: readonly TraceEntry[]) => FixHint | undefined;
/** The first of the builders' candidates that exists. */
const either =
  (...builders: ((entry: TraceEntry) => FixHint)[]): Builder =>
  (entry) => {
    const hints = builders.map((b) => b(entry));
    return (ctx) => {
      for (const hint of hints) {
        const candidate = materialize(hint, ctx);
        if (candidate) return candidate;
      }
      return undefined;
    };
  };

/** A foreign keyword's builder, by the keyword (a Map: a finding's word must not find Object.prototype's members). */
const KEYWORDS: ReadonlyMap<string, Builder> = new Map<string, Builder>([
  ['while', whileFix],
  ['foreach', foreachFix],
  ['for', forInFix],
  ['print', outputCallFix],
  ['println', outputCallFix],
  ['puts', outputCallFix],
]);

const BUILDERS: Partial<Record<RuleCode, Builder>> = {
  'unmatched-closer': strayCloserFix,
  'branch-outside-block': earlyEndFix,
  // With the wrong number of arguments on its line, the string swallowed some: where it ends is a guess.
  'unterminated-string': (entry, entries) =>
    entries.some((e) => e.line === entry.line && e.code === 'arity') ? undefined : openStringFix(entry),
  'unclosed-call': openCallFix,
  'foreign-keyword': (entry, entries) => KEYWORDS.get(entry.token.toLowerCase())?.(entry, entries),
  'foreign-loop': forInFix,
  'foreign-call': (entry) => (isOutputCall(entry.token) ? outputCallFix(entry) : meaningFix(entry)),
  'foreign-method': (entry) => (entry.token.endsWith('forEach') ? forEachMethodFix(entry) : undefined),
  arity: (entry) => (entry.token.startsWith('startLoop') ? startLoopListFix(entry) : undefined),
  // A name with a near catalogue name has its suggestion (or the catalogue's rewrite) as its fix.
  'unknown-command': (entry) => (entry.suggestion === undefined ? meaningFix(entry) : undefined),
  'unknown-function': (entry) => (entry.suggestion === undefined ? meaningFix(entry) : undefined),
  'not-a-statement': either(stringLineFix, closingWordFix),
  'invalid-assignment-target': keyAssignmentFix,
  'foreign-operator': (entry) => (entry.token === '?' ? ternaryFix(entry) : undefined),
};

/** What addLateHints reads and writes. */
interface LateHintInput {
  /** The findings that may get a candidate (those that will be proven). */
  targets: readonly TraceEntry[];
  /** Every finding of the program (some builders look at the others on a line). */
  entries: readonly TraceEntry[];
  hints: Map<TraceEntry, FixHint>;
}

/** Adds a candidate to every error finding of `targets` that has none and whose rule has a builder here. */
export function addLateHints(input: LateHintInput): void {
  const { targets, entries, hints } = input;
  for (const entry of targets) {
    if (entry.severity !== 'error' || hints.has(entry)) continue;
    const builder = BUILDERS[entry.code];
    const hint = builder?.(entry, entries);
    if (hint) hints.set(entry, hint);
  }
}

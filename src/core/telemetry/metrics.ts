/**
 * Metrics over a telemetry log. Pure. Validation metrics count CODE_GENERATION
 * generations whose first attempt got a parser verdict ("validated
 * generations"); the status counts cover every CODE_GENERATION generation.
 *
 * - firstAttemptInvalidRate: validated generations whose attempt 1 was INVALID.
 * - multiAttemptConvergenceRate: of those first-attempt-invalid generations,
 *   the share whose last attempt was VALID.
 * - meanAttemptsAmongConverged: mean attempts of generations that ended VALID.
 * - nonConvergenceRate (separate): validated generations that ended
 *   INVALID_UNRESOLVED.
 * - rejectedValues: each rejected value (rule code + received token, e.g. a
 *   hallucinated command) with its absolute count over attempts and the
 *   number of distinct generations it appeared in, and how those generations
 *   ended (D4's convergence outcome per rejected value: converged, unresolved,
 *   or no verdict) with the share that converged. Events written before rule
 *   codes existed key on their E-code instead.
 * - byRule: blocking errors per rule code over all attempts, most frequent
 *   first (the same fallback to the E-code).
 * - perCommand: for each name the code called, attempts that used it, attempts
 *   in which it was rejected, and the normalized rate rejected / used.
 * - statusCounts: final validation_status per CODE_GENERATION generation
 *   that ended with an answer.
 * - failed: CODE_GENERATION generations that failed or were cancelled before
 *   a verdict (their final event has no validation_status; older logs wrote
 *   `""` with an error_code). They are never counted as valid.
 * - trend: the first-attempt invalid rate per UTC day (of the generation's
 *   first attempt), oldest first — drift of the prompt, the model or the parser.
 * - needs_review: the first-attempt invalid rate is above 15 % (D4's review
 *   threshold).
 */
import type { ValidationStatus } from '../types';
import type { AttemptEvent, TelemetryErrorRecord } from './events';

/** How the generations that rejected a value ended. */
interface RejectionOutcomes {
  /** The last attempt was valid. */
  converged: number;
  /** The last attempt was still invalid (INVALID_UNRESOLVED). */
  unresolved: number;
  /** No verdict on the last attempt (parser unavailable, cancelled, the retry not generated). */
  undetermined: number;
}

interface RejectedValue {
  /** The E-code. */
  code: string;
  /** The parser rule's code, when the events carried it. */
  rule?: string;
  value: string;
  occurrences: number;
  generations: number;
  outcomes: RejectionOutcomes;
  /** converged / generations: how often the run that rejected the value still reached valid code. */
  convergenceRate: number;
}

/** The first-attempt invalid rate of one UTC day. */
interface TrendPoint {
  /** YYYY-MM-DD (UTC) of the generations' first attempts. */
  day: string;
  validatedGenerations: number;
  firstAttemptInvalid: number;
  firstAttemptInvalidRate: number | null;
}

/** D4 (docs/design.md): an ontology (here: the prompt, the model, the catalogue) with more than 15 % first-attempt invalid needs review. */
export const REVIEW_THRESHOLD = 0.15;

interface CommandRate {
  command: string;
  usedInAttempts: number;
  rejectedInAttempts: number;
  rate: number;
}

export interface Metrics {
  events: number;
  skippedLines: number;
  generations: number;
  byQueryType: Record<string, number>;
  codeGenerations: number;
  validatedGenerations: number;
  firstAttemptInvalid: number;
  firstAttemptInvalidRate: number | null;
  convergedAfterRetry: number;
  multiAttemptConvergenceRate: number | null;
  converged: number;
  meanAttemptsAmongConverged: number | null;
  nonConverged: number;
  nonConvergenceRate: number | null;
  rejectedValues: RejectedValue[];
  /** Blocking errors per rule code (E-code for events without one): [code, count], most frequent first. */
  byRule: Array<[string, number]>;
  perCommand: CommandRate[];
  statusCounts: Record<ValidationStatus, number>;
  trend: TrendPoint[];
  /** The first-attempt invalid rate is above REVIEW_THRESHOLD. */
  needs_review: boolean;
  reviewThreshold: number;
  /** Code generations that failed or were cancelled before a verdict. */
  failed: number;
}

/** A final event without a verdict: the run failed or was cancelled (older logs wrote `""` with an error code). */
function failedRun(final: AttemptEvent): boolean {
  if (final.validation_status === undefined) return true;
  return final.error_code !== undefined && final.validation_status === '' && final.stop_reason !== 'judge-retry-failed';
}

const ratio = (n: number, d: number): number | null => (d === 0 ? null : n / d);

/** What identifies the kind of a rejection: the rule code, or the E-code of an error recorded without one. */
const kindOf = (error: TelemetryErrorRecord): string => error.rule ?? error.code;

function mentions(received: string, command: string): boolean {
  return received === command || received.startsWith(`${command}(`) || received.startsWith(`${command} (`);
}

export function computeMetrics(events: readonly AttemptEvent[], skippedLines = 0): Metrics {
  const byGeneration = new Map<string, AttemptEvent[]>();
  for (const e of events) {
    const list = byGeneration.get(e.generation_id) ?? [];
    list.push(e);
    byGeneration.set(e.generation_id, list);
  }
  const byQueryType: Record<string, number> = {};
  const statusCounts: Record<ValidationStatus, number> = { '': 0, INVALID_UNRESOLVED: 0, PARSER_UNAVAILABLE: 0 };
  let codeGenerations = 0;
  let validated = 0;
  let firstInvalid = 0;
  let convergedAfterRetry = 0;
  let converged = 0;
  let convergedAttempts = 0;
  let nonConverged = 0;
  let failed = 0;
  const rejected = new Map<
    string,
    { code: string; rule?: string; value: string; occurrences: number; generations: Set<string> }
  >();
  const byRule = new Map<string, number>();
  const commands = new Map<string, { used: number; rejected: number }>();
  const endings = new Map<string, keyof RejectionOutcomes>();
  const days = new Map<string, { validated: number; invalid: number }>();

  for (const [id, list] of byGeneration) {
    const attempts = [...list].sort((a, b) => a.attempt - b.attempt);
    const first = attempts[0] as AttemptEvent;
    // A generation has at least one attempt.
    const last = (attempts.find((a) => a.final) ?? attempts[attempts.length - 1]) as AttemptEvent;
    byQueryType[first.query_type] = (byQueryType[first.query_type] ?? 0) + 1;
    if (first.query_type !== 'CODE_GENERATION') continue;
    codeGenerations += 1;
    if (failedRun(last)) failed += 1;
    else if (last.validation_status !== undefined) statusCounts[last.validation_status] += 1;
    endings.set(id, ending(last));

    for (const attempt of attempts) {
      const blocking = attempt.errors.filter((e) => e.severity === 'error');
      for (const error of blocking) {
        const kind = kindOf(error);
        byRule.set(kind, (byRule.get(kind) ?? 0) + 1);
        const key = `${kind}\u0000${error.received}`;
        const entry = rejected.get(key) ?? {
          code: error.code,
          ...(error.rule ? { rule: error.rule } : {}),
          value: error.received,
          occurrences: 0,
          generations: new Set<string>(),
        };
        entry.occurrences += 1;
        entry.generations.add(id);
        rejected.set(key, entry);
      }
      for (const command of attempt.commands ?? []) {
        const entry = commands.get(command) ?? { used: 0, rejected: 0 };
        entry.used += 1;
        if (blocking.some((e) => mentions(e.received, command))) entry.rejected += 1;
        commands.set(command, entry);
      }
    }

    if (first.verdict !== 'valid' && first.verdict !== 'invalid') continue;
    validated += 1;
    const day = days.get(dayOf(first.timestamp)) ?? { validated: 0, invalid: 0 };
    day.validated += 1;
    if (first.verdict === 'invalid') day.invalid += 1;
    days.set(dayOf(first.timestamp), day);
    if (last.verdict === 'valid') {
      converged += 1;
      convergedAttempts += last.attempt;
    }
    if (first.verdict === 'invalid') {
      firstInvalid += 1;
      if (last.verdict === 'valid' && last.attempt > 1) convergedAfterRetry += 1;
    }
    if (last.validation_status === 'INVALID_UNRESOLVED') nonConverged += 1;
  }

  return {
    events: events.length,
    skippedLines,
    generations: byGeneration.size,
    byQueryType,
    codeGenerations,
    validatedGenerations: validated,
    firstAttemptInvalid: firstInvalid,
    firstAttemptInvalidRate: ratio(firstInvalid, validated),
    convergedAfterRetry,
    multiAttemptConvergenceRate: ratio(convergedAfterRetry, firstInvalid),
    converged,
    meanAttemptsAmongConverged: ratio(convergedAttempts, converged),
    nonConverged,
    nonConvergenceRate: ratio(nonConverged, validated),
    rejectedValues: [...rejected.values()]
      .map((r) => {
        const outcomes: RejectionOutcomes = { converged: 0, unresolved: 0, undetermined: 0 };
        for (const id of r.generations) outcomes[endings.get(id) ?? 'undetermined'] += 1;
        return {
          code: r.code,
          ...(r.rule ? { rule: r.rule } : {}),
          value: r.value,
          occurrences: r.occurrences,
          generations: r.generations.size,
          outcomes,
          convergenceRate: outcomes.converged / r.generations.size,
        };
      })
      .sort((a, b) => b.occurrences - a.occurrences || b.generations - a.generations || a.value.localeCompare(b.value)),
    byRule: [...byRule.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
    perCommand: [...commands.entries()]
      .map(([command, c]) => ({
        command,
        usedInAttempts: c.used,
        rejectedInAttempts: c.rejected,
        rate: c.used ? c.rejected / c.used : 0,
      }))
      .sort((a, b) => b.rate - a.rate || b.usedInAttempts - a.usedInAttempts || a.command.localeCompare(b.command)),
    statusCounts,
    failed,
    trend: [...days.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([day, d]) => ({
        day,
        validatedGenerations: d.validated,
        firstAttemptInvalid: d.invalid,
        firstAttemptInvalidRate: ratio(d.invalid, d.validated),
      })),
    needs_review: needsReview(ratio(firstInvalid, validated)),
    reviewThreshold: REVIEW_THRESHOLD,
  };
}

/** True when a first-attempt invalid rate is above the review threshold (undefined rates never are). */
export function needsReview(firstAttemptInvalidRate: number | null): boolean {
  return firstAttemptInvalidRate !== null && firstAttemptInvalidRate > REVIEW_THRESHOLD;
}

/** How a generation ended, for the outcome of the values it rejected. */
function ending(last: AttemptEvent): keyof RejectionOutcomes {
  if (last.verdict === 'valid') return 'converged';
  if (last.verdict === 'invalid' && last.validation_status === 'INVALID_UNRESOLVED') return 'unresolved';
  return 'undetermined';
}

/** The UTC day of an ISO timestamp; 'unknown' when it cannot be read. */
function dayOf(timestamp: string): string {
  const time = Date.parse(timestamp);
  return Number.isNaN(time) ? 'unknown' : new Date(time).toISOString().slice(0, 10);
}

const pct = (value: number | null) => (value === null ? 'n/a' : `${(value * 100).toFixed(1)} %`);

/** The human report of `metrics`. */
export function renderMetrics(m: Metrics, source: string): string {
  const lines: string[] = [];
  lines.push(
    `Telemetry: ${source} — ${m.events} events, ${m.generations} generations${m.skippedLines ? `, ${m.skippedLines} unreadable line(s) skipped` : ''}`,
  );
  lines.push(
    `Query types: ${
      Object.entries(m.byQueryType)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'none'
    }`,
  );
  lines.push('');
  lines.push(`Code generations: ${m.codeGenerations} (validated: ${m.validatedGenerations})`);
  lines.push(
    `  first-attempt invalid rate     ${pct(m.firstAttemptInvalidRate)}  (${m.firstAttemptInvalid}/${m.validatedGenerations})`,
  );
  lines.push(
    `  multi-attempt convergence rate ${pct(m.multiAttemptConvergenceRate)}  (${m.convergedAfterRetry}/${m.firstAttemptInvalid})`,
  );
  lines.push(
    `  mean attempts among converged  ${m.meanAttemptsAmongConverged === null ? 'n/a' : m.meanAttemptsAmongConverged.toFixed(2)}  (${m.converged} converged)`,
  );
  lines.push(
    `  non-convergence rate           ${pct(m.nonConvergenceRate)}  (${m.nonConverged}/${m.validatedGenerations})`,
  );
  if (m.needs_review) {
    lines.push(
      `  needs review: the first-attempt invalid rate is above ${pct(m.reviewThreshold)} — look at the rejected values and the prompt, model and catalogue`,
    );
  }
  lines.push('');
  lines.push('First-attempt invalid rate per day (UTC):');
  if (!m.trend.length) lines.push('  none');
  for (const t of m.trend)
    lines.push(
      `  ${t.day}  ${pct(t.firstAttemptInvalidRate).padStart(8)}  (${t.firstAttemptInvalid}/${t.validatedGenerations})`,
    );
  lines.push('');
  lines.push('Final status:');
  lines.push(`  "" (valid)          ${m.statusCounts['']}`);
  lines.push(`  INVALID_UNRESOLVED  ${m.statusCounts.INVALID_UNRESOLVED}`);
  lines.push(`  PARSER_UNAVAILABLE  ${m.statusCounts.PARSER_UNAVAILABLE}`);
  lines.push(`  failed / cancelled  ${m.failed}  (no answer, nothing validated)`);
  lines.push('');
  lines.push('Rejected values (occurrences / generations; how those generations ended):');
  if (!m.rejectedValues.length) lines.push('  none');
  for (const r of m.rejectedValues.slice(0, 20)) {
    const o = r.outcomes;
    lines.push(
      `  ${r.code} ${r.value.padEnd(28)} ${String(r.occurrences).padStart(4)} / ${r.generations}   converged ${o.converged}/${r.generations} (${pct(r.convergenceRate)}), unresolved ${o.unresolved}${o.undetermined ? `, no verdict ${o.undetermined}` : ''}${r.rule ? `  ${r.rule}` : ''}`,
    );
  }
  lines.push('');
  lines.push('Blocking errors per rule:');
  if (!m.byRule.length) lines.push('  none');
  for (const [rule, count] of m.byRule.slice(0, 20)) lines.push(`  ${rule.padEnd(32)} ${String(count).padStart(4)}`);
  lines.push('');
  lines.push('Rejection rate per command (rejected / used attempts):');
  const rejectedCommands = m.perCommand.filter((c) => c.rejectedInAttempts > 0);
  if (!rejectedCommands.length) lines.push('  none');
  for (const c of rejectedCommands.slice(0, 20)) {
    lines.push(`  ${c.command.padEnd(28)} ${pct(c.rate).padStart(8)}  (${c.rejectedInAttempts}/${c.usedInAttempts})`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `export [filters] [--features] [--mark [--batch ID]] [--out FILE] SIGNALS_FILE`
 * Writes the training signals of the store as JSON lines (feedback, outcome,
 * used_for_training, training_batch_id and the versioned reward folded in)
 * for a training pipeline.
 */
import { randomUUID } from 'node:crypto';
import { access, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  OUTCOMES,
  REWARD_VERSION,
  SIGNAL_TYPES,
  SignalStore,
  THUMBS,
  exportLine,
  selectSignals,
  type ExportFilter,
  type SignalType,
} from '../../signals';
import { EXIT, UsageError, type CliCommand, type CliIO } from '../command';

const USAGE = `Usage: node dist/cli.js export [options] [SIGNALS_FILE]
  Exports training signals as JSON lines (one folded signal per line) to standard output.
  SIGNALS_FILE       the signals store (default: $AVAP_SIGNALS_FILE)
  --out FILE         write to FILE instead of standard output
  --unused           only signals not yet used for training
  --type T[,T…]      only these signal types (${SIGNAL_TYPES.join(', ')})
  --feedback F       up | down | any (has feedback) | none (has none)
  --outcome O        ${OUTCOMES.join(' | ')} | any | none
  --min-score X      automated composite ≥ X (0–1); signals without a score are left out
  --max-score X      automated composite < X (0–1); signals without a score are left out
  --since ISO        created at or after this time (e.g. 2026-01-31 or 2026-01-31T10:00:00Z)
  --features         add the quality feature vector ("features") to each line
  --mark             append a training record: the exported signals become used_for_training, in one
                     training batch (its id on stderr; the exported lines carry it as training_batch_id)
  --batch ID         the id of that training batch (with --mark; default a new UUID)
  --label NAME       label of that training record (with --mark)
Each line carries computed_reward (reward_version ${REWARD_VERSION}: the weighted mean of the automated score, the
human feedback and the outcome that are known — see the README), reward_components and reward_computed_at.
Exit codes: 0 exported (possibly nothing), 2 usage error or unreadable store.`;

function score(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1)
    throw new UsageError(`${name} must be a number between 0 and 1, got '${raw}'`);
  return value;
}

function oneOf<T extends string>(name: string, raw: string | undefined, allowed: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(raw))
    throw new UsageError(`${name} must be one of ${allowed.join(', ')}, got '${raw}'`);
  return raw as T;
}

function parseFilter(values: Record<string, string | boolean | undefined>): ExportFilter {
  const filter: ExportFilter = {};
  if (values.unused) filter.unused = true;
  if (typeof values.type === 'string') {
    const types = values.type
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    for (const t of types) oneOf('--type', t, SIGNAL_TYPES);
    filter.types = types as SignalType[];
  }
  const feedback = oneOf('--feedback', values.feedback as string | undefined, [...THUMBS, 'any', 'none'] as const);
  if (feedback) filter.feedback = feedback;
  const outcome = oneOf('--outcome', values.outcome as string | undefined, [...OUTCOMES, 'any', 'none'] as const);
  if (outcome) filter.outcome = outcome;
  const min = score('--min-score', values['min-score'] as string | undefined);
  if (min !== undefined) filter.minScore = min;
  const max = score('--max-score', values['max-score'] as string | undefined);
  if (max !== undefined) filter.maxScore = max;
  if (typeof values.since === 'string') {
    const time = Date.parse(values.since);
    if (Number.isNaN(time)) throw new UsageError(`--since must be an ISO date or time, got '${values.since}'`);
    filter.since = new Date(time).toISOString();
  }
  return filter;
}

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      out: { type: 'string' },
      unused: { type: 'boolean' },
      type: { type: 'string' },
      feedback: { type: 'string' },
      outcome: { type: 'string' },
      'min-score': { type: 'string' },
      'max-score': { type: 'string' },
      since: { type: 'string' },
      features: { type: 'boolean' },
      mark: { type: 'boolean' },
      batch: { type: 'string' },
      label: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length > 1) throw new UsageError('give one signals file');
  const file = positionals[0] ?? io.env.AVAP_SIGNALS_FILE ?? '';
  if (!file) throw new UsageError('no signals file given (argument or $AVAP_SIGNALS_FILE)');
  if (values.label !== undefined && !values.mark) throw new UsageError('--label goes with --mark');
  if (values.batch !== undefined && !values.mark) throw new UsageError('--batch goes with --mark');
  if (values.batch !== undefined && !/^[^\s]{1,200}$/.test(values.batch))
    throw new UsageError(`--batch must be 1 to 200 characters without spaces, got '${values.batch}'`);
  const batch = values.mark ? (values.batch ?? randomUUID()) : undefined;
  const filter = parseFilter(values);

  try {
    await access(file);
  } catch (err) {
    io.stderr(`avap export: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
    return EXIT.usage;
  }
  const store = new SignalStore(file);
  const read = await store.read();
  if (!read.ok) {
    io.stderr(`avap export: ${read.error.message}\n`);
    return EXIT.usage;
  }
  const selected = selectSignals(read.value.signals, filter);
  // With --mark the lines are the batch: they say so (the store gets the same facts once they are written).
  const lines =
    batch === undefined ? selected : selected.map((s) => ({ ...s, used_for_training: true, training_batch_id: batch }));
  const text =
    lines.map((s) => JSON.stringify(exportLine(s, values.features ?? false))).join('\n') + (lines.length ? '\n' : '');
  if (values.out) {
    try {
      await writeFile(values.out, text);
    } catch (err) {
      io.stderr(
        `avap export: cannot write ${values.out}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`,
      );
      return EXIT.usage;
    }
  } else {
    io.stdout(text);
  }
  const { skipped, tornTail, orphans } = read.value;
  const notes = [
    skipped.length
      ? `${skipped.length} malformed line${skipped.length === 1 ? '' : 's'} skipped (line ${skipped.map((s) => s.line).join(', ')})`
      : '',
    tornTail ? 'a torn last line skipped' : '',
    orphans ? `${orphans} record${orphans === 1 ? '' : 's'} about unknown signals ignored` : '',
  ].filter(Boolean);
  io.stderr(
    `avap export: ${selected.length} of ${read.value.signals.length} signals exported${notes.length ? `; ${notes.join('; ')}` : ''}\n`,
  );
  if (values.mark && selected.length) {
    const marked = await store.markUsedForTraining(
      selected.map((s) => s.id),
      values.label,
      batch,
    );
    if (!marked.ok) {
      io.stderr(`avap export: ${marked.error.message}\n`);
      return EXIT.usage;
    }
    io.stderr(`avap export: marked ${selected.length} signals as used for training (batch ${batch})\n`);
  }
  return EXIT.ok;
}

export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'export training signals as JSON lines for a training pipeline',
  usage: USAGE,
  run,
};

/**
 * The append-only JSONL store of training signals.
 *
 * - Every record is one line, written with a single append; nothing is ever
 *   rewritten. Appends from one store are serialised, so lines never interleave.
 * - A line cut by a crash (the last line without its newline) is skipped on
 *   read, not fatal; the next append starts on a fresh line so the cut line
 *   never swallows a good record (the shared writer, src/jsonl). Malformed
 *   lines elsewhere are skipped and counted, with their line numbers.
 * - Failures are data: every call resolves the one Result type (src/result)
 *   instead of throwing — a typed `kind`, the system error `code` when there
 *   is one, a `message` for logs; `health()` says whether the store can be
 *   written now.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { JsonlAppendLog, type AppendResult } from '../jsonl';
import { err, ok, type Failure, type Result } from '../result';
import { computeReward, THUMBS_SCORE, type Reward } from './reward';
import {
  SIGNALS_SCHEMA_VERSION,
  StoreRecordSchema,
  type FeedbackRecord,
  type Outcome,
  type OutcomeRecord,
  type SignalRecord,
  type StoreRecord,
  type Thumbs,
  type TrainingRecord,
  type TrainingSignal,
} from './schema';

/**
 * Why the store failed: a record it could not write as JSON, a file it could not write, or one it could not read.
 * `code` is the system error code (`ENOSPC`, `EACCES`…) when there is one.
 */
interface StoreFailure extends Failure<'invalid-record' | 'unwritable' | 'unreadable'> {
  code?: string;
}
export type StoreResult<T> = Result<T, StoreFailure>;

export interface ReadReport {
  signals: TrainingSignal[];
  /** Lines that are not valid records (1-based line numbers). */
  skipped: { line: number; reason: string }[];
  /** The last line had no newline and could not be read (a torn write). */
  tornTail: boolean;
  /** Feedback/outcome/training records about ids the file has no signal for. */
  orphans: number;
}

export type NewSignal = Omit<SignalRecord, 'record' | 'schema_version' | 'id' | 'created_at'> & {
  id?: string;
  created_at?: string;
};

export interface SignalStoreOptions {
  /** Injectable time (tests). */
  now?: () => Date;
  /** Receives a line when a torn last line is found (it is then left behind a fresh line). */
  warn?: (line: string) => void;
}

type Folding = Omit<TrainingSignal, keyof Reward>;

function fold(records: readonly { record: StoreRecord }[]): { signals: TrainingSignal[]; orphans: number } {
  const byId = new Map<string, Folding>();
  let orphans = 0;
  for (const { record } of records) {
    if (record.record === 'signal') {
      const { record: _kind, ...rest } = record;
      byId.set(record.id, {
        ...rest,
        feedback: null,
        outcome: null,
        used_for_training: false,
        training_batch_id: null,
        updated_at: record.created_at,
      });
      continue;
    }
    const ids = record.record === 'training' ? record.signal_ids : [record.signal_id];
    for (const id of ids) {
      const signal = byId.get(id);
      if (!signal) {
        orphans += 1;
        continue;
      }
      signal.updated_at = record.at;
      if (record.record === 'feedback') {
        signal.feedback = {
          thumbs: record.thumbs,
          score: record.score ?? THUMBS_SCORE[record.thumbs],
          at: record.at,
          source: record.source,
          ...(record.comment ? { comment: record.comment } : {}),
        };
      } else if (record.record === 'outcome') {
        signal.outcome = {
          outcome: record.outcome,
          at: record.at,
          source: record.source,
          ...(record.final_code !== undefined ? { final_code: record.final_code } : {}),
        };
      } else {
        signal.used_for_training = true;
        if (record.batch_id) signal.training_batch_id = record.batch_id;
      }
    }
  }
  return { signals: [...byId.values()].map((signal) => ({ ...signal, ...computeReward(signal) })), orphans };
}

/**
 * Parses the store's text. Pure.
 * @internal
 */
export function parseSignals(text: string): ReadReport {
  const lines = text.split('\n');
  const endsClean = text === '' || text.endsWith('\n');
  if (endsClean) lines.pop();
  const records: { record: StoreRecord }[] = [];
  const skipped: { line: number; reason: string }[] = [];
  let tornTail = false;
  lines.forEach((raw, index) => {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '') return;
    const isTail = index === lines.length - 1 && !endsClean;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch (err) {
      if (isTail) tornTail = true;
      else skipped.push({ line: index + 1, reason: `not JSON: ${(err as Error).message}` });
      return;
    }
    const parsed = StoreRecordSchema.safeParse(data);
    if (!parsed.success) {
      skipped.push({
        line: index + 1,
        reason: parsed.error.issues.map((i) => `${i.path.join('.') || 'record'}: ${i.message}`).join('; '),
      });
      return;
    }
    records.push({ record: parsed.data });
  });
  return { ...fold(records), skipped, tornTail };
}

export class SignalStore {
  private readonly log: JsonlAppendLog;
  private readonly now: () => Date;

  constructor(
    readonly file: string,
    options: SignalStoreOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    const warn = options.warn;
    this.log = new JsonlAppendLog(file, {
      ...(warn
        ? {
            onTornTail: (f: string) =>
              warn(
                `training signals: the last line of ${f} was cut short (a crash mid-write); it is skipped on read and the next record starts on a fresh line`,
              ),
          }
        : {}),
    });
  }

  /** Appends a generation signal; returns its id (the one given, or a new UUID). */
  recordSignal(signal: NewSignal): Promise<StoreResult<string>> {
    const id = signal.id ?? randomUUID();
    const record: SignalRecord = {
      record: 'signal',
      schema_version: SIGNALS_SCHEMA_VERSION,
      ...signal,
      id,
      created_at: signal.created_at ?? this.now().toISOString(),
    };
    return this.append(record).then((r) => (r.ok ? ok(id) : r));
  }

  recordFeedback(
    signalId: string,
    thumbs: Thumbs,
    source: FeedbackRecord['source'],
    comment?: string,
  ): Promise<StoreResult<void>> {
    const record: FeedbackRecord = {
      record: 'feedback',
      schema_version: SIGNALS_SCHEMA_VERSION,
      signal_id: signalId,
      at: this.now().toISOString(),
      thumbs,
      score: THUMBS_SCORE[thumbs],
      source,
      ...(comment ? { comment } : {}),
    };
    return this.append(record);
  }

  recordOutcome(
    signalId: string,
    outcome: Outcome,
    source: OutcomeRecord['source'],
    finalCode?: string,
  ): Promise<StoreResult<void>> {
    const record: OutcomeRecord = {
      record: 'outcome',
      schema_version: SIGNALS_SCHEMA_VERSION,
      signal_id: signalId,
      at: this.now().toISOString(),
      outcome,
      source,
      ...(finalCode !== undefined ? { final_code: finalCode } : {}),
    };
    return this.append(record);
  }

  /** Marks signals as used for training, in the training batch `batchId` when given (one appended record). */
  markUsedForTraining(signalIds: readonly string[], label?: string, batchId?: string): Promise<StoreResult<void>> {
    if (signalIds.length === 0) return Promise.resolve(ok(undefined));
    const record: TrainingRecord = {
      record: 'training',
      schema_version: SIGNALS_SCHEMA_VERSION,
      at: this.now().toISOString(),
      signal_ids: [...signalIds],
      ...(label ? { label } : {}),
      ...(batchId ? { batch_id: batchId } : {}),
    };
    return this.append(record);
  }

  /** Reads and folds the whole store. A missing file is an empty store. */
  async read(): Promise<StoreResult<ReadReport>> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return ok({ signals: [], skipped: [], tornTail: false, orphans: 0 });
      const code = (error as NodeJS.ErrnoException).code;
      return err({
        kind: 'unreadable',
        message: `cannot read ${this.file}: ${code ?? (error as Error).message}`,
        ...(code ? { code } : {}),
      });
    }
    return ok(parseSignals(text));
  }

  /** Whether the store holds a signal with this id. */
  async has(signalId: string): Promise<StoreResult<boolean>> {
    const read = await this.read();
    return read.ok ? ok(read.value.signals.some((s) => s.id === signalId)) : read;
  }

  /** Resolves when every append issued so far has been written. */
  flush(): Promise<void> {
    return this.log.flush();
  }

  /** Whether the store can be written now (a probe, then the outcome of the last append). Never rejects. */
  health(): Promise<AppendResult> {
    return this.log.health();
  }

  private async append(record: StoreRecord): Promise<StoreResult<void>> {
    const written = await this.log.append(record);
    return written;
  }
}

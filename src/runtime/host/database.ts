/**
 * The sandbox's database: an embedded PostgreSQL (PGlite, Postgres compiled to WebAssembly), as if fresh for every
 * run. A new PGlite per run costs hundreds of milliseconds (initdb about a second; from a dump about 0.3 s:
 * `npm run bench -- runtime`), so one instance is kept and made fresh again instead:
 *
 * - created only when a run first touches the database (most runs never do), seeded once per seed SQL;
 * - each run is one transaction, each statement inside a savepoint (a failed statement does not poison the
 *   run's later ones), rolled back when the run ends; the seeded sequences are set back, `DISCARD ALL` drops
 *   session state (prepared statements, temporary objects, settings);
 * - a run that leaves the transaction itself (COMMIT, ROLLBACK …), a failed reset or another seed throws the
 *   instance away: the next run gets a new one, built from a dump of the empty cluster (no second initdb; the
 *   host shares that dump between its workers and keeps it in its cache folder, so initdb runs once).
 *
 * Statements that cannot run inside a transaction block (VACUUM, CREATE DATABASE …) fail with Postgres's own error.
 */
import { PGlite, type PGliteOptions, type Results } from '@electric-sql/pglite';
import { err, fail, ok, type Failure, type Result } from '../../result';
import type { DbAnswer, DbFailureKind, DatabasePort } from '..';

/** PGlite's compiled modules and file bundle, handed over so an instance reads no file of its own. */
export interface PgliteAssets {
  pgliteWasmModule: WebAssembly.Module;
  initdbWasmModule: WebAssembly.Module;
  fsBundle: Blob;
  /** A dump of a new, empty cluster: an instance is built from it without initdb. */
  emptyDump?: Blob;
}

export interface SandboxDatabaseOptions {
  /** Where the WebAssembly comes from; default: PGlite loads its own files. */
  assets?: () => Promise<PgliteAssets>;
  /** Told when an instance is being built and when it is ready (the host pauses the run's wall clock). */
  onBuild?: (phase: 'start' | 'end') => void;
  /** Told the dump of the empty cluster once initdb has made one (the host shares it). */
  onEmptyDump?: (dump: Blob) => void;
}

type DbResult = Result<DbAnswer, Failure<DbFailureKind> & { code?: string }>;

/** What one run sees: its database port, and the reset when it ends. */
export interface RunDatabase {
  port: DatabasePort;
  /** Whether the run touched the database. */
  readonly used: boolean;
  /** Ends the run's transaction and makes the instance fresh again (or drops it). */
  finish(): Promise<void>;
}

interface SequenceState {
  name: string;
  last: string;
  called: boolean;
}

// Date and time types keep Postgres's own text ('2026-01-31', '2026-01-31 10:00:00+00'), as a client reading
// the wire's text format would; the other types are PGlite's (numbers, booleans, JSON values, numeric as text).
const TEXT_TYPES = [1082, 1083, 1114, 1184, 1266, 1186];
const PARSERS = Object.fromEntries(TEXT_TYPES.map((oid) => [oid, (value: string) => value]));

function errorOf(e: unknown): { message: string; code?: string } {
  const error = e as { message?: string; code?: string };
  return { message: error.message ?? String(e), ...(typeof error.code === 'string' ? { code: error.code } : {}) };
}

function answerOf(results: Results): DbAnswer {
  return {
    command: results.command ?? '',
    rows: results.rows,
    affected: results.affectedRows ?? 0,
  };
}

export class SandboxDatabase {
  private db: PGlite | undefined;
  private seed: string | undefined;
  private seedError: string | undefined;
  private sequences: SequenceState[] = [];
  private emptyDump: Blob | undefined;
  private closed = false;
  /** Instances built so far (for tests and the benchmark). */
  builds = 0;

  constructor(private readonly options: SandboxDatabaseOptions = {}) {}

  private async build(): Promise<PGlite> {
    this.options.onBuild?.('start');
    try {
      const assets = this.options.assets ? await this.options.assets() : undefined;
      this.emptyDump ??= assets?.emptyDump;
      const base: PGliteOptions = {
        parsers: PARSERS,
        ...(assets
          ? {
              pgliteWasmModule: assets.pgliteWasmModule,
              initdbWasmModule: assets.initdbWasmModule,
              fsBundle: assets.fsBundle,
            }
          : {}),
      };
      let db: PGlite | undefined;
      if (this.emptyDump) {
        // A dump that cannot be loaded (a cache another PGlite made) is dropped for initdb.
        db = await PGlite.create({ ...base, loadDataDir: this.emptyDump }).catch(() => undefined);
        if (!db) this.emptyDump = undefined;
      }
      if (!db) {
        db = await PGlite.create(base);
        this.emptyDump = await db.dumpDataDir('none');
        this.options.onEmptyDump?.(this.emptyDump);
      }
      this.builds++;
      return db;
    } finally {
      this.options.onBuild?.('end');
    }
  }

  private async drop(): Promise<void> {
    const db = this.db;
    this.db = undefined;
    this.seed = undefined;
    this.seedError = undefined;
    this.sequences = [];
    await db?.close().catch(() => undefined);
  }

  /** The instance for this seed, built and seeded when needed; a seed that fails is reported to every query. */
  private async instance(seed: string): Promise<Result<PGlite, Failure<'unavailable'>>> {
    if (this.closed) return fail('unavailable', 'the database is closed');
    if (this.db && this.seed !== seed) await this.drop();
    if (!this.db) {
      let db: PGlite;
      try {
        db = await this.build();
      } catch (e) {
        return fail('unavailable', `the embedded PostgreSQL could not start: ${errorOf(e).message}`);
      }
      this.db = db;
      this.seed = seed;
      if (seed.trim() !== '') {
        try {
          await db.exec(seed);
          this.sequences = await this.readSequences(db);
        } catch (e) {
          this.seedError = `the seed SQL failed: ${errorOf(e).message}`;
        }
      }
    }
    if (this.seedError) return fail('unavailable', this.seedError);
    return ok(this.db);
  }

  private async readSequences(db: PGlite): Promise<SequenceState[]> {
    const names = await db.query<{ name: string }>(
      `SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind = 'S' AND n.nspname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
    );
    const out: SequenceState[] = [];
    for (const { name } of names.rows) {
      const state = await db.query<{ last: string; called: boolean }>(
        `SELECT last_value::text AS last, is_called AS called FROM ${name}`,
      );
      const row = state.rows[0];
      if (row) out.push({ name, last: row.last, called: row.called });
    }
    return out;
  }

  /** A run's view: its first query opens the run's transaction; `finish` rolls it back. */
  forRun(seed: string | undefined): RunDatabase {
    let entered: PGlite | undefined;
    let dirty = false;
    let used = false;
    let chain: Promise<unknown> = Promise.resolve();
    const seedText = seed ?? '';

    const bookkeeping = async (db: PGlite, sql: string): Promise<void> => {
      if (dirty) return;
      try {
        await db.exec(sql);
      } catch {
        // The run left our transaction (COMMIT, ROLLBACK, …): its effects may outlive it, so the instance goes.
        dirty = true;
      }
    };

    const runQuery = async (sql: string, params: readonly unknown[], signal: AbortSignal): Promise<DbResult> => {
      if (signal.aborted) return fail('unavailable', 'the run was stopped');
      used = true;
      if (!entered) {
        const got = await this.instance(seedText);
        if (!got.ok) return got;
        entered = got.value;
        try {
          await entered.exec('BEGIN');
        } catch (e) {
          dirty = true;
          return fail('unavailable', `the database could not open the run's transaction: ${errorOf(e).message}`);
        }
      }
      const db = entered;
      await bookkeeping(db, 'SAVEPOINT avap_statement');
      try {
        const answer =
          params.length === 0
            ? answerOf((await db.exec(sql)).at(-1) ?? { rows: [], fields: [] })
            : answerOf(await db.query(sql, [...params]));
        await bookkeeping(db, 'RELEASE SAVEPOINT avap_statement');
        return ok(answer);
      } catch (e) {
        await bookkeeping(db, 'ROLLBACK TO SAVEPOINT avap_statement; RELEASE SAVEPOINT avap_statement');
        const { message, code } = errorOf(e);
        return err({ kind: 'sql-error' as const, message, ...(code ? { code } : {}) });
      }
    };

    return {
      port: {
        query: (sql, params, signal) => {
          const next = chain.then(() => runQuery(sql, params, signal));
          chain = next.catch(() => undefined);
          return next;
        },
      },
      get used() {
        return used;
      },
      finish: async () => {
        await chain;
        const db = entered;
        entered = undefined;
        if (!db || db !== this.db) return;
        if (!dirty) {
          try {
            await db.exec('ROLLBACK');
            if (this.sequences.length)
              await db.exec(
                this.sequences
                  .map((s) => `SELECT setval('${s.name.replace(/'/g, "''")}', ${s.last}, ${s.called});`)
                  .join('\n'),
              );
            await db.exec('DISCARD ALL');
          } catch {
            dirty = true;
          }
        }
        if (dirty) await this.drop();
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.drop();
  }
}

/**
 * The sandbox's worker pool as the editor holds it: made on the first run (its workers start then, never at
 * activation), with the budgets of the `avap.run.*` settings, made again when those change, closed with the
 * extension. The empty database cluster is kept in the extension's storage, so PGlite's initdb runs once per
 * installation rather than once per session.
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Failure, Result } from '../../result';
import { ok } from '../../result';
import { createRunPool, type RunPool } from '../../runtime/host';
import { poolLimits, type RunSettings } from '../../runs';

/** Workers: runs are one at a time from a developer, test files a few cases each; two keep a file's cases quick. */
const EDITOR_POOL_SIZE = Math.max(1, Math.min(2, availableParallelism()));

export class EditorRunPool {
  private pool: RunPool | undefined;
  private key = '';

  constructor(
    private readonly storageDir: string,
    private readonly log: (line: string) => void,
  ) {}

  /** The pool for these settings: the current one, or a new one when there is none or the budgets changed. */
  get(settings: RunSettings): Result<RunPool, Failure<'no-worker-script'>> {
    const limits = poolLimits(settings);
    const key = JSON.stringify(limits);
    if (this.pool && key === this.key) return ok(this.pool);
    const previous = this.pool;
    const made = createRunPool({
      ...limits,
      size: EDITOR_POOL_SIZE,
      cacheDir: path.join(this.storageDir, 'runtime-cache'),
      log: this.log,
    });
    if (!made.ok) return made;
    this.pool = made.value;
    this.key = key;
    if (previous) {
      this.log('run: the budgets changed — the runtime restarts with the new ones');
      void previous.close();
    } else {
      this.log(
        `run: the runtime started (${made.value.size} worker${made.value.size > 1 ? 's' : ''}; ${limits.timeoutMs} ms, ${limits.maxSteps} steps, ${limits.memoryMb} MiB per run)`,
      );
    }
    return ok(made.value);
  }

  /** Whether the workers have been started. */
  get started(): boolean {
    return this.pool !== undefined;
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.close();
  }
}

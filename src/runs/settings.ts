/**
 * The editor's run settings and what the sandbox makes of them. Each mirrors the command line's environment
 * variable in name and unit: `avap.run.allowHttp` ↔ `AVAP_RUN_ALLOW_HTTP` (HOST[:PORT] entries),
 * `avap.run.timeout` ↔ `AVAP_RUN_TIMEOUT` (seconds), `avap.run.maxSteps` ↔ `AVAP_RUN_MAX_STEPS`,
 * `avap.run.maxMemory` ↔ `AVAP_RUN_MAX_MEMORY` (MiB); `avap.run.showValues` is the editor's own. Pure.
 */
import { ok, type Failure, type Result } from '../result';
import { parseAllowList, type AllowedHost, type RunPoolOptions } from '../runtime/host';

export interface RunSettings {
  /** Hosts runs may really call (HOST or HOST:PORT). */
  allowHttp: string[];
  timeoutSeconds: number;
  maxSteps: number;
  maxMemoryMb: number;
  /** Values in the code after a run. */
  showValues: boolean;
}

/** The pool's budgets, as `avap run` derives them from its flags and variables (src/cli/runtime/options.ts). */
export function poolLimits(settings: RunSettings): Pick<RunPoolOptions, 'timeoutMs' | 'maxSteps' | 'memoryMb'> {
  return {
    timeoutMs: Math.max(1, Math.round(settings.timeoutSeconds * 1000)),
    maxSteps: settings.maxSteps,
    memoryMb: Math.max(16, settings.maxMemoryMb),
  };
}

/** The allow-list of a run's sandbox; a bad entry is an error that names it (runs then call no host). */
export function allowList(settings: RunSettings): Result<AllowedHost[], Failure<'bad-host'>> {
  if (settings.allowHttp.length === 0) return ok([]);
  return parseAllowList(settings.allowHttp.map((h) => h.trim()).filter(Boolean));
}

/** Whether the stores the server writes (training signals, telemetry) can be written now: for GET /health. */
import type { AppendResult } from '../jsonl';
import { err } from '../result';
import type { RestDeps } from './context';

export interface StorageState {
  enabled: boolean;
  writable?: boolean;
  /** The system error code when it cannot be written (`EACCES`, `ENOSPC`…). */
  code?: string;
}

/** Whether the signal store and the telemetry log can be written now. Never rejects. */
export async function storageHealth(
  deps: Pick<RestDeps, 'signals' | 'telemetry'>,
): Promise<{ signals: StorageState; telemetry: StorageState }> {
  const state = async (target: { health(): Promise<AppendResult> } | undefined): Promise<StorageState> => {
    if (!target) return { enabled: false };
    const health = await target
      .health()
      .catch((error: unknown): AppendResult => err({ kind: 'unwritable', code: 'EIO', message: String(error) }));
    return health.ok ? { enabled: true, writable: true } : { enabled: true, writable: false, code: health.error.code };
  };
  const [signals, telemetry] = await Promise.all([state(deps.signals), state(deps.telemetry)]);
  return { signals, telemetry };
}

/** One sentence per store that cannot be written (no paths: /health is public). */
export function storageReasons(storage: { signals: StorageState; telemetry: StorageState }): string[] {
  const reasons: string[] = [];
  if (storage.signals.writable === false) {
    reasons.push(
      `the training-signal store cannot be written (${storage.signals.code}): answers are not recorded and /v1/feedback answers 503`,
    );
  }
  if (storage.telemetry.writable === false) {
    reasons.push(`the telemetry log cannot be written (${storage.telemetry.code}): attempt events are not recorded`);
  }
  return reasons;
}

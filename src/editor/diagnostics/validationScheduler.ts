/**
 * Decides when a document is validated and which result may be shown: one
 * debounced run per document, a newer request aborts the older one, and a
 * result is applied only if it belongs to the newest requested version of a
 * document that is still tracked. Editor-free: timers are injected.
 */

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export type RunValidation<R> = (key: string, version: number, signal: AbortSignal) => Promise<R>;
export type ApplyResult<R> = (key: string, version: number, result: R) => void;

interface Slot {
  /** Newest version asked for. */
  version: number;
  timer?: unknown;
  controller?: AbortController;
}

export class ValidationScheduler<R> {
  private readonly slots = new Map<string, Slot>();

  constructor(
    private readonly run: RunValidation<R>,
    private readonly apply: ApplyResult<R>,
    private readonly timers: Timers = realTimers,
  ) {}

  /** Validates `key` at `version` after `delayMs` (0 = at once), superseding anything pending for it. */
  request(key: string, version: number, delayMs: number): void {
    const slot = this.slots.get(key) ?? { version };
    this.slots.set(key, slot);
    if (slot.timer !== undefined) this.timers.clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.controller?.abort();
    slot.controller = undefined;
    slot.version = version;
    if (delayMs <= 0) {
      this.start(key, slot, version);
      return;
    }
    slot.timer = this.timers.setTimeout(() => {
      slot.timer = undefined;
      this.start(key, slot, version);
    }, delayMs);
  }

  /** Stops tracking `key` (document closed): pending work is dropped, late results are ignored. */
  forget(key: string): void {
    const slot = this.slots.get(key);
    if (!slot) return;
    if (slot.timer !== undefined) this.timers.clearTimeout(slot.timer);
    slot.controller?.abort();
    this.slots.delete(key);
  }

  /** True while `key` has a run scheduled or in flight. */
  isPending(key: string): boolean {
    const slot = this.slots.get(key);
    return slot !== undefined && (slot.timer !== undefined || slot.controller !== undefined);
  }

  dispose(): void {
    for (const key of [...this.slots.keys()]) this.forget(key);
  }

  private start(key: string, slot: Slot, version: number): void {
    const controller = new AbortController();
    slot.controller = controller;
    let promise: Promise<R>;
    try {
      promise = this.run(key, version, controller.signal);
    } catch (err) {
      promise = Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    promise.then(
      (result) => {
        if (slot.controller === controller) slot.controller = undefined;
        // Stale: aborted, superseded by a newer version, or the document is gone.
        if (controller.signal.aborted || this.slots.get(key) !== slot || slot.version !== version) return;
        this.apply(key, version, result);
      },
      () => {
        if (slot.controller === controller) slot.controller = undefined;
      },
    );
  }
}

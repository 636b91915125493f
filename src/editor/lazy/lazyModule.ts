/**
 * A module loaded on first use: every caller waits for the same load, a
 * failed load is reported and tried again by the next caller, and `current`
 * says whether it is there without loading it. Editor-free: activation
 * (../activate.ts) uses it for the editor features bundle and the assistant
 * seam (../assistant/seam.ts) for the assistant bundle.
 */
export class LazyModule<T> {
  private loading: Promise<T> | undefined;
  private value: T | undefined;

  /** `load` imports and sets up the module; it runs once, or again after it failed. */
  constructor(private readonly loadOnce: () => Promise<T>) {}

  load(): Promise<T> {
    if (!this.loading) {
      const attempt = this.loadOnce().then((value) => {
        this.value = value;
        return value;
      });
      // A failure is the caller's to report; the next call tries again.
      attempt.catch(() => {
        if (this.loading === attempt) this.loading = undefined;
      });
      this.loading = attempt;
    }
    return this.loading;
  }

  /** The module when it has been loaded, without loading it. */
  get current(): T | undefined {
    return this.value;
  }

  /** True from the first load until it failed (loading or loaded). */
  get requested(): boolean {
    return this.loading !== undefined;
  }
}

/**
 * Where progress goes: stderr, in one of three modes.
 *
 * - `live` (stderr is a terminal): one line redrawn in place — carriage
 *   return, clear line, the text cut to the terminal's width — every time
 *   something happens and on a timer, so elapsed time and time left keep
 *   moving during a long step. Other lines are printed above it. `stop()`
 *   leaves a clean line behind (at the end, on Ctrl+C, before a final message).
 * - `lines` (a pipe, a file, CI, a dumb terminal): plain lines, one per step,
 *   no control characters.
 * - `off` (--quiet): progress is dropped; warnings still print.
 *
 * Stdout is never touched: it carries a command's results.
 */

/**
 * Carriage return + erase the whole line (ECMA-48 EL 2).
 * @internal
 */
export const CLEAR_LINE = '\r\x1b[2K';
const FALLBACK_COLUMNS = 80;

export type ProgressMode = 'live' | 'lines' | 'off';

/** What a command knows about its stderr (see CliIO.stderrTerminal). */
export interface ProgressTarget {
  stderr: (text: string) => void;
  stderrTerminal?: { columns(): number | undefined };
}

/** Live on a terminal, plain lines elsewhere, nothing with --quiet. */
export function progressMode(target: ProgressTarget, quiet: boolean): ProgressMode {
  if (quiet) return 'off';
  return target.stderrTerminal ? 'live' : 'lines';
}

export interface Segment {
  text: string;
  /** 0 is kept longest; higher numbers are dropped first when the line is too wide. */
  priority: number;
}

/**
 * Joins segments with ' · ' into at most `width` characters: drops the
 * segments of the highest priority number first (keeping the order of the
 * rest), and cuts what is still too long with an ellipsis.
 */
export function fitSegments(segments: readonly Segment[], width: number, separator = ' · '): string {
  const max = Math.max(1, Math.floor(width));
  let kept = [...segments];
  const joined = () => kept.map((s) => s.text).join(separator);
  while (kept.length > 1 && [...joined()].length > max) {
    const drop = Math.max(...kept.map((s) => s.priority));
    const at = kept.map((s) => s.priority).lastIndexOf(drop);
    kept = kept.filter((_, i) => i !== at);
  }
  const chars = [...joined()];
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}

/**
 * The usable width of a terminal line: one column short of the edge, so the cursor never wraps.
 * @internal
 */
export function lineWidth(columns: number | undefined): number {
  const c = columns !== undefined && Number.isFinite(columns) && columns > 0 ? Math.floor(columns) : FALLBACK_COLUMNS;
  return Math.max(10, c - 1);
}

export interface ProgressOutput {
  readonly mode: ProgressMode;
  /** A progress line of its own (`lines` mode only; the live line shows the same through `render`). */
  step(line: string): void;
  /** A line worth keeping (a run's summary): above the live line, or plain; dropped when off. */
  note(line: string): void;
  /** A problem: printed in every mode, even with --quiet. */
  warn(line: string): void;
  /** Draws the live line again now. */
  redraw(): void;
  /** Clears the live line for good and stops the timer; later calls print nothing but warnings. Idempotent. */
  stop(): void;
}

/** What every progress display is given: where to write, how, and a clock. */
export interface DisplayOptions {
  mode: ProgressMode;
  write: (text: string) => void;
  /** The terminal's width, read at every redraw (the terminal may be resized). */
  columns?: () => number | undefined;
  /** Milliseconds on a monotonic clock (default performance.now). */
  now?: () => number;
  /** Live mode: redraw every `tickMs` (default 1000; 0 only redraws on events). */
  tickMs?: number;
}

export interface ProgressOutputOptions extends DisplayOptions {
  /** The live line for a width; undefined when there is nothing to show yet. */
  render: (width: number) => string | undefined;
}

export function createProgressOutput(options: ProgressOutputOptions): ProgressOutput {
  const { mode, write } = options;
  let stopped = false;
  let shown = false;
  let timer: ReturnType<typeof setInterval> | undefined;

  const clear = () => {
    if (shown) write(CLEAR_LINE);
    shown = false;
  };
  const redraw = () => {
    if (mode !== 'live' || stopped) return;
    const text = options.render(lineWidth(options.columns?.()));
    if (text === undefined) return clear();
    write(`${CLEAR_LINE}${text}`);
    shown = true;
  };
  const above = (line: string) => {
    clear();
    write(`${line}\n`);
    redraw();
  };

  const tickMs = options.tickMs ?? 1000;
  if (mode === 'live' && tickMs > 0) {
    timer = setInterval(redraw, tickMs);
    timer.unref();
  }

  return {
    mode,
    step: (line) => {
      if (mode === 'lines' && !stopped) write(`${line}\n`);
    },
    note: (line) => {
      if (mode === 'off' || stopped) return;
      if (mode === 'lines') write(`${line}\n`);
      else above(line);
    },
    warn: (line) => {
      if (mode === 'live' && !stopped) above(line);
      else write(`${line}\n`);
    },
    redraw,
    stop: () => {
      if (stopped) return;
      if (timer) clearInterval(timer);
      clear();
      stopped = true;
    },
  };
}

/** Stops the output when the command is interrupted (Ctrl+C), so the terminal is left with a clean line. */
export function stopOnAbort(output: { stop(): void }, signal: AbortSignal | undefined): () => void {
  if (!signal) return () => undefined;
  if (signal.aborted) {
    output.stop();
    return () => undefined;
  }
  const onAbort = () => output.stop();
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

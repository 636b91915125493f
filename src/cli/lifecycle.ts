/**
 * The process around one CLI run: how it ends.
 *
 * - **No exit without an answer.** A command's promise is its answer. If the
 *   event loop empties while that promise is still pending, nothing is left
 *   that could ever settle it — an unref'd timer or socket was all it waited
 *   on — and Node would exit 0 having printed nothing. That is a bug, and it
 *   is reported as one: the run's signal is aborted (so a command that honours
 *   it still prints its final message), one line says what happened, and the
 *   exit code is 2, whatever the command returns afterwards.
 * - **The first signal ends the process.** The first SIGINT/SIGTERM aborts
 *   the run's signal: commands stop reading, waiting and generating, print
 *   what they have and return (130 for an interrupted run). If the run has
 *   not finished `graceMs` later — something ignored the signal — the process
 *   exits 130 anyway; a second signal exits at once.
 */
import { EXIT } from './command';

/** The exit code of an interrupted run. */
export const EXIT_INTERRUPTED = 130;

/** Why a run's signal was aborted when its event loop emptied. */
class EventLoopDrained extends Error {
  constructor() {
    super('the event loop emptied while the command still awaited its answer (an internal error)');
  }
}

/** The parts of `process` the supervisor uses (tests pass a stand-in). */
interface SupervisedProcess {
  on(event: 'SIGINT' | 'SIGTERM' | 'beforeExit', listener: (signal?: NodeJS.Signals) => void): unknown;
  exit(code: number): never;
  exitCode?: number | string | undefined | null;
}

export interface SuperviseOptions {
  /** The run's controller: aborted on the first signal, and when the event loop empties mid-run. */
  controller: AbortController;
  stderr: (text: string) => void;
  /**
   * How long a signalled run may take to finish (serve closes its connections
   * and stops its bundled parser) before the process exits anyway. Default 5000 ms.
   */
  graceMs?: number;
  process?: SupervisedProcess;
}

/** Watches one run to its end and sets the process's exit code from it. */
export function superviseRun(run: Promise<number>, options: SuperviseOptions): void {
  const proc = options.process ?? process;
  const graceMs = options.graceMs ?? 5000;
  let settled = false;
  let drained = false;
  let signalled: NodeJS.Signals | undefined;

  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      options.stderr(`avap: ${signal} again; exiting now\n`);
      proc.exit(EXIT_INTERRUPTED);
    }
    signalled = signal;
    options.controller.abort(new Error(`received ${signal}`));
    // Nothing waits on this timer: it must not keep a finished run's process alive.
    setTimeout(() => {
      options.stderr(`avap: still running ${graceMs} ms after ${signal}; exiting now\n`);
      proc.exit(EXIT_INTERRUPTED);
    }, graceMs).unref();
  };
  proc.on('SIGINT', () => onSignal('SIGINT'));
  proc.on('SIGTERM', () => onSignal('SIGTERM'));

  proc.on('beforeExit', () => {
    if (settled) return;
    if (!drained) {
      drained = true;
      options.stderr(
        'avap: internal error: the command was still waiting for its answer when nothing was left that could ' +
          'deliver it (its event loop emptied); no answer was given — please report this\n',
      );
      // A command that honours its signal now finishes and prints what it has (generate --json: its final message).
      options.controller.abort(new EventLoopDrained());
    }
    proc.exitCode = EXIT.usage;
  });

  run.then(
    (code) => {
      settled = true;
      proc.exitCode = drained ? EXIT.usage : code;
    },
    (err: unknown) => {
      settled = true;
      options.stderr(`avap: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      proc.exitCode = EXIT.usage;
    },
  );
}

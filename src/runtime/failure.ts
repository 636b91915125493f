/**
 * A run-time error inside the interpreter. AVAP's own try()/exception() is an
 * exception mechanism, so inside the runtime an error travels as a thrown
 * RunFailure until a try() catches it or the run ends; `execute` turns it into
 * data (RunResult.error) and never lets anything escape.
 */
import type { RunErrorCode } from './types';

/** Python's exception classes the reference raises, for the evaluator's failures (an assignment falls back on them). */
export type PyErrorType =
  | 'TypeError'
  | 'ValueError'
  | 'NameError'
  | 'IndexError'
  | 'KeyError'
  | 'ZeroDivisionError'
  | 'AttributeError'
  | 'SyntaxError'
  | 'OverflowError';

export class RunFailure extends Error {
  /** Where it happened, filled in by the statement that ran it. */
  line = 0;
  command = '';

  private constructor(
    readonly code: RunErrorCode,
    message: string,
    /** try()/exception() can catch it (budgets and cancellation cannot). */
    readonly catchable: boolean,
    /** The Python exception the reference would raise: the evaluator's failures, which an assignment turns into text. */
    readonly pyType?: PyErrorType,
  ) {
    super(message);
  }

  static of(code: RunErrorCode, message: string): RunFailure {
    return new RunFailure(code, message, true);
  }

  static py(type: PyErrorType, code: RunErrorCode, message: string): RunFailure {
    return new RunFailure(code, message, true, type);
  }

  /** What cannot be known is refused: `not supported by the runtime: what (why)`. */
  static unsupported(what: string, why: string): RunFailure {
    return new RunFailure('not-supported', `not supported by the runtime: ${what} (${why})`, true);
  }

  /** A stop the program cannot catch: the step budget, cancellation. */
  static stop(code: 'step-budget' | 'cancelled', message: string): RunFailure {
    return new RunFailure(code, message, false);
  }

  /** A defect of the runtime itself: ends the run, never caught by the program. */
  static internal(message: string): RunFailure {
    return new RunFailure('internal-error', `internal error of the runtime: ${message}`, false);
  }

  /** A fresh copy to throw (a failure kept in a compiled program is shared by its runs; each run's gets its own place). */
  copy(): RunFailure {
    return new RunFailure(this.code, this.message, this.catchable, this.pyType);
  }

  at(line: number, command: string): this {
    if (this.line === 0) {
      this.line = line;
      this.command = command;
    }
    return this;
  }
}

export function isRunFailure(e: unknown): e is RunFailure {
  return e instanceof RunFailure;
}

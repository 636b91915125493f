/**
 * Runs a compiled program. Statements run synchronously for as long as they
 * can; a command that waits on a port returns a promise and the block goes on
 * from there when it settles, so a program without I/O never leaves the
 * caller's turn. Errors travel as thrown RunFailures: try() catches the
 * catchable ones, the run ends on the others.
 */
import { argSpec } from './args';
import type { AsyncOp, CallOp, FunctionDef, IfOp, LoopOp, Op, Program, ReturnOp, TryOp } from './compile';
import { ifCondition, loopBound } from './control';
import { isRunFailure, RunFailure } from './failure';
import { PortabilityLog } from './portability';
import type { RuntimePorts } from './ports';
import { pyStr } from './pytext';
import { Call, Frame } from './scope';
import type { Shared } from './shared';
import type { RunRequest, StepRecord } from './types';
import { deepCopy, int, type Value } from './values';

/** A `return` on its way out of a function. */
interface Returned {
  readonly value: Value;
}

type Flow = undefined | Returned | Promise<undefined | Returned>;

/** Where a block runs. */
interface Place {
  /** Statements here are the top level as the reference logs it (the main flow, and a top-level try's parts). */
  readonly logged: boolean;
  /** if()/startLoop() blocks between here and the top of the function body (the reference only returns from the top). */
  readonly depth: number;
  /** Nested function calls. */
  readonly calls: number;
  readonly inFunction: boolean;
}

export interface LogEntry {
  command: string;
  line: number;
  success: boolean;
  error?: string;
}

interface Task {
  done: Promise<void>;
  settled: boolean;
}

/**
 * A startLoop() as it runs: made once per loop, so a pass that waits on a port goes on from the next counter
 * value with the same loop.
 */
interface LoopRun {
  readonly op: LoopOp;
  /** The counter variable. */
  readonly name: string;
  /** The counter's last value (inclusive). */
  readonly end: number;
  readonly frame: Frame;
  readonly place: Place;
}

/** A try() as it runs: made once per try, so a statement that waits on a port goes on with the same try. */
interface TryRun {
  readonly op: TryOp;
  readonly frame: Frame;
  readonly place: Place;
  /** A failure of the body's statement `index`: caught (the handler runs) or thrown on. */
  readonly handle: (e: unknown, index: number) => Flow;
  /** The body ran to its end without a failure. */
  readonly ok: () => void;
}

const MAX_CALL_DEPTH = 200;

export interface RunOptions {
  readonly program: Program;
  readonly request: RunRequest;
  readonly ports: RuntimePorts;
  /** The caller's cancellation. */
  readonly signal: AbortSignal | undefined;
  readonly maxSteps: number;
  readonly trace: boolean;
  /** Steps the trace records at most (the first ones); the rest are only counted. */
  readonly maxTraceSteps?: number;
  readonly globals: Map<string, Value>;
}

export class Interpreter implements Shared {
  readonly request: RunRequest;
  readonly ports: RuntimePorts;
  readonly results = new Map<string, Value>();
  readonly notes = new PortabilityLog();
  readonly logs: LogEntry[] = [];
  readonly steps: StepRecord[] | undefined;
  /** Steps executed beyond the trace's limit (not recorded). */
  stepsOmitted = 0;
  private readonly maxTraceSteps: number;
  readonly globals: Map<string, Value>;
  private readonly program: Program;
  private readonly maxSteps: number;
  private stepCount = 0;
  private readonly tasks = new Map<string, Task>();
  /** Set when the main flow is over: what async blocks do after it no longer shapes the response. */
  private mainDone = false;
  private readonly outer: AbortSignal | undefined;
  /** Made on the first port call only (an AbortController costs more than a whole run without I/O). */
  private controller: AbortController | undefined;
  private closed = false;
  private readonly onOuterAbort = (): void => this.controller?.abort(this.outer?.reason);

  constructor(options: RunOptions) {
    this.program = options.program;
    this.request = options.request;
    this.ports = options.ports;
    this.outer = options.signal;
    this.maxSteps = options.maxSteps;
    this.steps = options.trace ? [] : undefined;
    this.maxTraceSteps = Math.max(0, options.maxTraceSteps ?? Number.POSITIVE_INFINITY);
    this.globals = options.globals;
  }

  /** Runs the main flow; resolves (or throws the uncaught RunFailure) when it is over. */
  main(): Flow {
    for (const n of this.program.notes) this.notes.note(n.rule, n.line);
    const frame = new Frame(this, { vars: this.globals, locals: null, shadow: new Map(), root: this.globals });
    return this.block(this.program.body, 0, frame, { logged: true, depth: 0, calls: 0, inFunction: false });
  }

  /** The signal the ports get: aborted when the caller cancels or the run is over. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.closed || this.outer?.aborted) this.controller.abort(this.outer?.reason);
      else this.outer?.addEventListener('abort', this.onOuterAbort, { once: true });
    }
    return this.controller.signal;
  }

  /** Ends the run: port calls still in flight are aborted. */
  close(): void {
    this.closed = true;
    if (this.controller !== undefined) {
      this.outer?.removeEventListener('abort', this.onOuterAbort);
      if (!this.controller.signal.aborted) this.controller.abort();
    }
  }

  /** Marks the main flow over and waits for the async blocks still running (their errors are only logged). */
  async finish(): Promise<void> {
    this.mainDone = true;
    for (const task of this.tasks.values()) await task.done;
  }

  // ----------------------------------------------------------------- blocks

  private log(op: Op, place: Place, error?: RunFailure): void {
    // A try() is logged when it starts (its body and handler are logged as they run, as the reference's flat commands).
    // A stray closer is no statement there (its parser consumes it).
    if (!place.logged || this.mainDone || op.k === 'try' || (op.k === 'nop' && error === undefined)) return;
    this.logs.push(
      error
        ? { command: op.label, line: op.line, success: false, error: error.message }
        : { command: op.label, line: op.line, success: true },
    );
  }

  private failed(op: Op, e: unknown, place: Place): RunFailure {
    const failure = isRunFailure(e) ? e : RunFailure.internal(e instanceof Error ? e.message : String(e));
    failure.at(op.line, op.label);
    this.log(op, place, failure);
    return failure;
  }

  /** Runs one statement: its failure gets its line and is logged; its success is logged when it settles. */
  private one(op: Op, frame: Frame, place: Place): Flow {
    let r: Flow;
    try {
      r = this.op(op, frame, place);
    } catch (e) {
      throw this.failed(op, e, place);
    }
    if (r instanceof Promise) {
      return r.then(
        (v) => {
          this.log(op, place);
          return v;
        },
        (e: unknown) => {
          throw this.failed(op, e, place);
        },
      );
    }
    this.log(op, place);
    return r;
  }

  private block(ops: readonly Op[], from: number, frame: Frame, place: Place): Flow {
    for (let i = from; i < ops.length; i++) {
      const r = this.one(ops[i] as Op, frame, place);
      if (r === undefined) continue;
      if (r instanceof Promise) {
        const next = i + 1;
        return r.then((v) => (v !== undefined ? v : this.block(ops, next, frame, place)));
      }
      return r;
    }
    return undefined;
  }

  private step(op: { readonly line: number; readonly label: string }, frame: Frame): void {
    if (++this.stepCount > this.maxSteps) {
      throw RunFailure.stop(
        'step-budget',
        `the run stopped after ${this.maxSteps} statements (its step budget) — a loop that does not end?`,
      );
    }
    if (this.outer?.aborted === true || this.closed) throw RunFailure.stop('cancelled', 'the run was cancelled');
    frame.line = op.line;
    if (this.steps !== undefined && !this.mainDone) {
      if (this.steps.length < this.maxTraceSteps) {
        const record: StepRecord = { line: op.line, command: op.label, changes: {} };
        this.steps.push(record);
        frame.changes = record.changes;
      } else {
        // A bounded trace: a long loop records its first steps and counts the rest, so memory stays small.
        this.stepsOmitted++;
        frame.changes = null;
      }
    }
  }

  private op(op: Op, frame: Frame, place: Place): Flow {
    this.step(op, frame);
    for (const n of op.notes) this.notes.note(n, op.line);
    if (op.flaw !== undefined) throw RunFailure.of('syntax-error', op.flaw);
    switch (op.k) {
      case 'call':
        return this.call(op, frame, place);
      case 'assign':
        frame.assign(op.target, frame.evaluate(op.expr));
        return undefined;
      case 'if':
        return this.if(op, frame, place);
      case 'loop':
        return this.loop(op, frame, place);
      case 'try':
        return this.try(op, frame, place);
      case 'async':
        this.async(op, frame);
        return undefined;
      case 'return':
        return this.return(op, frame, place);
      case 'nop':
        return undefined;
    }
  }

  private if(op: IfOp, frame: Frame, place: Place): Flow {
    const branch = ifCondition(frame, op.args, op.condition) ? op.then : op.orelse;
    return this.block(branch, 0, frame, { ...place, logged: false, depth: place.depth + 1 });
  }

  private loop(op: LoopOp, frame: Frame, place: Place): Flow {
    const [name, from, to] = op.args;
    if (op.args.length !== 3 || name === undefined || name.empty) {
      throw RunFailure.of('argument-error', 'startLoop needs a variable and two bounds: startLoop(i, from, to)');
    }
    const start = loopBound(frame, from, 'first');
    const end = loopBound(frame, to, 'last');
    const inner: Place = { ...place, logged: false, depth: place.depth + 1 };
    return this.iterate({ op, name: name.text, end, frame, place: inner }, start);
  }

  /** Each pass is a step of its own (so an empty loop still meets the budget) that sets the counter. */
  private iterate(loop: LoopRun, i: number): Flow {
    const { op, name, end, frame, place } = loop;
    for (; i <= end; i++) {
      this.step(op, frame);
      frame.set(name, int(i));
      const r = this.block(op.body, 0, frame, place);
      if (r === undefined) continue;
      if (r instanceof Promise) {
        const next = i + 1;
        return r.then((v) => (v !== undefined ? v : this.iterate(loop, next)));
      }
      return r;
    }
    return undefined;
  }

  private try(op: TryOp, frame: Frame, place: Place): Flow {
    const inner: Place = { ...place, logged: place.logged };
    if (place.logged && !this.mainDone) this.logs.push({ command: 'try', line: op.line, success: true });
    const handle = (e: unknown, index: number): Flow => {
      if (!isRunFailure(e) || !e.catchable) throw e;
      if (index < op.body.length - 1) frame.note('try-continues-after-error');
      const handler = op.handler;
      if (handler) this.step({ line: handler.line, label: 'exception' }, frame);
      frame.set('__last_error__', e.message);
      if (!handler) return undefined;
      const errorVar = handler.args[0];
      if (errorVar !== undefined && !errorVar.empty) frame.set(errorVar.text, e.message);
      if (handler.target !== undefined) frame.set(handler.target, e.message);
      if (place.logged) this.logs.push({ command: 'exception', line: handler.line, success: true });
      return this.block(handler.body, 0, frame, inner);
    };
    const ok = (): void => {
      const h = op.handler;
      if (h && (h.body.length > 0 || h.target !== undefined || (h.args[0] !== undefined && !h.args[0].empty))) {
        this.notes.note('try-handler-without-error', h.line);
      }
    };
    return this.tryFrom({ op, frame, place: inner, handle, ok }, 0);
  }

  /** Runs the try body statement by statement from `i`, so a failure knows how much of the body it skipped. */
  private tryFrom(run: TryRun, i: number): Flow {
    const { op, frame, place, handle } = run;
    for (; i < op.body.length; i++) {
      let r: Flow;
      try {
        r = this.one(op.body[i] as Op, frame, place);
      } catch (e) {
        return handle(e, i);
      }
      if (r === undefined) continue;
      if (r instanceof Promise) {
        const at = i;
        return r.then(
          (v) => (v !== undefined ? v : this.tryFrom(run, at + 1)),
          (e: unknown) => handle(e, at),
        );
      }
      return r;
    }
    run.ok();
    return undefined;
  }

  private async(op: AsyncOp, frame: Frame): void {
    const id = op.args[0];
    if (op.args.length !== 1 || id === undefined || id.empty) {
      throw RunFailure.of('argument-error', 'go_async needs an id: go_async(id)');
    }
    const key = pyStr(frame.resolve(id));
    if (this.tasks.has(key) && !this.tasks.get(key)?.settled) {
      throw RunFailure.of('argument-error', `go_async: the block '${key}' is still running`);
    }
    const copy = (m: Map<string, Value>): Map<string, Value> => {
      const out = new Map<string, Value>();
      for (const [k, v] of m) out.set(k, deepCopy(v));
      return out;
    };
    const vars = copy(frame.vars);
    const child = new Frame(this, {
      vars,
      locals: frame.locals ? copy(frame.locals) : null,
      shadow: copy(frame.shadow),
      root: frame.root,
    });
    let flow: Flow;
    try {
      flow = this.block(op.body, 0, child, { logged: false, depth: 1, calls: 0, inFunction: false });
    } catch (e) {
      flow = Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    const task: Task = { done: Promise.resolve(), settled: false };
    task.done = Promise.resolve(flow)
      .then(
        () => undefined,
        (e: unknown) => {
          const failure = isRunFailure(e) ? e : RunFailure.of('internal-error', String(e));
          if (!this.mainDone) {
            this.logs.push({
              command: 'go_async',
              line: failure.line || op.line,
              success: false,
              error: failure.message,
            });
          }
        },
      )
      .finally(() => {
        task.settled = true;
      });
    this.tasks.set(key, task);
  }

  gather(id: string, timeoutMs: number): Promise<void> {
    const task = this.tasks.get(id);
    if (!task) return Promise.reject(RunFailure.of('argument-error', `gather: no go_async('${id}') block has started`));
    if (task.settled || !Number.isFinite(timeoutMs)) return task.done;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          RunFailure.of('gather-timeout', `gather: the block '${id}' did not finish within ${timeoutMs / 1000} s`),
        );
      }, timeoutMs);
      void task.done.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private return(op: ReturnOp, frame: Frame, place: Place): Flow {
    const value = op.expr ? frame.evaluate(op.expr) : null;
    if (!place.inFunction) return undefined; // the reference ignores a return outside a function
    if (place.depth > 0) frame.note('return-inside-block');
    return { value };
  }

  // ----------------------------------------------------------------- calls

  private call(op: CallOp, frame: Frame, place: Place): Flow {
    if (op.fn !== undefined)
      return this.callFunction(op, this.program.functions.get(op.fn) as FunctionDef, frame, place);
    const cmd = op.command;
    if (!cmd) throw RunFailure.of('unknown-command', `Command not found: ${op.name}`);
    let args = op.args;
    let supplied = false;
    if (
      op.target !== undefined &&
      cmd.target !== undefined &&
      args.length === cmd.target &&
      cmd.target === cmd.arity[1] - 1
    ) {
      args = [...args, argSpec(op.target)];
      supplied = true;
    }
    if (args.length < cmd.arity[0] || args.length > cmd.arity[1]) {
      const [min, max] = cmd.arity;
      throw RunFailure.of(
        'argument-error',
        `${cmd.name} takes ${min === max ? min : `${min} to ${max}`} arguments, got ${args.length}`,
      );
    }
    const call = new Call(frame, op.line, cmd.name, args);
    const after = (): undefined => {
      if (op.target === undefined || supplied) return undefined;
      const targetArg = cmd.target === undefined ? undefined : args[cmd.target];
      const value = targetArg === undefined || targetArg.empty ? undefined : frame.get(targetArg.text);
      frame.set(op.target, value === undefined ? null : value);
      return undefined;
    };
    const r = cmd.run(call);
    if (r instanceof Promise) return r.then(after);
    return after();
  }

  private callFunction(op: CallOp, fn: FunctionDef, frame: Frame, place: Place): Flow {
    if (place.calls >= MAX_CALL_DEPTH) {
      throw RunFailure.of('recursion-limit', `maximum recursion depth exceeded (${MAX_CALL_DEPTH} nested calls)`);
    }
    const locals = new Map<string, Value>();
    fn.params.forEach((param, i) => {
      const spec = op.args[i];
      if (spec === undefined || spec.empty) return;
      let value = frame.resolve(spec);
      frame.checkReference(spec, value);
      // The reference turns digit-only text into an int when it passes it.
      if (typeof value === 'string' && /^[0-9]+$/.test(value)) value = int(Number(value));
      locals.set(param, value);
    });
    const callee = new Frame(this, { vars: frame.vars, locals, shadow: new Map(locals), root: frame.root });
    callee.line = op.line;
    const own = frame.changes;
    const finish = (ret: undefined | Returned): undefined => {
      frame.changes = own;
      frame.line = op.line;
      if (op.target !== undefined) frame.set(op.target, ret === undefined ? null : ret.value);
      return undefined;
    };
    const r = this.block(fn.body, 0, callee, { logged: false, depth: 0, calls: place.calls + 1, inFunction: true });
    if (r instanceof Promise) return r.then(finish);
    return finish(r);
  }
}

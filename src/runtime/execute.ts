/**
 * execute(): one run of a program for one request. It never throws and never
 * hangs on its own: the step budget ends a runaway program, the signal
 * cancels it, and every outcome is a RunResult.
 */
import { programOf } from './compile';
import { toInt } from './expressions/evaluate';
import { isRunFailure, RunFailure } from './failure';
import { Interpreter } from './interpreter';
import type { RuntimePorts } from './ports';
import type { RunError, RunLimits, RunRequest, RunResult } from './types';
import { fromPlain, setPlain, toPlain, type Value } from './values';

/** `_status` when it reads as an integer from 100 to 599 (as the reference reads it), else 200. */
function statusOf(globals: ReadonlyMap<string, Value>): number {
  const raw = globals.get('_status');
  if (raw === undefined) return 200;
  try {
    const n = toInt(raw);
    return n >= 100 && n <= 599 ? n : 200;
  } catch {
    return 200;
  }
}

function plainObject(map: ReadonlyMap<string, Value>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of map) setPlain(out, k, toPlain(v));
  return out;
}

function errorOf(e: unknown): RunError {
  const failure = isRunFailure(e) ? e : RunFailure.internal(e instanceof Error ? e.message : String(e));
  return { line: failure.line, command: failure.command, message: failure.message, code: failure.code };
}

export async function execute(
  source: string,
  request: RunRequest,
  ports: RuntimePorts,
  limits: RunLimits,
): Promise<RunResult> {
  let run: Interpreter | undefined;
  try {
    const globals = new Map<string, Value>();
    for (const [k, v] of Object.entries(request.variables ?? {})) globals.set(k, fromPlain(v));
    run = new Interpreter({
      program: programOf(source),
      request,
      ports,
      signal: limits.signal,
      maxSteps: Math.max(0, limits.maxSteps),
      trace: limits.trace === true,
      ...(limits.maxTraceSteps !== undefined ? { maxTraceSteps: limits.maxTraceSteps } : {}),
      globals,
    });
    let error: RunError | undefined;
    try {
      const flow = run.main();
      if (flow instanceof Promise) await flow;
    } catch (e) {
      error = errorOf(e);
    }
    const result: RunResult = {
      status: error ? 500 : statusOf(run.globals),
      result: plainObject(run.results),
      variables: plainObject(run.globals),
      logs: [...run.logs],
      portability: [...run.notes.notes],
      ...(error ? { error } : {}),
      ...(run.steps ? { steps: [...run.steps] } : {}),
      ...(run.stepsOmitted > 0 ? { stepsOmitted: run.stepsOmitted } : {}),
    };
    // The response is decided: go_async blocks still waiting on a port are stopped (their port call is aborted).
    run.close();
    await run.finish();
    return result;
  } catch (e) {
    return {
      status: 500,
      result: run ? plainObject(run.results) : {},
      variables: run ? plainObject(run.globals) : {},
      logs: run ? [...run.logs] : [],
      portability: run ? [...run.notes.notes] : [],
      error: errorOf(e),
    };
  } finally {
    run?.close();
  }
}

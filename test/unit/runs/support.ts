/** Real runs for the tests of src/runs: the interpreter over the runtime's in-memory ports, with its trace. */
import { execute, type RunRequest, type RunResult } from '../../../src/runtime';
import { ports } from '../runtime/fakes';

export function get(query: Record<string, string> = {}): RunRequest {
  return { method: 'GET', query, headers: {}, body: null };
}

export function traced(source: string, request: RunRequest = get(), maxTraceSteps?: number): Promise<RunResult> {
  return execute(source, request, ports(), {
    maxSteps: 100_000,
    trace: true,
    ...(maxTraceSteps !== undefined ? { maxTraceSteps } : {}),
  });
}

/** A program in the examples' style: the verdict for an age. */
export const AGE_CHECK = [
  '// Answers "adult" or "minor" for the "age" request parameter.',
  'addParam(age, years)',
  'if(years, 18, >=)',
  '  addVar(verdict, "adult")',
  'else()',
  '  addVar(verdict, "minor")',
  'end()',
  'addResult(verdict)',
  '',
].join('\n');

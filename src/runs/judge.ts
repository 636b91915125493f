/**
 * A test case judged for people: whether the run met the case (the sandbox's `caseFailures`, the rules of
 * `avap test`), the expected and the actual side by side as two JSON texts for a diff — the actual cut to what
 * the case names, so the diff shows only what was asked — and the line of the program that produced the first
 * wrong value, where the run's trace can tell:
 *
 * - a wrong `result.KEY…`: the last statement that set the variable KEY (`addResult(KEY)` answers it), else the
 *   `addResult(KEY)` line itself;
 * - a wrong `status`: the last statement that set `_status`;
 * - a run that ended on an uncaught error: the error's line.
 *
 * Pure.
 */
import type { StepRecord } from '../runtime';
import { caseFailures, type RunResult, type TestCase } from '../runtime/host';
import { parseSyntax } from '../syntax';

export interface CaseVerdict {
  passed: boolean;
  /** Why it failed, one line each (empty when it passed). */
  failures: string[];
  /** The expectations, as indented JSON. */
  expected: string;
  /** What the run gave for the same fields, as indented JSON. */
  actual: string;
  /** 1-based line of the program that produced the first wrong value, when it can be known. */
  line?: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `actual` cut to the shape of `expected`: the keys it names, list items in place; anything else as it is.
 * @internal
 */
export function projectOnto(expected: unknown, actual: unknown): unknown {
  if (Array.isArray(expected) && Array.isArray(actual))
    return actual.map((item: unknown, i) => (i < expected.length ? projectOnto(expected[i], item) : item));
  if (isRecord(expected) && isRecord(actual)) {
    // Own keys only, and defined as own (Object.fromEntries): a result's `toString` or `__proto__` is a name like any.
    return Object.fromEntries(
      Object.keys(expected)
        .filter((key) => Object.hasOwn(actual, key))
        .map((key) => [key, projectOnto(expected[key], actual[key])]),
    );
  }
  return actual;
}

/**
 * The path of the first place where `actual` does not contain `expected` (deep subset), or undefined.
 * @internal
 */
export function firstMismatch(expected: unknown, actual: unknown, at: string[] = []): string[] | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return at;
    for (const [i, item] of expected.entries()) {
      const miss = firstMismatch(item, actual[i], [...at, String(i)]);
      if (miss) return miss;
    }
    return undefined;
  }
  if (isRecord(expected)) {
    if (!isRecord(actual)) return at;
    for (const [key, value] of Object.entries(expected)) {
      if (!Object.hasOwn(actual, key)) return [...at, key];
      const miss = firstMismatch(value, actual[key], [...at, key]);
      if (miss) return miss;
    }
    return undefined;
  }
  return Object.is(expected, actual) || expected === actual ? undefined : at;
}

/** The last step that set `name`. */
function lastSetting(steps: readonly StepRecord[], name: string): StepRecord | undefined {
  for (let i = steps.length - 1; i >= 0; i--) if (name in (steps[i] as StepRecord).changes) return steps[i];
  return undefined;
}

/** The line of an `addResult(key)` statement. */
function addResultLine(source: string, key: string): number | undefined {
  for (const s of parseSyntax(source).statements) {
    if (s.kind === 'call' && s.name.text === 'addResult' && s.args[0]?.text.trim() === key) return s.line;
  }
  return undefined;
}

/** Where the first wrong value of a failed case was produced. */
function blame(test: TestCase, result: RunResult, source: string): number | undefined {
  if (result.error && result.error.line > 0) return result.error.line;
  const steps = result.steps ?? [];
  if (test.expect.status !== undefined && test.expect.status !== result.status)
    return lastSetting(steps, '_status')?.line;
  if (test.expect.result !== undefined) {
    const path = firstMismatch(test.expect.result, result.result);
    const key = path?.[0];
    if (key !== undefined) return lastSetting(steps, key)?.line ?? addResultLine(source, key);
  }
  return undefined;
}

/** What the run gave for the fields the case names. */
function actualFor(test: TestCase, result: RunResult): Record<string, unknown> {
  const { expect } = test;
  const out: Record<string, unknown> = {};
  if (expect.status !== undefined) out.status = result.status;
  if (expect.result !== undefined) out.result = projectOnto(expect.result, result.result);
  const error = result.error;
  if (expect.error === undefined) {
    // Nothing said about errors: an uncaught one is shown, as it is what failed the case.
    if (error) out.error = error;
  } else if (typeof expect.error === 'boolean') out.error = error !== undefined;
  else if (typeof expect.error === 'string') out.error = error ? error.code : false;
  else out.error = error ? projectOnto(expect.error, error) : false;
  return out;
}

function expectedFor(test: TestCase): Record<string, unknown> {
  const { expect } = test;
  return {
    ...(expect.status !== undefined ? { status: expect.status } : {}),
    ...(expect.result !== undefined ? { result: expect.result } : {}),
    ...(expect.error !== undefined ? { error: expect.error } : {}),
  };
}

export function judgeCase(test: TestCase, result: RunResult, source: string): CaseVerdict {
  const failures = caseFailures(test.expect, result);
  const passed = failures.length === 0;
  const line = passed ? undefined : blame(test, result, source);
  return {
    passed,
    failures,
    expected: JSON.stringify(expectedFor(test), null, 2),
    actual: JSON.stringify(actualFor(test, result), null, 2),
    ...(line !== undefined ? { line } : {}),
  };
}

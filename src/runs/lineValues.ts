/**
 * Values in the code, as Quokka shows them: from a run's step trace, for each line that assigned variables, the
 * values it assigned the last time it ran — a short text for the end of the line and the whole values for a
 * hover. A line that assigned several times (a loop's body, the loop's counter) says how many times. Pure.
 */
import type { StepRecord } from '../runtime';
import { fullValue, shortValue } from './values';

export interface LineValue {
  /** 1-based line of the program. */
  line: number;
  /** What the line assigned the last time it ran, in order: name → value. */
  values: Record<string, unknown>;
  /** How many times the line assigned (a loop's body: once per pass). */
  times: number;
  /** The short text shown at the end of the line: `total = 10` or `a = 1, b = "x"` (`×N` when it assigned N > 1 times). */
  text: string;
  /** The whole values, for a hover (Markdown-free text: `name = value` blocks). */
  detail: string;
}

export interface LineValuesOptions {
  /** Characters of the short text at most (default 80). */
  maxText?: number;
  /** Steps the run executed but did not record (RunResult.stepsOmitted): the values are then from the first steps. */
  omitted?: number;
}

/** The values each line assigned, line by line in order. Lines that assigned nothing are left out. */
export function lineValues(steps: readonly StepRecord[], options: LineValuesOptions = {}): LineValue[] {
  const maxText = options.maxText ?? 80;
  const last = new Map<number, Record<string, unknown>>();
  const times = new Map<number, number>();
  for (const step of steps) {
    if (Object.keys(step.changes).length === 0) continue;
    last.set(step.line, step.changes);
    times.set(step.line, (times.get(step.line) ?? 0) + 1);
  }
  const out: LineValue[] = [];
  for (const line of [...last.keys()].sort((a, b) => a - b)) {
    const values = last.get(line) ?? {};
    const count = times.get(line) ?? 1;
    const names = Object.keys(values);
    // Each value gets a fair share of the room; the whole is cut to the room again.
    const share = Math.max(12, Math.floor(maxText / names.length) - 4);
    const joined = names.map((name) => `${name} = ${shortValue(values[name], share)}`).join(', ');
    const suffix = count > 1 ? `  ×${count}` : '';
    const room = maxText - suffix.length;
    const text = (joined.length > room ? `${joined.slice(0, Math.max(1, room - 1))}…` : joined) + suffix;
    const ranNote = count > 1 ? `Line ${line} assigned ${count} times; the last time:` : `Line ${line} assigned:`;
    const partial = options.omitted
      ? `\n(The trace holds the run's first ${steps.length} steps of ${steps.length + options.omitted}; later passes are not shown.)`
      : '';
    const detail = `${ranNote}${partial}\n\n${names.map((name) => `${name} = ${fullValue(values[name])}`).join('\n')}`;
    out.push({ line, values, times: count, text, detail });
  }
  return out;
}

/**
 * Which divergences between the specification and AVAP Lite a knowledge
 * example depends on (docs/facts/reference): the runtime reports them as portability
 * notes, and the example declares the same set — a pool or golden entry in
 * `divergences`, a document's outcome in the `Divergences:` line after it —
 * so nothing depends on a divergence without saying so, and no declaration
 * outlives the dependence.
 *
 * `command-not-in-reference` is kept apart: it is not a behaviour that
 * differs but a command AVAP Lite lacks, which a pool example's `commands`
 * already names (and a document's `Outcome (specification):` marks). Declaring
 * it on 140 examples would bury the notes that matter in the few-shot prompts.
 */
import type { RunResult } from '../../../src/runtime';
import { COMMANDS } from '../../../src/runtime/commands';

/** The rule kept apart from the declarations. */
export const MISSING_COMMAND = 'command-not-in-reference';

/** The divergences a set of runs reports, sorted, without MISSING_COMMAND. */
export function reportedDivergences(runs: readonly RunResult[]): string[] {
  const rules = new Set(runs.flatMap((r) => r.portability.map((n) => n.rule)));
  rules.delete(MISSING_COMMAND);
  return [...rules].sort();
}

/** Whether any run reports a command AVAP Lite lacks. */
export function reportsMissingCommand(runs: readonly RunResult[]): boolean {
  return runs.some((r) => r.portability.some((n) => n.rule === MISSING_COMMAND));
}

/** The commands of a list that AVAP Lite does not run (go_async is a block of ours, not one of its commands). */
export function commandsMissingInReference(commands: readonly string[]): string[] {
  return commands.filter((c) => c === 'go_async' || COMMANDS.get(c)?.inReference === false);
}

/** Why the declaration does not match what the runs report (undefined when it does). */
export function declarationMismatch(
  declared: readonly string[] | undefined,
  reported: readonly string[],
): string | undefined {
  const mine = declared ?? [];
  const undeclared = reported.filter((r) => !mine.includes(r));
  const stale = mine.filter((d) => !reported.includes(d));
  if (undeclared.length === 0 && stale.length === 0) return undefined;
  return [
    undeclared.length ? `its runs depend on ${undeclared.join(', ')} and it does not declare it` : '',
    stale.length ? `it declares ${stale.join(', ')} and no run depends on it` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

/**
 * What a command sees of the run: its arguments, resolved by the rules of
 * their parameter kinds, the variables, the response and the ports. The
 * interpreter implements it (scope.ts); commands never touch the run directly.
 */
import type { ArgSpec } from '../args';
import type { PortabilityRuleId } from '../portability';
import type { RuntimePorts } from '../ports';
import type { RunRequest } from '../types';
import type { Value } from '../values';

export interface CallContext {
  readonly line: number;
  readonly name: string;
  readonly args: readonly ArgSpec[];
  /** Argument `i` as a value (parameter kinds `value` and `variable` read the same way): null when empty or missing. */
  read(i: number): Value;
  /** Notes when the reference would evaluate argument `i` as an expression to another value than `ours`. */
  checkReference(i: number, ours: Value): void;
  /** True when argument `i` is empty or missing. */
  isEmpty(i: number): boolean;
  /** Argument `i` as text, quotes stripped, unresolved (a parameter name, a format). */
  text(i: number): string;
  /** Argument `i` as the name of a variable to write (quotes stripped); an argument error when it is empty. */
  targetName(i: number): string;
  /** The value of a variable, or undefined when it is not set. */
  get(name: string): Value | undefined;
  set(name: string, value: Value): void;
  /** Puts a value in the response (addResult). */
  result(key: string, value: Value): void;
  /** Reports that the run depends on a divergence from the reference. */
  note(rule: PortabilityRuleId, detail?: string): void;
  readonly request: RunRequest;
  readonly ports: RuntimePorts;
  /** Aborted when the run is cancelled or ends. */
  readonly signal: AbortSignal;
  /** Waits for a go_async block (gather). */
  gather(id: string, timeoutMs: number): Promise<void>;
}

export interface CommandDef {
  readonly name: string;
  /** Fewest and most arguments. */
  readonly arity: readonly [number, number];
  /** The argument the result is stored under, when the command has one (so `x = cmd(…)` can supply it). */
  readonly target?: number;
  /** AVAP Lite (init.sql) implements it. */
  readonly inReference: boolean;
  run(call: CallContext): void | Promise<void>;
}

export function command(def: CommandDef): CommandDef {
  return def;
}

/**
 * Calls to names that are not commands, resolved at the end of the file
 * (a function may be defined after its first call): what the analysis keeps
 * of each, and which rule each ends as once every function is known. The
 * analyzer reports them; fix proofs that re-analyse only an edited region
 * (fixes/resync.ts) work out those of the region the same way.
 */
import { Rule, type RuleDefinition } from './catalogue/rules';
import type { CallShape } from './fixes/commands';

type CallContext = 'statement' | 'assignment' | 'expression' | 'argument';

export interface PendingCall {
  name: string;
  argCount: number;
  line: number;
  column: number;
  endColumn: number;
  context: CallContext;
  /** Raw text of the call, for argument-context messages. */
  text: string;
  /** The whole statement the call is, for a fix that rewrites it. */
  shape?: CallShape;
}

export interface FunctionInfo {
  arity: number;
  line: number;
}

/** The rule a pending call is reported under once `functions` are all known, or undefined when it is fine. */
export function pendingRule(
  call: Pick<PendingCall, 'name' | 'argCount' | 'context'>,
  functions: ReadonlyMap<string, FunctionInfo>,
): RuleDefinition | undefined {
  const fn = functions.get(call.name);
  if (fn) {
    if (call.context === 'argument') return Rule.LiteralCall;
    return call.argCount !== fn.arity ? Rule.FunctionArity : undefined;
  }
  return call.context === 'statement' || call.context === 'assignment' ? Rule.UnknownCommand : Rule.UnknownFunction;
}

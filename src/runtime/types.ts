/**
 * What a run takes and gives back. A run never throws: whatever happens, the
 * caller gets a RunResult, with `error` set when the program stopped on an
 * error it did not catch (or on a budget).
 */

/** The HTTP request the endpoint's code runs for. */
export interface RunRequest {
  method: string;
  path?: string;
  /** Query-string parameters; a repeated parameter is a list of its values in order. */
  query: Record<string, string | string[]>;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The parsed JSON body, or the raw text (form data when the content type says so), or undefined. */
  body: unknown;
  /** Variables the run starts with (the reference's `/api/v1/execute` takes them as `variables`). */
  variables?: Record<string, unknown>;
}

export interface RunLimits {
  /** Statements a run may execute (a loop's body counts once per pass); beyond it the run stops with `step-budget`. */
  maxSteps: number;
  /** Aborting it stops the run at its next statement (`cancelled`) and aborts the port call in flight. */
  signal?: AbortSignal;
  /** Record each executed statement in `steps`. */
  trace?: boolean;
  /** With `trace`: record at most this many steps (the first ones) and count the rest in `stepsOmitted`. */
  maxTraceSteps?: number;
}

/** Stable codes of run-time errors (logic switches on these, never on the message). */
export type RunErrorCode =
  | 'unknown-command'
  | 'not-supported'
  | 'syntax-error'
  | 'argument-error'
  | 'type-error'
  | 'value-error'
  | 'index-error'
  | 'key-error'
  | 'zero-division'
  | 'regex-error'
  | 'date-error'
  | 'http-error'
  | 'http-not-recorded'
  | 'http-not-allowed'
  | 'http-network'
  | 'http-timeout'
  | 'sql-error'
  | 'db-unavailable'
  | 'gather-timeout'
  | 'recursion-limit'
  | 'step-budget'
  | 'cancelled'
  | 'internal-error';

export interface RunError {
  /** 1-based line of the statement that failed. */
  line: number;
  /** The command (or statement kind: assign, return, function name) that failed. */
  command: string;
  message: string;
  /** One of RunErrorCode. */
  code: string;
}

/** A run relied on a behaviour where the specification and the reference implementation (AVAP Lite) disagree. */
export interface PortabilityNote {
  line: number;
  /** The rule's id (docs/semantics.md lists each). */
  rule: string;
  /** What the specification says (what this run did). */
  spec: string;
  /** What the reference implementation does instead. */
  reference: string;
}

/** One executed statement: its line, command, and the variables it set (name → new value). */
export interface StepRecord {
  line: number;
  command: string;
  changes: Record<string, unknown>;
}

export interface RunResult {
  /** The HTTP status: `_status` when it is an integer in 100–599, else 200; 500 when the run ended on an error. */
  status: number;
  /** The response object that addResult built. */
  result: Record<string, unknown>;
  /** The namespace at the end of the run. */
  variables: Record<string, unknown>;
  /** One entry per top-level statement, as the reference logs them: {command, success, error?}. */
  logs: unknown[];
  error?: RunError;
  portability: PortabilityNote[];
  steps?: StepRecord[];
  /** Steps executed but not recorded, beyond `maxTraceSteps`. */
  stepsOmitted?: number;
}

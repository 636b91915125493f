/**
 * The AVAP runtime: runs a program for a request with the language's semantics
 * (docs/semantics.md) and returns what the endpoint answers. Editor-free; all
 * I/O goes through the ports, so the sandbox host (host/) decides what is real.
 *
 *   const run = await execute(source, { method: 'GET', query: { id: '7' }, headers: {}, body: undefined },
 *                             ports, { maxSteps: 100_000 });
 *   run.status; run.result; run.error?.code; run.portability
 */
export type {
  ClockPort,
  DatabasePort,
  DbAnswer,
  DbFailureKind,
  HttpAnswer,
  HttpCall,
  HttpFailureKind,
  HttpPort,
  RandomPort,
  RuntimePorts,
} from './ports';
export type { PortabilityNote, RunError, RunLimits, RunRequest, RunResult, StepRecord } from './types';
export { execute } from './execute';
export { /** @internal */ PORTABILITY_RULES } from './portability';

/**
 * In-memory fake of the parser port (`ParserPort`, src/core/types.ts): the real parser library in-process, or
 * any outcome a test needs, behind a circuit that never moves. Tests of the breaker and the transports use the real
 * `BreakerParser` over a fake `ParserTransport` or a real gRPC service instead.
 */
import type { CircuitSnapshot, ParserOutcome, ParserPort } from '../../../src/core';
import { validateAvap } from '../../../src/parser';

/**
 * What each call answers: `'real'` (the parser library's verdict), `'down'` (unavailable: transport),
 * `'disabled'` (unavailable: disabled — the call is not counted as a source), a fixed outcome, or a function
 * consulted on every call.
 */
export type ParserAnswer =
  'real' | 'down' | 'disabled' | ParserOutcome | ((source: string, filename: string) => ParserOutcome);

export type FakeParser = ParserPort & {
  /** The sources sent for validation, in order. */
  sources: string[];
  /** How many calls reached the port (disabled ones too). */
  calls: number;
};

const CLOSED_CIRCUIT: CircuitSnapshot = { state: 'closed', consecutiveFailures: 0 };

/** The parser library's verdict, as the bundled service would answer. */
export function libraryOutcome(source: string, filename: string): ParserOutcome {
  return { kind: 'validated', result: validateAvap(source, { filename }) };
}

export function fakeParser(answer: ParserAnswer = 'real', circuit: CircuitSnapshot = CLOSED_CIRCUIT): FakeParser {
  const outcome = (source: string, filename: string): ParserOutcome => {
    if (answer === 'real') return libraryOutcome(source, filename);
    if (answer === 'down') return { kind: 'unavailable', reason: 'transport', detail: 'ECONNREFUSED' };
    if (answer === 'disabled') return { kind: 'unavailable', reason: 'disabled', detail: 'off' };
    return typeof answer === 'function' ? answer(source, filename) : answer;
  };
  const port: FakeParser = {
    sources: [],
    calls: 0,
    validate: (source, filename) => {
      port.calls += 1;
      if (answer !== 'disabled') port.sources.push(source);
      return Promise.resolve(outcome(source, filename));
    },
    circuit: () => circuit,
    resetCircuit: () => undefined,
    onCircuitChange: () => () => undefined,
  };
  return port;
}

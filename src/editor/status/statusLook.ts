/**
 * The three looks of validation state, shared by the status bar and the chat
 * view. Pure: the adapters map `background` to theme colours and `icon` to codicons.
 */
import type { CircuitSnapshot, ValidationStatus } from '../../core';

export type DocumentValidation =
  | { kind: 'valid'; warnings: number }
  | { kind: 'invalid'; errors: number; warnings: number }
  | { kind: 'unavailable'; reason: string; detail: string }
  | { kind: 'pending' }
  | { kind: 'disabled' };

export type LookKind = 'valid' | 'invalid' | 'unavailable' | 'pending' | 'disabled';

export interface StatusLook {
  kind: LookKind;
  /** Codicon name, without `$()`. */
  icon: string;
  /** Short label (without the icon). */
  label: string;
  background?: 'error' | 'warning';
  tooltip: string;
}

export const LABEL_VALID = 'AVAP: valid';
export const LABEL_INVALID = 'AVAP: invalid';
export const LABEL_UNAVAILABLE = 'AVAP: unvalidated — parser unavailable';
/** An answer generated while retrieval failed. */
export const LABEL_NO_CONTEXT = 'answered without documentation context';
/** A valid answer that is the model's answer repaired by the parser's proven fixes (no LLM retry). */
export const LABEL_REPAIRED = "repaired by the parser's fixes";
/** Streamed text before the parser's verdict: a draft, never shown with a valid look. */
export const LABEL_VALIDATING = 'AVAP: validating… (draft)';

/** True when two looks show the same (the status item is only updated when its look changes). */
export function sameLook(a: StatusLook, b: StatusLook | undefined): boolean {
  return (
    b !== undefined &&
    a.kind === b.kind &&
    a.icon === b.icon &&
    a.label === b.label &&
    a.background === b.background &&
    a.tooltip === b.tooltip
  );
}

/**
 * How the circuit (an open one with its next probe) reads for a person; a parser not connected yet has none.
 * @internal
 */
export function describeCircuit(circuit: CircuitSnapshot, now: number): string {
  switch (circuit.state) {
    case 'not-connected':
      return 'Parser: not connected yet';
    case 'closed':
      return circuit.consecutiveFailures > 0
        ? `Circuit: CLOSED (${circuit.consecutiveFailures} consecutive failure${circuit.consecutiveFailures === 1 ? '' : 's'})`
        : 'Circuit: CLOSED';
    case 'half-open':
      return 'Circuit: HALF-OPEN — probing the parser now';
    case 'disabled':
      return 'Circuit: validation disabled (avap.parser.timeout is 0)';
    case 'open': {
      if (circuit.nextProbeAt === undefined) return 'Circuit: OPEN — next probe with the next validation';
      const seconds = Math.max(0, Math.ceil((circuit.nextProbeAt - now) / 1000));
      const at = new Date(circuit.nextProbeAt).toLocaleTimeString();
      return seconds === 0
        ? `Circuit: OPEN — next probe with the next validation (cooldown over at ${at})`
        : `Circuit: OPEN — next probe in ${seconds} s (at ${at})`;
    }
  }
}

export function statusLook(state: DocumentValidation, circuit: CircuitSnapshot, now: number): StatusLook {
  const circuitLine = describeCircuit(circuit, now);
  switch (state.kind) {
    case 'valid':
      return {
        kind: 'valid',
        icon: 'check',
        label:
          state.warnings > 0
            ? `${LABEL_VALID} (${state.warnings} warning${state.warnings === 1 ? '' : 's'})`
            : LABEL_VALID,
        tooltip: `The AVAP parser accepts this document.\n${circuitLine}`,
      };
    case 'invalid':
      return {
        kind: 'invalid',
        icon: 'error',
        label: `${LABEL_INVALID} (${state.errors} error${state.errors === 1 ? '' : 's'})`,
        background: 'error',
        tooltip:
          `The AVAP parser rejects this document: ${state.errors} error(s), ${state.warnings} warning(s). ` +
          `See the Problems panel; quick fixes apply the parser's suggestions.\n${circuitLine}`,
      };
    case 'unavailable':
      return {
        kind: 'unavailable',
        icon: 'debug-disconnect',
        label: LABEL_UNAVAILABLE,
        background: 'warning',
        tooltip:
          `Not validated: ${state.detail}. Nothing was proven wrong, so no squiggles are shown.\n${circuitLine}\n` +
          'Click to reset the parser circuit and validate again.',
      };
    case 'pending':
      return {
        kind: 'pending',
        icon: 'sync~spin',
        label: 'AVAP: validating…',
        tooltip: `Asking the AVAP parser.\n${circuitLine}`,
      };
    case 'disabled':
      return {
        kind: 'disabled',
        icon: 'circle-slash',
        label: 'AVAP: validation off',
        background: 'warning',
        tooltip: 'Validation is disabled (avap.parser.timeout is 0). Generated code is returned unvalidated.',
      };
  }
}

/** A generated answer still streaming: no verdict yet, so nothing that could read as valid. */
export function draftLook(): StatusLook {
  return {
    kind: 'pending',
    icon: 'sync~spin',
    label: LABEL_VALIDATING,
    tooltip: 'A draft: the answer is still being generated; it is validated before it can be accepted.',
  };
}

/** The pipeline's final status in the same visual language (chat view, generated-code preview). */
export function lookForPipelineStatus(
  status: ValidationStatus,
  hasCode: boolean,
): { kind: LookKind; icon: string; label: string } | undefined {
  if (!hasCode) return undefined;
  switch (status) {
    case '':
      return { kind: 'valid', icon: 'check', label: LABEL_VALID };
    case 'INVALID_UNRESOLVED':
      return { kind: 'invalid', icon: 'error', label: LABEL_INVALID };
    case 'PARSER_UNAVAILABLE':
      return { kind: 'unavailable', icon: 'debug-disconnect', label: LABEL_UNAVAILABLE };
  }
}

/** The parser's state as the language status item shows it beside the language mode (`{}` AVAP). */
export interface LanguageStatusView {
  /** The look's icon and word without the `AVAP: ` prefix (the item sits beside "AVAP" already). */
  text: string;
  /** The circuit breaker's state. */
  detail: string;
  /**
   * invalid → error (the workbench's `{}` turns into a bracket-error icon, a red error mark in the hover);
   * unvalidated and validation off → warning (a bracket-dot icon, the hover's blue mark); otherwise information.
   */
  severity: 'information' | 'warning' | 'error';
  busy: boolean;
}

export function languageStatusView(look: StatusLook, circuit: CircuitSnapshot, now: number): LanguageStatusView {
  return {
    text: `$(${look.icon}) ${look.label.replace(/^AVAP: /, '')}`,
    detail: describeCircuit(circuit, now),
    severity:
      look.kind === 'invalid'
        ? 'error'
        : look.kind === 'unavailable' || look.kind === 'disabled'
          ? 'warning'
          : 'information',
    busy: look.kind === 'pending',
  };
}

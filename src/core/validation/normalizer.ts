/**
 * The error normalizer: turns structured validation errors into the repair
 * instructions that go into the retry prompt. Pure and separate from the
 * prompt text itself, so the instructions can be tested on their own.
 */
import type { ValidationError } from './errors';

/**
 * One instruction per error, deduplicated, in line order, then one per warning
 * (marked as one): an entry the parser has a proven fix for gets that fix.
 * Only a retry reads them, and only errors cause a retry; when one happens the
 * warnings ride along, so the retry does not keep a semantic trap either.
 */
export function repairInstructions(errors: readonly ValidationError[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const byLine = (a: ValidationError, b: ValidationError) => (a.line ?? 0) - (b.line ?? 0);
  const sorted = [
    ...errors.filter((e) => e.severity === 'error').sort(byLine),
    ...errors.filter((e) => e.severity !== 'error').sort(byLine),
  ];
  for (const error of sorted) {
    const text = instruction(error);
    if (seen.has(text)) continue;
    seen.add(text);
    out.push(text);
  }
  return out;
}

function quoted(value: string): string {
  return value ? `'${value}'` : 'it';
}

/** @internal */
export function instruction(error: ValidationError): string {
  const at = `${error.line !== undefined ? `Line ${error.line}: ` : ''}${error.severity === 'warning' ? 'warning: ' : ''}`;
  // The parser checked this repair on the program itself: say exactly that, whatever the E-code.
  if (error.fix)
    return `${at}${error.fix.title.charAt(0).toLowerCase()}${error.fix.title.slice(1)} — the parser checked this fix.`;
  switch (error.code) {
    case 'E001':
      return /^[A-Za-z_]\w*$/.test(error.expected)
        ? `${at}replace ${quoted(error.received)} with ${quoted(error.expected)}.`
        : `${at}${quoted(error.received)} is not an AVAP command — use ${error.expected}.`;
    case 'E002':
      return `${at}remove the foreign keyword ${quoted(error.received)} — ${error.expected}.`;
    case 'E003':
      return `${at}rewrite ${quoted(error.received)} in AVAP form — ${error.expected}.`;
    case 'E004':
      return `${at}${error.message}; call it with the catalogue's arguments.`;
    case 'E005':
      return `${at}${error.message}.`;
    case 'E007':
      return 'The retrieved context was not relevant; rely on the AVAP commands you know are documented.';
    case 'E008':
      return `Answer with JSON matching the schema: ${error.message}`;
    case 'E009':
      return 'Answer with the complete AVAP program in one ```avap fenced block.';
    default:
      return `${at}${error.message}.`;
  }
}

/**
 * The identity of an error for convergence checks: (rule code — or the E-code
 * of an error that no parser rule reported —, field, line, received value).
 * Never the message, so rewording a message cannot make an error look new.
 */
export function errorKey(error: ValidationError): string {
  return `${error.rule ?? error.code}|${error.field}|${error.line ?? ''}|${error.received}`;
}

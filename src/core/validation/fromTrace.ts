/** Maps parser trace entries onto the validation contract's structured errors. Pure. */
import type { TraceEntry } from '../../parser/types';
import type { ContractResult, ErrorCode, ValidationError } from './contract';

const BLOCK_WORDS = new Set(['if', 'else', 'end', 'startLoop', 'endLoop', 'try', 'exception', 'go_async', '}', '{']);
const ARITY = /\bexpects\b.*\bgot \d+|takes no arguments, got \d+/;
const BLOCK = /not closed before|outside an? \w+\(\) block|without an? (open|matching)|still open|closed without an exception|opened on line \d+ is not closed|without an opening/;

function codeOf(entry: TraceEntry): { code: ErrorCode; field: string } {
  switch (entry.category) {
    case 'unknown_token': return { code: 'E001', field: 'command' };
    case 'foreign_keyword': return { code: 'E002', field: 'keyword' };
    case 'unexpected_construct':
      return BLOCK.test(entry.message) ? { code: 'E005', field: 'block' } : { code: 'E003', field: 'statement' };
    case 'syntax_error':
      if (ARITY.test(entry.message)) return { code: 'E004', field: 'arguments' };
      if (BLOCK.test(entry.message) || (BLOCK_WORDS.has(entry.token.replace(/\(.*$/, '')) && /\b(block|opened|closer|end\(\)|endLoop\(\))/.test(entry.message))) {
        return { code: 'E005', field: 'block' };
      }
      return { code: 'E006', field: 'syntax' };
  }
}

function expectedOf(entry: TraceEntry, code: ErrorCode): string {
  if (entry.suggestion) return entry.suggestion;
  const dash = entry.message.indexOf(' — ');
  if (dash >= 0) return entry.message.slice(dash + 3);
  switch (code) {
    case 'E001': return 'a command of the AVAP catalogue or a function defined in the file';
    case 'E002': return 'AVAP syntax';
    case 'E004': return 'the catalogue arity';
    case 'E005': return 'balanced blocks';
    default: return 'valid AVAP';
  }
}

export function errorFromTrace(entry: TraceEntry, lineOffset = 0): ValidationError {
  const { code, field } = codeOf(entry);
  return {
    code,
    field,
    expected: expectedOf(entry, code),
    received: entry.token,
    severity: entry.severity,
    line: entry.line + lineOffset,
    message: entry.message,
  };
}

export function contractFromTrace(trace: readonly TraceEntry[], lineOffset = 0): ContractResult {
  const errors = trace.map((e) => errorFromTrace(e, lineOffset));
  return { isValid: !errors.some((e) => e.severity === 'error'), errors };
}

/**
 * The one place that decides an answer's `validation_status` (D1 RC-07). Pure.
 *
 * The status is earned from what the parser said about every AVAP code block
 * the user is shown in the final answer:
 *
 * | check         | meaning                                         | status               |
 * |---------------|-------------------------------------------------|----------------------|
 * | `no-code`     | the answer shows no AVAP code                   | `""`                 |
 * | `valid`       | the parser validated every block                | `""`                 |
 * | `invalid`     | the parser rejected at least one block          | `INVALID_UNRESOLVED` |
 * | `unavailable` | some block has no verdict (parser down/disabled) | `PARSER_UNAVAILABLE` |
 *
 * A run that fails or is cancelled before a verdict has no status at all
 * (`undefined`): it makes no validity claim. An `invalid` answer is retried
 * with the parser's trace only while the request's retry cycle is unused.
 */
import type { ValidationStatus } from '../types';

export type CodeCheck = 'no-code' | 'valid' | 'invalid' | 'unavailable';

/** @internal */
export const CODE_CHECKS: readonly CodeCheck[] = ['no-code', 'valid', 'invalid', 'unavailable'];

/** The status an answer with this check earns. */
export function statusOf(check: CodeCheck): ValidationStatus {
  switch (check) {
    case 'no-code':
    case 'valid':
      return '';
    case 'invalid':
      return 'INVALID_UNRESOLVED';
    case 'unavailable':
      return 'PARSER_UNAVAILABLE';
  }
}

/** Combines the checks of several blocks: evidence of invalid code wins, then a missing verdict. */
export function combineChecks(checks: readonly CodeCheck[]): CodeCheck {
  if (checks.includes('invalid')) return 'invalid';
  if (checks.includes('unavailable')) return 'unavailable';
  if (checks.includes('valid')) return 'valid';
  return 'no-code';
}

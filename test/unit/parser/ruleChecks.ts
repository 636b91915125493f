import assert from 'node:assert/strict';
import { isRuleCode, ruleOf, type TraceEntry } from '../../../src/parser';

/**
 * An entry the parser reported follows its rule: a code of the catalogue that
 * the parser itself reports, the rule's category and severity, and a
 * suggestion only where the rule has one, quoted in the message exactly when
 * the rule says so (what the editor relies on to spell it out or not).
 */
export function assertFollowsItsRule(entry: TraceEntry): void {
  const where = `${entry.code} on line ${entry.line}: ${entry.message}`;
  assert.ok(isRuleCode(entry.code), `not a catalogue code: ${where}`);
  const rule = ruleOf(entry.code);
  assert.notEqual(rule.origin, 'protocol', `the parser reported a protocol-only rule: ${where}`);
  assert.equal(entry.category, rule.category, where);
  assert.equal(entry.severity, rule.severity, where);
  if (entry.suggestion === undefined) return;
  assert.ok(rule.suggestion, `a suggestion on a rule without one: ${where}`);
  assert.equal(
    entry.message.includes(`'${entry.suggestion}'`),
    rule.suggestion === 'quoted',
    `suggestion '${entry.suggestion}' vs style ${rule.suggestion}: ${where}`,
  );
}

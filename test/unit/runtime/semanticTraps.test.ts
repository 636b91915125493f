/**
 * The parser's semantic warnings (rules with `semantic: true`: valid code
 * that does something else than it says) against what the runtime does
 * (docs/semantics.md, docs/facts/reference): for every such rule, programs with the trap
 * draw the warning and, run, give the surprising answer the warning names;
 * the program written as the true advice says gives the intended answer.
 *
 * The parser's own fix (the `fix` it attaches to the warning) is run too. A
 * fix that the runtime contradicts — the fixed program still gives the
 * surprising answer — is listed in CONTRADICTED_FIXES with the reason: it is
 * reported to the parser's owner, and the entry must go when the parser
 * stops offering it (or offers one that works).
 */
import assert from 'node:assert/strict';
import { applyTextEdits, RULES, validateAvap, type RuleCode } from '../../../src/parser';
import type { RunRequest } from '../../../src/runtime';
import { run } from './fakes';

interface Trap {
  name: string;
  rule: RuleCode;
  request?: Partial<RunRequest>;
  /** The program with the trap: it draws `rule`. */
  trap: string;
  /** The response the trap gives: what the warning says will happen. */
  surprising: Record<string, unknown>;
  /** The program as the true advice writes it: it draws nothing. */
  advised: string;
  /** The response the program means. */
  intended: Record<string, unknown>;
}

const TRAPS: Trap[] = [
  {
    name: 'a JSON key that names the parameter just read',
    rule: 'key-names-variable',
    request: { query: { address: 'Gran Via 1' } },
    trap: 'addParam(address, address)\nAddvariableToJSON(address, address, company)\naddResult(company)\n',
    surprising: { company: { 'Gran Via 1': 'Gran Via 1' } },
    advised: 'addParam(address, street)\nAddvariableToJSON("address", street, company)\naddResult(company)\n',
    intended: { company: { address: 'Gran Via 1' } },
  },
  {
    name: 'a lookup key that names a variable set earlier',
    rule: 'key-names-variable',
    trap: 'addVar(plan, "gold")\nrow = {"plan": "basic", "gold": "vip"}\nvariableFromJSON(row, plan, tier)\naddResult(tier)\n',
    surprising: { tier: 'vip' },
    advised:
      'addVar(chosenPlan, "gold")\nrow = {"plan": "basic", "gold": "vip"}\nvariableFromJSON(row, "plan", tier)\naddResult(tier)\n',
    intended: { tier: 'basic' },
  },
  {
    name: "a request parameter's name that names a variable (addParam resolves it, by the specification)",
    rule: 'key-names-variable',
    request: { query: { field: 'name', email: 'ana@example.com' } },
    trap: 'addVar(field, "email")\naddParam(field, value)\naddResult(value)\n',
    surprising: { value: 'ana@example.com' },
    advised: 'addVar(fieldName, "email")\naddParam(field, value)\naddResult(value)\n',
    intended: { value: 'name' },
  },
  {
    name: 'variableFromJSON(row, email, email) inside a loop',
    rule: 'key-overwritten-in-loop',
    trap:
      'rows = [{"email": "ana@example.com"}, {"email": "luis@example.com"}]\nstartLoop(i, 0, 1)\n  itemFromList(rows, i, row)\n' +
      '  variableFromJSON(row, email, email)\n  variableToList(email, emails)\nendLoop()\naddResult(emails)\n',
    // The second pass looks the first address up as a key: there is no such key.
    surprising: { emails: ['ana@example.com', null] },
    advised:
      'rows = [{"email": "ana@example.com"}, {"email": "luis@example.com"}]\nstartLoop(i, 0, 1)\n  itemFromList(rows, i, row)\n' +
      '  variableFromJSON(row, "email", address)\n  variableToList(address, emails)\nendLoop()\naddResult(emails)\n',
    intended: { emails: ['ana@example.com', 'luis@example.com'] },
  },
  {
    name: 'a key assigned later in the same loop',
    rule: 'key-overwritten-in-loop',
    trap: 'startLoop(i, 1, 2)\n  AddvariableToJSON(sku, i, stock)\n  sku = "TS-0" + str(i)\nendLoop()\naddResult(stock)\n',
    surprising: { stock: { sku: 1, 'TS-01': 2 } },
    advised:
      'startLoop(i, 1, 2)\n  AddvariableToJSON("sku", i, stock)\n  code = "TS-0" + str(i)\nendLoop()\naddResult(stock)\n',
    intended: { stock: { sku: 2 } },
  },
  {
    name: 'addVar with an empty list',
    rule: 'literal-stored-as-text',
    trap: 'addVar(tags, [])\naddResult(tags)\n',
    surprising: { tags: '[]' },
    advised: 'tags = []\naddResult(tags)\n',
    intended: { tags: [] },
  },
  {
    name: 'addVar with True',
    rule: 'literal-stored-as-text',
    trap: 'addVar(active, True)\naddResult(active)\n',
    surprising: { active: 'True' },
    advised: 'active = True\naddResult(active)\n',
    intended: { active: true },
  },
  {
    name: 'addVar with None',
    rule: 'literal-stored-as-text',
    trap: 'addVar(lastError, None)\naddResult(lastError)\n',
    surprising: { lastError: 'None' },
    advised: 'lastError = None\naddResult(lastError)\n',
    intended: { lastError: null },
  },
];

/**
 * Fixes the parser offers that the runtime contradicts: the fixed program still gives the surprising answer.
 * None since parser 1.3.0: the key warnings' quoting fix (quotes are stripped before a command sees its
 * argument, fact quoted-word-names-variable, so it changed nothing) is no longer offered.
 */
const CONTRADICTED_FIXES: Partial<Record<RuleCode, string>> = {};

describe('runtime: the semantic warnings show the trap they name, and the advice that avoids it', () => {
  const semantic = RULES.filter((r) => r.semantic === true).map((r) => r.code);

  it('covers every semantic rule of the parser', () => {
    assert.ok(semantic.length >= 3, `${semantic.length} semantic rules`);
    assert.deepEqual(
      semantic.filter((code) => !TRAPS.some((t) => t.rule === code)),
      [],
    );
  });

  for (const t of TRAPS) {
    describe(`${t.rule}: ${t.name}`, () => {
      it('the trap draws the warning and gives the surprising answer', async () => {
        const found = validateAvap(t.trap).trace.filter((e) => e.code === t.rule);
        assert.equal(found.length, 1, `the parser warns once with ${t.rule}`);
        const r = await run(t.trap, { request: t.request ?? {} });
        assert.equal(r.error, undefined, r.error?.message);
        assert.deepEqual(r.result, t.surprising);
      });

      it('the program written as the advice says draws nothing and gives the intended answer', async () => {
        assert.deepEqual(
          validateAvap(t.advised).trace.map((e) => e.code),
          [],
        );
        const r = await run(t.advised, { request: t.request ?? {} });
        assert.equal(r.error, undefined, r.error?.message);
        assert.deepEqual(r.result, t.intended);
      });

      it("the parser's own fix, run", async () => {
        const entry = validateAvap(t.trap).trace.find((e) => e.code === t.rule);
        const contradicted = CONTRADICTED_FIXES[t.rule];
        if (!entry?.fix) {
          assert.equal(contradicted, undefined, `${t.rule} offers no fix any more: remove it from CONTRADICTED_FIXES`);
          return;
        }
        const fixed = applyTextEdits(t.trap, entry.fix.edits);
        assert.ok(fixed !== undefined);
        const r = await run(fixed, { request: t.request ?? {} });
        if (contradicted) {
          assert.deepEqual(
            r.result,
            t.surprising,
            `${t.rule}'s fix changes the answer now: check it gives the intended one and remove it from CONTRADICTED_FIXES`,
          );
        } else assert.deepEqual(r.result, t.intended, `the fix "${entry.fix.title}" does not give the intended answer`);
      });
    });
  }
});

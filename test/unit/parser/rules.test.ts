import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  renderTrace,
  RULE_CODES,
  ruleOf,
  RULES,
  validateAvap,
  type ParseOptions,
  type RuleCode,
  type TraceCategory,
  type TraceEntry,
} from '../../../src/parser';
import { fromWireResponse, type WireTraceEntry } from '../../../src/protocol';
import { assertFollowsItsRule } from './ruleChecks';

/** How a rule is reached: a program the parser reports it on, or (protocol rules) a decoded entry of that category without a code. */
type Trigger = { source: string | Uint8Array; options?: ParseOptions } | { decodedCategory: TraceCategory };

/** Bytes whose reading fails: the parser must turn its own failure into an entry, never throw. */
function unreadableBytes(): Uint8Array {
  return new Proxy(new Uint8Array(4), {
    get(target, property) {
      if (property === 'byteLength') throw new Error('the byte source failed');
      return Reflect.get(target, property) as unknown;
    },
  });
}

/** One trigger per rule. A new rule does not type-check until it has one here. */
const TRIGGERS: Record<RuleCode, Trigger> = {
  'source-too-large': { source: 'addVar(a, 1)\n'.repeat(10), options: { maxBytes: 64 } },
  'invalid-encoding': { source: new Uint8Array([0x61, 0x64, 0xc3, 0x28, 0x0a]) },
  'binary-content': { source: new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1]) },
  'internal-error': { source: unreadableBytes() },
  'unterminated-string': { source: 'addVar(x, "open)\n' },
  'control-character': { source: 'addVar(x, 1)\u0007\n' },
  'hash-comment': { source: 'addVar(x, 1)\n# note\n' },
  'unterminated-comment': { source: 'addVar(x, 1)\n/* never closed\n' },
  'stray-character': { source: '@\n' },
  'unclosed-placeholder': { source: 'addVar(x, `hello ${name`)\n' },
  'placeholder-not-a-name': { source: 'addVar(x, `hello ${a + b}`)\n' },
  'typographic-quote': { source: 'addParam(\u201Cpassword\u201D, pwd)\naddResult(pwd)\n' },
  'key-names-variable': { source: 'addParam(city, city)\nAddvariableToJSON(city, city, reply)\naddResult(reply)\n' },
  'key-overwritten-in-loop': {
    source:
      'startLoop(i, 0, 2)\n  itemFromList(rows, i, row)\n  variableFromJSON(row, email, email)\nendLoop()\naddResult(email)\n',
  },
  'literal-stored-as-text': { source: 'addVar(rows, [])\naddResult(rows)\n' },
  'not-a-statement': { source: '"just a value"\n' },
  'missing-parentheses': { source: 'if(a, 1, "=")\nelse\nend()\n' },
  'statement-terminator': { source: 'addVar(x, 1);\n' },
  'invalid-assignment-target': { source: 'a.b = 1\n' },
  'missing-value': { source: 'x =\n' },
  'block-command-assigned': { source: 'x = startLoop(i, 1, 2)\n' },
  'return-outside-function': { source: 'return(1)\n' },
  'trailing-text': { source: 'addVar(x, 1) extra\n' },
  'unknown-command': { source: 'getSHA256(a, b)\n' },
  'unknown-function': { source: 'x = 1 + computeTotal(1)\n' },
  arity: { source: 'addResult(a, b)\n' },
  'function-arity': { source: 'function f(a, b) {\n  return(a)\n}\nx = f(1)\n' },
  'missing-argument': { source: 'addParam(, p)\n' },
  'invalid-target': { source: 'addVar("x y", 1)\n' },
  'invalid-number': { source: 'startLoop(i, "a", 3)\nendLoop()\n' },
  'nested-command': { source: 'addVar(x, encodeSHA256(a, b))\n' },
  'literal-call': { source: 'addVar(x, str(1))\n' },
  'discarded-result': { source: 'avapConnector("token")\n' },
  'unknown-connector': { source: 'x.run()\n' },
  'unclosed-call': { source: 'addVar(x, 1\n' },
  'mismatched-bracket': { source: 'addVar(x, [1)\n' },
  'invalid-comparator': { source: 'addVar(a, 1)\nif(a, 1, "===")\nend()\n' },
  'if-expression': { source: 'addVar(x, 1)\nif(x > 5)\nend()\n' },
  'legacy-if': { source: 'addVar(a, 1)\nif(a, 1, "=", "a = 1")\nend()\n' },
  'empty-condition': { source: 'if(None, None, "")\nend()\n' },
  'invalid-expression': { source: 'x = 1 +\n' },
  'expression-too-deep': { source: `x = ${'('.repeat(200)}1${')'.repeat(200)}\n` },
  'unclosed-block': { source: 'addVar(a, 1)\nif(a, 1, "=")\n  addVar(b, 2)\n' },
  'unmatched-closer': { source: 'addVar(a, 1)\nendLoop()\n' },
  'branch-outside-block': { source: 'addVar(a, 1)\nelse()\n' },
  'duplicate-branch': { source: 'addVar(a, 1)\nif(a, 1, "=")\nelse()\nelse()\nend()\n' },
  'try-without-exception': { source: 'try()\n  addVar(a, 1)\nend()\n' },
  'loop-closed-by-end': { source: 'startLoop(i, 1, 3)\n  addVar(a, i)\nend()\n' },
  'end-closes-function': { source: 'function f(a) {\n  end()\n}\n' },
  'unmatched-brace': { source: 'addVar(a, 1)\n}\n' },
  'brace-closes-block': { source: 'addVar(a, 1)\nif(a, 1, "=") {\n  addVar(b, 1)\n}\n' },
  'brace-body': { source: 'addVar(a, 1)\nif(a, 1, "=") {\n  addVar(b, 1)\nend()\n' },
  'python-colon': { source: 'function f(a):\n  return(a)\n' },
  'function-header': { source: 'function f {\n}\n' },
  'anonymous-function': { source: 'function (a) {\n}\n' },
  'function-missing-brace': { source: 'function f(a)\n  return(a)\n' },
  'function-body-inline': { source: 'function f(a) { return(a)\n}\n' },
  'function-parameter': { source: 'function f(a, , b) {\n  return(a)\n}\n' },
  'command-redefined': { source: 'function addVar(a) {\n  return(a)\n}\n' },
  'duplicate-function': { source: 'function f(a) {\n  return(a)\n}\nfunction f(b) {\n  return(b)\n}\n' },
  'nested-function': { source: 'addVar(a, 1)\nif(a, 1, "=")\nfunction f(b) {\n  return(b)\n}\nend()\n' },
  'foreign-keyword': { source: 'package main\naddVar(a, 1)\n' },
  'foreign-operator': { source: 'addVar(a, 1)\nok = a && 1\n' },
  'foreign-call': { source: 'console.log(q)\n' },
  'foreign-method': { source: 'ok = q.includes("a")\n' },
  'typed-declaration': { source: 'int x = 1\n' },
  'foreign-loop': { source: 'for i in range(1, 6):\n' },
  'foreign-if': { source: 'if a == 1:\n' },
  'foreign-try': { source: 'try:\n' },
  'foreign-else': { source: 'addVar(a, 1)\nif(a, 1, "=")\nelse:\nend()\n' },
  'else-if': { source: 'addVar(a, 1)\nif(a, 1, "=")\nelse if(a, 2, "=")\nend()\n' },
  'unspecified-unknown-token': { decodedCategory: 'unknown_token' },
  'unspecified-unexpected-construct': { decodedCategory: 'unexpected_construct' },
  'unspecified-foreign-keyword': { decodedCategory: 'foreign_keyword' },
  'unspecified-syntax-error': { decodedCategory: 'syntax_error' },
};

/** An entry as an older service sends it: every field but `code` (proto3 decodes the missing string as ""). */
function decodedWithoutCode(category: TraceCategory): TraceEntry[] {
  const wire: WireTraceEntry = {
    line: 1,
    column: 1,
    end_column: 2,
    category,
    message: 'm',
    suggestion: '',
    token: 't',
    severity: 'error',
    code: '',
  };
  return fromWireResponse({ valid: false, trace: [wire], parser_version: 'older', truncated: false }).trace;
}

function traceOf(trigger: Trigger): TraceEntry[] {
  return 'decodedCategory' in trigger
    ? decodedWithoutCode(trigger.decodedCategory)
    : validateAvap(trigger.source, trigger.options).trace;
}

describe('parser: rule catalogue', () => {
  it('defines each code once, kebab-case, with a category, a severity and a one-line description', () => {
    assert.equal(new Set(RULE_CODES).size, RULES.length, 'duplicate codes');
    for (const rule of RULES) {
      assert.match(rule.code, /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/, rule.code);
      assert.ok(
        ['unknown_token', 'unexpected_construct', 'foreign_keyword', 'syntax_error'].includes(rule.category),
        rule.code,
      );
      assert.ok(rule.severity === 'error' || rule.severity === 'warning', rule.code);
      assert.match(rule.summary, /^[A-Z'`].{10,140}\.$/, `${rule.code}: ${rule.summary}`);
      assert.ok(!rule.summary.includes('\n'), rule.code);
    }
  });

  it('has a trigger for every code and no trigger for a code it lacks', () => {
    assert.deepEqual(Object.keys(TRIGGERS).sort(), [...RULE_CODES].sort());
  });

  for (const rule of RULES) {
    it(`${rule.code} is reachable${rule.origin === 'protocol' ? ' (decoding an entry without a code)' : ''}`, () => {
      const trace = traceOf(TRIGGERS[rule.code]);
      const hit = trace.find((e) => e.code === rule.code);
      assert.ok(hit, `no ${rule.code} entry; got:\n${trace.map((e) => `${e.code}: ${e.message}`).join('\n')}`);
      assert.equal(hit.category, rule.category);
      assert.equal(hit.severity, rule.severity);
      if (rule.origin !== 'protocol') for (const entry of trace) assertFollowsItsRule(entry);
    });
  }

  it('is documented: the README lists every code', () => {
    const readme = readFileSync(path.join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
    const missing = RULE_CODES.filter((code) => !readme.includes(`\`${code}\``));
    assert.deepEqual(missing, [], 'add these codes to the README section on rule codes');
  });

  it('keeps a code when the message is reworded: the code is the rule, not the text', () => {
    const [entry] = validateAvap('getSHA256(a, b)\n').trace;
    assert.ok(entry);
    assert.equal(entry.code, 'unknown-command');
    assert.equal(ruleOf(entry.code).category, entry.category);
    assert.match(renderTrace([entry]), /^Line 1: /);
  });
});

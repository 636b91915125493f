import assert from 'node:assert/strict';
import { z } from 'zod';
import { defineContract, preValidate, preValidateJsonText } from '../../../src/inputContract';
import { SearchDocsInputContract, ValidateInputContract } from '../../../src/tools/definitions';
import { DEFAULT_MAX_BYTES } from '../../../src/parser/types';

interface Case {
  name: string;
  input: unknown;
  /** Substrings the error must contain (all of them). */
  error?: string[];
  /** Substrings at least one suggestion must contain (each). */
  suggestions?: string[];
}

function check(contract: Parameters<typeof preValidate>[0], c: Case): void {
  const result = preValidate(contract, c.input);
  if (!c.error) {
    assert.equal(result.valid, true, result.valid ? '' : `${c.name}: ${result.error}`);
    return;
  }
  assert.equal(result.valid, false, `${c.name}: expected invalid`);
  if (result.valid) return;
  assert.deepEqual(
    Object.keys(result).sort(),
    ['error', 'suggestions', 'valid'],
    'the invalid shape is exactly {valid, error, suggestions}',
  );
  for (const part of c.error)
    assert.ok(
      result.error.includes(part),
      `${c.name}: error ${JSON.stringify(result.error)} lacks ${JSON.stringify(part)}`,
    );
  for (const part of c.suggestions ?? []) {
    assert.ok(
      result.suggestions.some((s) => s.includes(part)),
      `${c.name}: suggestions ${JSON.stringify(result.suggestions)} lack ${JSON.stringify(part)}`,
    );
  }
}

const VALIDATE_CASES: Case[] = [
  { name: 'minimal valid input', input: { code: 'addParam(a, b)' } },
  { name: 'with a filename', input: { code: 'addParam(a, b)', filename: 'handler.avap' } },
  {
    name: 'input is not an object',
    input: 'addParam(a, b)',
    error: ['must be a JSON object, got string'],
    suggestions: ['code, filename'],
  },
  { name: 'input is null', input: null, error: ['must be a JSON object, got null'] },
  { name: 'input is an array', input: [], error: ['must be a JSON object, got array'] },
  {
    name: 'missing required code',
    input: {},
    error: ["missing required parameter 'code' (string)"],
    suggestions: ["Add 'code'"],
  },
  {
    name: 'unknown parameter near a known one',
    input: { cod: 'x' },
    error: ["unknown parameter 'cod'", "missing required parameter 'code'"],
    suggestions: ["Did you mean 'code' instead of 'cod'?"],
  },
  {
    name: 'unknown unrelated parameter',
    input: { code: 'x', language: 'avap' },
    error: ["unknown parameter 'language'"],
    suggestions: ["Remove 'language'", 'Accepted parameters: code, filename'],
  },
  {
    name: 'code is a number',
    input: { code: 42 },
    error: ["'code' must be a string, got integer"],
    suggestions: ['(quote the value)'],
  },
  { name: 'code is an empty string', input: { code: '' }, error: ["'code' must not be empty"] },
  {
    name: 'code is only whitespace',
    input: { code: '  \n\t ' },
    error: ["'code' is empty (only whitespace)"],
    suggestions: ['Pass the AVAP source'],
  },
  {
    name: 'code wrapped in a fence',
    input: { code: '```avap\naddParam(a, b)\n```' },
    error: ['Markdown code fence'],
    suggestions: ['remove the fence lines'],
  },
  {
    name: 'code over the parser limit',
    input: { code: 'a'.repeat(DEFAULT_MAX_BYTES + 1) },
    error: [`over the parser's limit of ${DEFAULT_MAX_BYTES} bytes`],
    suggestions: ['in parts'],
  },
  {
    name: 'filename is a path',
    input: { code: 'addParam(a, b)', filename: 'src/x.avap' },
    error: ["'filename' must be a file name, not a path"],
    suggestions: ['"x.avap"'],
  },
  {
    name: 'filename too long',
    input: { code: 'x', filename: 'f'.repeat(300) },
    error: ["'filename' must have at most 255 characters"],
  },
  {
    name: 'filename wrong type',
    input: { code: 'x', filename: ['a'] },
    error: ["'filename' must be a string, got array"],
  },
];

const SEARCH_CASES: Case[] = [
  { name: 'query only', input: { query: 'encodeSHA256' } },
  { name: 'all parameters', input: { query: 'loops', max_results: 10, kind: 'chapter' } },
  { name: 'missing query', input: { max_results: 3 }, error: ["missing required parameter 'query' (string)"] },
  {
    name: 'max_results below range',
    input: { query: 'x1', max_results: 0 },
    error: ["'max_results' must be at least 1, got 0"],
    suggestions: ['≥ 1'],
  },
  {
    name: 'max_results above range',
    input: { query: 'x1', max_results: 50 },
    error: ["'max_results' must be at most 10, got 50"],
    suggestions: ['≤ 10'],
  },
  {
    name: 'max_results not an integer',
    input: { query: 'x1', max_results: 2.5 },
    error: ["'max_results' must be an integer, got number"],
  },
  {
    name: 'max_results as a string',
    input: { query: 'x1', max_results: '3' },
    error: ["'max_results' must be a number, got string"],
  },
  {
    name: 'kind not in the enum, near a value',
    input: { query: 'x1', kind: 'commands' },
    error: ['\'kind\' must be one of "any", "command", "chapter", got "commands"'],
    suggestions: ['Did you mean "command"?'],
  },
  {
    name: 'kind far from any value',
    input: { query: 'x1', kind: 'zzzzzz' },
    error: ["'kind' must be one of"],
    suggestions: ['Use one of "any", "command", "chapter"'],
  },
  { name: 'query too long', input: { query: 'q'.repeat(501) }, error: ["'query' must have at most 500 characters"] },
  {
    name: 'query of stop words only',
    input: { query: 'how do i the' },
    error: ["'query' has no searchable terms"],
    suggestions: ['addParam'],
  },
  { name: 'query of whitespace', input: { query: '   ' }, error: ["'query' is empty (only whitespace)"] },
  {
    name: 'several problems at once',
    input: { query: 5, max_result: 3 },
    error: ["'query' must be a string", "unknown parameter 'max_result'"],
    suggestions: ["Did you mean 'max_results' instead of 'max_result'?"],
  },
];

describe('tools: pre-execution validation', () => {
  describe('avap_validate input', () => {
    for (const c of VALIDATE_CASES) it(c.name, () => check(ValidateInputContract as never, c));
  });
  describe('avap_search_docs input', () => {
    for (const c of SEARCH_CASES) it(c.name, () => check(SearchDocsInputContract as never, c));
  });

  it('returns the parsed value on success', () => {
    const result = preValidate(SearchDocsInputContract, { query: 'addVar', max_results: 2 });
    assert.deepEqual(result, { valid: true, value: { query: 'addVar', max_results: 2 } });
  });

  it('frames the error with the contract name', () => {
    const result = preValidate(ValidateInputContract, {});
    assert.equal(result.valid, false);
    if (!result.valid) assert.match(result.error, /^Invalid avap_validate input: /);
  });

  it('reports nested paths with dots and indexes', () => {
    const contract = defineContract(
      'nested body',
      z.strictObject({ items: z.array(z.strictObject({ n: z.number().max(3) })) }),
    );
    const result = preValidate(contract, { items: [{ n: 1 }, { n: 9, extra: true }] });
    assert.equal(result.valid, false);
    if (result.valid) return;
    assert.ok(result.error.includes("'items[1].n' must be at most 3, got 9"), result.error);
    assert.ok(result.error.includes("unknown parameter 'items[1].extra'"), result.error);
    assert.ok(
      result.suggestions.some((s) => s.includes("Accepted parameters of 'items[1]': n")),
      JSON.stringify(result.suggestions),
    );
  });

  describe('structured LLM output (JSON text)', () => {
    const contract = defineContract('judge answer', z.strictObject({ score: z.number().min(0).max(1) }));
    const cases: { text: string; valid: boolean; error?: string }[] = [
      { text: '{"score": 0.5}', valid: true },
      { text: '```json\n{"score": 1}\n```', valid: true },
      { text: 'The score is 0.5', valid: false, error: 'not JSON' },
      { text: '{"score": 2}', valid: false, error: "'score' must be at most 1, got 2" },
      { text: '{"score": 0.5, "why": "x"}', valid: false, error: "unknown parameter 'why'" },
    ];
    for (const c of cases) {
      it(`${c.valid ? 'accepts' : 'rejects'} ${JSON.stringify(c.text)}`, () => {
        const result = preValidateJsonText(contract, c.text);
        assert.equal(result.valid, c.valid);
        if (!result.valid && c.error) assert.ok(result.error.includes(c.error), result.error);
      });
    }
  });
});

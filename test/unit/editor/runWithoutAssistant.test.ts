/**
 * A run asked for while the editor has no assistant says why in its own words:
 * an unreadable parser URL is not a model failure (no model was asked).
 */
import assert from 'node:assert/strict';
import { parseParserUrl } from '../../../src/protocol';
import { runWithoutAssistant } from '../../../src/editor/services/runWithoutAssistant';

describe('editor: a run without an assistant', () => {
  it('a bad parser URL is bad-parser-url with the URL problem, no status, not llm-failed', () => {
    const parsed = parseParserUrl('http://');
    assert.equal(parsed.ok, false);
    if (parsed.ok) return;
    const result = runWithoutAssistant({ query: 'q', forceType: 'CODE_GENERATION' }, parsed.error);
    assert.deepEqual(result.error, { code: 'bad-parser-url', message: parsed.error.message });
    assert.equal(result.validationStatus, undefined, 'it claims nothing');
    assert.equal(result.text, '');
    assert.equal(result.code, '');
  });

  it('no assistant set up yet (or disposed) is not-started', () => {
    const result = runWithoutAssistant({ query: 'q' }, undefined);
    assert.deepEqual(result.error, { code: 'not-started', message: 'the assistant is not set up' });
    assert.equal(result.queryType, 'CODE_GENERATION');
  });
});

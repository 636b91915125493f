import assert from 'node:assert/strict';
import type { PipelineResult } from '../../../src/core/contracts';
import { AnswerStream, finalAnswerView } from '../../../src/editor/chat/chatModel';

const result = (over: Partial<PipelineResult>): PipelineResult => ({
  queryType: 'CODE_GENERATION', text: 'Here:\n\n```avap\naddVar(a, 1)\n```', code: 'addVar(a, 1)', validationStatus: '',
  attempts: [{ attempt: 1, code: 'addVar(a, 1)', outcome: { kind: 'skipped' } }], sources: [{ id: 'c1', title: 'addVar', score: 0.51234 }],
  relevanceRetry: false, generationId: 'g-1', ...over,
});

describe('editor: chat answers', () => {
  it('streams pieces and starts afresh on the retry attempt', () => {
    const stream = new AnswerStream('a1');
    stream.push('first ');
    stream.push('try', 1);
    assert.match(stream.view().html, /first try/);
    stream.push('second', 2);
    assert.doesNotMatch(stream.view().html, /first/);
    assert.match(stream.view().html, /second/);
    assert.equal(stream.view().final, false);
  });

  it('shows route, sources and the validation status in the editor\'s looks', () => {
    const view = finalAnswerView('a1', result({ validationStatus: 'INVALID_UNRESOLVED', relevanceRetry: true }));
    assert.equal(view.final, true);
    assert.deepEqual(view.route, { queryType: 'CODE_GENERATION', sources: [{ title: 'addVar', score: '0.512' }], relevanceRetry: true, attempts: 1 });
    assert.equal(view.status?.kind, 'invalid');
    assert.equal(finalAnswerView('a', result({ validationStatus: 'PARSER_UNAVAILABLE' })).status?.label, 'AVAP: unvalidated — parser unavailable');
    assert.equal(finalAnswerView('a', result({ code: '', queryType: 'RETRIEVAL', text: 'prose' })).status, undefined);
  });

  it('reports failures', () => {
    const view = finalAnswerView('a', result({ text: '', code: '', error: { code: 'llm-unreachable', message: 'Ollama is not running' } }));
    assert.equal(view.error, 'Ollama is not running (llm-unreachable)');
  });

  it('a draft reads "validating…", never valid', () => {
    const stream = new AnswerStream('a1');
    stream.push('```avap\naddVar(a, 1)\n```');
    const view = stream.view();
    assert.equal(view.final, false);
    assert.equal(view.status, undefined);
    assert.equal(view.draft?.label, 'AVAP: validating… (draft)');
  });

  it('a failed or cancelled run shows its error and no status', () => {
    const view = finalAnswerView('a', result({ text: '', code: '', validationStatus: undefined, error: { code: 'llm-timeout', message: 'Ollama stopped sending mid-answer' } }));
    assert.equal(view.status, undefined);
    assert.equal(view.error, 'Ollama stopped sending mid-answer (llm-timeout)');
  });

  it('says when the answer had no documentation context, and which retries were skipped', () => {
    const view = finalAnswerView('a', result({
      queryType: 'RETRIEVAL', retrieval: { status: 'degraded', reason: 'retrieval failed' },
      retry: { limit: 1, usedBy: 'relevance', skipped: [{ trigger: 'parser-trace', reason: 'cycle-used', usedBy: 'relevance' }] },
    }));
    assert.equal(view.route?.degraded, 'answered without documentation context');
    assert.deepEqual(view.route?.skippedRetries, ['parser-trace: the request\'s one retry was already used by relevance']);
    assert.equal(finalAnswerView('a', result({ retrieval: { status: 'ok' } })).route?.degraded, undefined);
  });
});

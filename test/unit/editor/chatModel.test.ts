import assert from 'node:assert/strict';
import type { PipelineResult } from '../../../src/core';
import type { TraceEntry } from '../../../src/parser/types';
import { AnswerStream, finalAnswerView } from '../../../src/editor/chat/chatModel';
import { Highlighter, highlightAvap } from '../../../src/editor/chat/highlight';

const result = (over: Partial<PipelineResult>): PipelineResult => ({
  queryType: 'CODE_GENERATION',
  text: 'Here:\n\n```avap\naddVar(a, 1)\n```',
  code: 'addVar(a, 1)',
  validationStatus: '',
  attempts: [{ attempt: 1, code: 'addVar(a, 1)', outcome: { kind: 'skipped' } }],
  sources: [{ id: 'c1', title: 'addVar', score: 0.51234 }],
  relevanceRetry: false,
  generationId: 'g-1',
  ...over,
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

  it("shows route, sources and the validation status in the editor's looks", () => {
    const view = finalAnswerView('a1', result({ validationStatus: 'INVALID_UNRESOLVED', relevanceRetry: true }));
    assert.equal(view.final, true);
    assert.deepEqual(view.route, {
      queryType: 'CODE_GENERATION',
      sources: [{ title: 'addVar', docId: 'c1' }],
      relevanceRetry: true,
      attempts: 1,
    });
    assert.equal(view.status?.kind, 'invalid');
    assert.equal(
      finalAnswerView('a', result({ validationStatus: 'PARSER_UNAVAILABLE' })).status?.label,
      'AVAP: unvalidated — parser unavailable',
    );
    assert.equal(finalAnswerView('a', result({ code: '', queryType: 'RETRIEVAL', text: 'prose' })).status, undefined);
  });

  it("counts attempts as the product does: the code given to Regenerate with Trace is attempt 1, a repair by the parser's fixes is not another", () => {
    const skipped = { kind: 'skipped' as const };
    // Regenerate with Trace: the run is the retry of the given code (a regenerated answer that stays invalid failed both attempts).
    const regenerated = result({
      attempts: [
        { attempt: 1, code: 'given', outcome: skipped },
        { attempt: 2, code: 'retry', outcome: skipped },
      ],
    });
    assert.equal(finalAnswerView('a', regenerated).route?.attempts, 2);
    // One generation repaired by the fixes: one attempt, and the label says it was repaired.
    const repaired = result({
      validationStatus: '',
      attempts: [
        { attempt: 1, code: 'model', outcome: skipped },
        { attempt: 1, code: 'fixed', outcome: skipped, repairedBy: 'parser-fixes' },
      ],
      repair: { by: 'parser-fixes', attempt: 1, applied: [], rounds: 1 },
    });
    assert.equal(finalAnswerView('a', repaired).route?.attempts, 1);
    assert.match(finalAnswerView('a', repaired).status?.label ?? '', /repaired by the parser's fixes/);
  });

  it('reports failures', () => {
    const view = finalAnswerView(
      'a',
      result({ text: '', code: '', error: { code: 'llm-unreachable', message: 'Ollama is not running' } }),
    );
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
    const view = finalAnswerView(
      'a',
      result({
        text: '',
        code: '',
        validationStatus: undefined,
        error: { code: 'llm-timeout', message: 'Ollama stopped sending mid-answer' },
      }),
    );
    assert.equal(view.status, undefined);
    assert.equal(view.error, 'Ollama stopped sending mid-answer (llm-timeout)');
  });

  it('says when the answer had no documentation context, and which retries were skipped', () => {
    const view = finalAnswerView(
      'a',
      result({
        queryType: 'RETRIEVAL',
        retrieval: { status: 'degraded', reason: 'retrieval failed' },
        retry: {
          limit: 1,
          usedBy: 'relevance',
          skipped: [{ trigger: 'parser-trace', reason: 'cycle-used', usedBy: 'relevance' }],
        },
      }),
    );
    assert.equal(view.route?.degraded, 'answered without documentation context');
    assert.deepEqual(view.route?.skippedRetries, [
      "parser-trace: the request's one retry was already used by relevance",
    ]);
    assert.equal(finalAnswerView('a', result({ retrieval: { status: 'ok' } })).route?.degraded, undefined);
  });

  it('sources are the documents the passages come from, by title, each once (no scores)', () => {
    const view = finalAnswerView(
      'a',
      result({
        queryType: 'RETRIEVAL',
        sources: [
          { id: 'command-encodeSHA256::overview', title: 'encodeSHA256 — Overview', score: 7.25 },
          { id: 'command-encodeSHA256::examples', title: 'encodeSHA256 — Examples', score: 5.5 },
          { id: 'chapter-loops::overview', title: 'Loops — Overview', score: 3.1 },
        ],
      }),
      (docId) => (docId === 'chapter-loops' ? 'Loops and iteration' : undefined),
    );
    assert.deepEqual(view.route?.sources, [
      { docId: 'command-encodeSHA256', title: 'encodeSHA256' },
      { docId: 'chapter-loops', title: 'Loops and iteration' },
    ]);
    assert.doesNotMatch(JSON.stringify(view.route), /7\.25|score/);
  });
});

const entry = (line: number, severity: 'error' | 'warning' = 'error'): TraceEntry => ({
  line,
  column: 1,
  endColumn: 10,
  severity,
  category: 'unknown_token',
  code: 'unknown-command',
  message: 'unknown command getSHA256',
  token: 'getSHA256',
});

describe('editor: chat code blocks', () => {
  const text = 'First:\n\n```avap\naddParam(password, p)\ngetSHA256(p, h)\n```\n\nThen:\n\n```avap\naddResult(h)\n```';
  // Block 1 starts on response line 4, block 2 on line 11.

  it('marks each validated block with its own verdict and its trace, lines relative to the block', () => {
    const view = finalAnswerView(
      'a',
      result({
        text,
        validationStatus: 'INVALID_UNRESOLVED',
        attempts: [
          {
            attempt: 1,
            code: '',
            outcome: { kind: 'skipped' },
            text,
            responseTrace: [entry(5)],
            blocks: ['invalid', 'valid'],
          },
        ],
      }),
    );
    assert.equal(view.blocks?.length, 2);
    assert.deepEqual(
      view.blocks?.map((b) => [b.state, b.label]),
      [
        ['invalid', 'AVAP: invalid'],
        ['valid', 'AVAP: valid'],
      ],
    );
    assert.deepEqual(
      view.blocks?.[0]?.trace.map((e) => e.line),
      [2],
    );
    assert.equal(view.blocks?.[0]?.code, 'addParam(password, p)\ngetSHA256(p, h)');
    assert.deepEqual(view.blocks?.[1]?.trace, []);
    assert.match(view.html, /<div class="codeblock" data-block="0"><pre><code class="language-avap">/);
    assert.match(view.html, /<div class="codeblock" data-block="1">/);
  });

  it('a block the parser did not judge is unvalidated, never valid', () => {
    const unavailable = finalAnswerView(
      'a',
      result({
        text,
        validationStatus: 'PARSER_UNAVAILABLE',
        attempts: [{ attempt: 1, code: '', outcome: { kind: 'skipped' }, text, blocks: ['valid', 'unavailable'] }],
      }),
    );
    assert.deepEqual(
      unavailable.blocks?.map((b) => b.state),
      ['valid', 'unvalidated'],
    );
    // Without per-block verdicts, only what the status proves: an unavailable parser proves nothing.
    const noDetail = finalAnswerView('a', result({ text, validationStatus: 'PARSER_UNAVAILABLE', attempts: [] }));
    assert.deepEqual(
      noDetail.blocks?.map((b) => b.label),
      ['AVAP: unvalidated', 'AVAP: unvalidated'],
    );
    const failed = finalAnswerView('a', result({ text, validationStatus: undefined, attempts: [] }));
    assert.deepEqual(
      failed.blocks?.map((b) => b.state),
      ['unvalidated', 'unvalidated'],
    );
  });

  it('fences a bare code answer so it shows as a code block', () => {
    const bare = 'addParam(password, p)\nencodeSHA256(p, h)\naddResult(h)';
    const view = finalAnswerView(
      'a',
      result({
        text: bare,
        code: bare,
        attempts: [{ attempt: 1, code: bare, outcome: { kind: 'skipped' }, text: bare, blocks: ['valid'] }],
      }),
    );
    assert.equal(view.blocks?.[0]?.code, bare);
    assert.equal(view.blocks?.[0]?.state, 'valid');
    assert.match(
      view.html,
      /<div class="codeblock" data-block="0"><pre><code class="language-avap"><span class="tok-builtin">addParam<\/span>/,
    );
  });

  it('decorates every block the pipeline judged — a fence in a list item, an indented block and code without a fence, side by side', () => {
    const mixed =
      '1. Read it:\n\n   ```avap\n   addParam(n, n)\n   ```\n\nLoop:\n\n    startLoop(i, 1, n)\n    endLoop()\n\nThen:\n\nlet out = n\naddResult(out)\n';
    const view = finalAnswerView(
      'a',
      result({
        text: mixed,
        validationStatus: 'INVALID_UNRESOLVED',
        attempts: [
          {
            attempt: 1,
            code: '',
            outcome: { kind: 'skipped' },
            text: mixed,
            // `let` on line 14, column 1 of the answer: the third block's first line.
            responseTrace: [{ ...entry(14), column: 1, endColumn: 4, token: 'let' }],
            blocks: ['valid', 'valid', 'invalid'],
          },
        ],
      }),
    );
    assert.deepEqual(
      view.blocks?.map((b) => [b.code, b.state]),
      [
        ['addParam(n, n)', 'valid'],
        ['startLoop(i, 1, n)\nendLoop()', 'valid'],
        ['let out = n\naddResult(out)', 'invalid'],
      ],
    );
    assert.deepEqual(
      view.blocks?.[2]?.trace.map((e) => [e.line, e.column]),
      [[1, 1]],
    );
    for (const index of [0, 1, 2]) assert.match(view.html, new RegExp(`<div class="codeblock" data-block="${index}">`));
  });

  it('the trace of a block indented in a list item comes back relative to the block, columns too', () => {
    const listed = '- hash it:\n  ```avap\n  hashed = getSHA256(pwd)\n  ```\n';
    const view = finalAnswerView(
      'a',
      result({
        text: listed,
        validationStatus: 'INVALID_UNRESOLVED',
        attempts: [
          {
            attempt: 1,
            code: '',
            outcome: { kind: 'skipped' },
            text: listed,
            responseTrace: [{ ...entry(3), column: 12, endColumn: 21 }],
            blocks: ['invalid'],
          },
        ],
      }),
    );
    assert.deepEqual(
      view.blocks?.[0]?.trace.map((e) => [e.line, e.column, e.endColumn]),
      [[1, 10, 19]],
    );
  });

  it('a replacing draft (the answer repaired by the fixes) replaces what streamed', () => {
    const stream = new AnswerStream('a1');
    stream.push('```avap\nhashed = getSHA256(p)\n```');
    stream.push('```avap\nencodeSHA256(p, hashed)\n```', 1, true);
    assert.doesNotMatch(stream.view().html, /getSHA256/);
    assert.match(stream.view().html, /encodeSHA256/);
  });

  it('a streaming draft marks its code "validating…" and offers no verdict', () => {
    const stream = new AnswerStream('a1');
    stream.push('Here:\n```avap\naddVar(a, 1)\n');
    const view = stream.view();
    assert.deepEqual(
      view.blocks?.map((b) => [b.state, b.label]),
      [['validating', 'validating…']],
    );
    assert.match(view.html, /data-block="0"/);
  });
});

describe("editor: AVAP highlighting with the extension's grammar", () => {
  it('colours commands, keywords, strings, numbers, comments and globals by scope family', () => {
    const html = highlightAvap(
      'addParam(password, p)\n// note\nif(n, 1, "==")\nfunction f(x) {\n  return(True)\n}\nx = $g + 2.5',
    );
    for (const expected of [
      '<span class="tok-builtin">addParam</span>',
      '<span class="tok-comment">// note</span>',
      '<span class="tok-keyword">if</span>',
      '<span class="tok-string">&quot;==&quot;</span>',
      '<span class="tok-number">1</span>',
      '<span class="tok-function">f</span>',
      '<span class="tok-constant">True</span>',
      '<span class="tok-variable">$g</span>',
      '<span class="tok-number">2.5</span>',
    ])
      assert.ok(html.includes(expected), `${expected} in ${html}`);
  });

  it('carries a block comment across lines and escapes everything', () => {
    const lines = highlightAvap('a = 1 /* open\n<b>still</b> */ b = "<i>"').split('\n');
    assert.equal(
      lines[1],
      '<span class="tok-comment">&lt;b&gt;still&lt;/b&gt; */</span> b <span class="tok-operator">=</span> <span class="tok-string">&quot;&lt;i&gt;&quot;</span>',
    );
  });

  it('interprets begin/end rules with captures of a grammar', () => {
    const grammar = {
      patterns: [
        { include: '#call' },
        {
          name: 'string.quoted.avap',
          begin: '\\[',
          end: '\\]',
          patterns: [{ match: '\\d+', name: 'constant.numeric' }],
        },
      ],
      repository: { call: { match: '\\b(go)\\s*(?=\\()', captures: { 1: { name: 'keyword.control' } } } },
    };
    const tokens = new Highlighter(grammar).tokenize('go() [a 12]')[0] ?? [];
    assert.deepEqual(
      tokens.map((t) => [t.text, t.scopes.join(' ')]),
      [
        ['go', 'keyword.control'],
        ['() ', ''],
        ['[', 'string.quoted.avap'],
        ['a ', 'string.quoted.avap'],
        ['12', 'string.quoted.avap constant.numeric'],
        [']', 'string.quoted.avap'],
      ],
    );
  });
});

import assert from 'node:assert/strict';
import type { ParserOutcome } from '../../../src/core';
import { loadKnowledgeBase } from '../../../src/knowledge';
import { validateAvap } from '../../../src/parser';
import {
  executeSearchDocs,
  executeValidate,
  runTool,
  toolResultText,
  validateOutcome,
  type DocsIndexSource,
  type ValidateFn,
} from '../../../src/tools/execute';

/** The parser library in-process behind the ValidateFn port; records calls. */
function inProcessParser(): ValidateFn & { calls: string[] } {
  const calls: string[] = [];
  const fn = ((source: string, filename: string): Promise<ParserOutcome> => {
    calls.push(filename);
    return Promise.resolve({ kind: 'validated', result: validateAvap(source, { filename }) });
  }) as ValidateFn & { calls: string[] };
  fn.calls = calls;
  return fn;
}

const kb = loadKnowledgeBase();
const docs: DocsIndexSource = () =>
  kb.ok
    ? { ok: true, value: kb.value }
    : { ok: false, error: { kind: 'knowledge-unavailable', message: kb.error.message } };

describe('tools: execution and post-execution status', () => {
  describe('avap_validate', () => {
    it('valid code → SATISFIED with the verdict as facts', async () => {
      const outcome = await executeValidate(
        { code: 'addParam(name, n)\naddResult(n)\n', filename: 'ok.avap' },
        inProcessParser(),
      );
      assert.equal(outcome.status, 'SATISFIED');
      assert.equal(outcome.facts.valid, true);
      assert.equal(outcome.facts.errorCount, 0);
      assert.equal(outcome.facts.filename, 'ok.avap');
      assert.deepEqual(outcome.next, []);
    });

    it('an invented command → NEEDS_MORE_TOOLS with the replacement and a re-validation step', async () => {
      const outcome = await executeValidate(
        { code: 'addParam(p, text)\ngetSHA256(text, digest)\naddResult(digest)\n' },
        inProcessParser(),
      );
      assert.equal(outcome.status, 'NEEDS_MORE_TOOLS');
      assert.equal(outcome.facts.valid, false);
      assert.deepEqual(outcome.facts.unknownNames, ['getSHA256']);
      assert.ok(
        outcome.next.some((n) => n.includes("replace 'getSHA256' with 'encodeSHA256'")),
        JSON.stringify(outcome.next),
      );
      assert.match(outcome.next.at(-1) ?? '', /Validate the corrected code again with avap_validate/);
      assert.equal(outcome.facts.filename, 'snippet.avap');
    });

    it('an unknown name without a suggestion → look it up with avap_search_docs', () => {
      const outcome = validateOutcome('x.avap', {
        kind: 'validated',
        result: {
          valid: false,
          truncated: false,
          parserVersion: 't',
          trace: [
            {
              line: 1,
              column: 1,
              endColumn: 9,
              severity: 'error',
              category: 'unknown_token',
              code: 'unknown-command',
              message: 'unknown command',
              token: 'frobnize',
            },
          ],
        },
      });
      assert.equal(outcome.status, 'NEEDS_MORE_TOOLS');
      assert.ok(
        outcome.next.includes(
          'Look up the right command for \'frobnize\' with avap_search_docs {"query": "frobnize"}.',
        ),
        JSON.stringify(outcome.next),
      );
    });

    it('foreign syntax is listed among the facts', async () => {
      const outcome = await executeValidate({ code: 'import os\naddResult(x)\n' }, inProcessParser());
      assert.equal(outcome.status, 'NEEDS_MORE_TOOLS');
      assert.ok((outcome.facts.foreignTokens ?? []).includes('import'), JSON.stringify(outcome.facts));
    });

    it('parser unavailable → FAILED, the code is never called valid', async () => {
      const down: ValidateFn = () =>
        Promise.resolve({ kind: 'unavailable', reason: 'circuit-open', detail: 'circuit open' });
      const outcome = await executeValidate({ code: 'addResult(x)' }, down);
      assert.equal(outcome.status, 'FAILED');
      assert.equal(outcome.facts.valid, undefined);
      assert.equal(outcome.facts.reason, 'circuit-open');
      assert.match(outcome.next[0] ?? '', /unvalidated/);
    });

    it('a throwing validator is a FAILED transport outcome, not an exception', async () => {
      const outcome = await executeValidate({ code: 'addResult(x)' }, () =>
        Promise.reject(new Error('socket hang up')),
      );
      assert.equal(outcome.status, 'FAILED');
      assert.equal(outcome.facts.detail, 'socket hang up');
    });

    it('the service refusing the source → NEED_USER_INPUT', async () => {
      const outcome = await executeValidate({ code: 'addResult(x)' }, () =>
        Promise.resolve({ kind: 'unavailable', reason: 'rejected', detail: 'source too large' }),
      );
      assert.equal(outcome.status, 'NEED_USER_INPUT');
    });

    it('binary content → NEED_USER_INPUT without calling the parser', async () => {
      const parser = inProcessParser();
      const outcome = await executeValidate({ code: 'addResult(x)\u0000\u0000\u0000\u0001\u0002' }, parser);
      assert.equal(outcome.status, 'NEED_USER_INPUT');
      assert.equal(parser.calls.length, 0);
    });
  });

  describe('avap_search_docs', () => {
    it('the knowledge base loads', () => assert.ok(kb.ok, kb.ok ? '' : kb.error.message));

    it('a command name → SATISFIED with sections and the commands they mention', () => {
      const outcome = executeSearchDocs({ query: 'encodeSHA256', max_results: 3 }, docs);
      assert.equal(outcome.status, 'SATISFIED');
      assert.ok(outcome.facts.results.length >= 1 && outcome.facts.results.length <= 3);
      assert.ok(outcome.facts.commands.includes('encodeSHA256'), JSON.stringify(outcome.facts.commands));
      assert.ok(outcome.facts.results.every((r) => r.text.length > 0 && r.title.length > 0));
    });

    it('the kind filter keeps only that kind of page', () => {
      const outcome = executeSearchDocs({ query: 'loop over a list', kind: 'chapter', max_results: 4 }, docs);
      assert.equal(outcome.status, 'SATISFIED');
      assert.ok(
        outcome.facts.results.every((r) => r.kind === 'chapter'),
        JSON.stringify(outcome.facts.results.map((r) => r.kind)),
      );
    });

    it('no match → NEEDS_MORE_TOOLS with a rephrasing hint', () => {
      const outcome = executeSearchDocs({ query: 'qwxzzyv plorkfen' }, docs);
      assert.equal(outcome.status, 'NEEDS_MORE_TOOLS');
      assert.deepEqual(outcome.facts.results, []);
      assert.match(outcome.next[0] ?? '', /Rephrase/);
    });

    it('an unreadable knowledge base → FAILED', () => {
      const outcome = executeSearchDocs({ query: 'addVar' }, () => ({
        ok: false,
        error: { kind: 'knowledge-unavailable', message: 'knowledge/ not found' },
      }));
      assert.equal(outcome.status, 'FAILED');
      assert.equal(outcome.facts.reason, 'knowledge/ not found');
    });
  });

  describe('runTool', () => {
    it('invalid input comes back verbatim as {valid:false, error, suggestions}, and nothing runs', async () => {
      const parser = inProcessParser();
      const run = await runTool('avap_validate', { code: '   ' }, { validate: parser, docs });
      assert.equal(run.kind, 'invalid');
      assert.deepEqual(JSON.parse(toolResultText(run)), {
        valid: false,
        error: "Invalid avap_validate input: 'code' is empty (only whitespace).",
        suggestions: ['Pass the AVAP source you want checked; an empty program has nothing to validate.'],
      });
      assert.equal(parser.calls.length, 0);
    });

    it('valid input runs the tool and reports its status', async () => {
      const run = await runTool('avap_search_docs', { query: 'addParam' }, { validate: inProcessParser(), docs });
      assert.equal(run.kind, 'done');
      const text = JSON.parse(toolResultText(run)) as { status: string; tool: string };
      assert.equal(text.status, 'SATISFIED');
      assert.equal(text.tool, 'avap_search_docs');
    });

    it('an unknown tool name is an invalid input, not a crash', async () => {
      const run = await runTool('avap_format', {}, { validate: inProcessParser(), docs });
      assert.equal(run.kind, 'invalid');
      assert.match(toolResultText(run), /Unknown tool 'avap_format'/);
    });
  });
});

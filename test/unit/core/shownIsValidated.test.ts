/**
 * "What the user reads is what was validated", through the graph
 * with fakes behind its ports (the parser library in-process as the parser
 * port): F1 (a repaired answer is delivered repaired), F2 (code the old
 * extractor did not see), F3 (`</think>` inside code), F4 (blocks valid alone,
 * invalid joined), F8 (output shown after the program).
 *
 * The invariant checked on every run: when the status is `""`, every block the
 * delivered text shows and the joined `avap_code` are valid, and the final
 * message delivers that text.
 */
import assert from 'node:assert/strict';
import type { PipelineResult, ResponseMessage } from '../../../src/core';
import { codeAnswerBlocks, shownCodeBlocks } from '../../../src/core/code/extract';
import { runPipeline } from '../../../src/core/pipeline/graph';
import { promptTask } from '../../../src/core/routing/prompts';
import { renderTrace, validateAvap } from '../../../src/parser';
import { fakeParser } from '../../support/fakes/parser';
import { taskLlm } from '../../support/fakes/llm';
import { deps } from './pipelineFakes';

const CODE = { query: 'hash the password', forceType: 'CODE_GENERATION' as const };
const DOCS = { query: 'how do I hash a password?', forceType: 'RETRIEVAL' as const };

interface Run {
  result: PipelineResult;
  messages: ResponseMessage[];
  generations: number;
}

async function run(answers: string[], route: 'code' | 'docs' = 'code', maxRetries = 1): Promise<Run> {
  const task = route === 'code' ? 'generate_code' : 'generate';
  const llm = taskLlm({ reformulate: ['q'], [task]: answers });
  const { deps: d } = deps(llm, fakeParser(), { pipeline: { maxRetries } });
  const messages: ResponseMessage[] = [];
  const result = await runPipeline(d, route === 'code' ? CODE : DOCS, { onMessage: (m) => messages.push(m) });
  const generations = llm.calls.filter((c) => promptTask(c.messages[0]?.content ?? '') === task).length;
  checkDelivered(result, messages, route);
  return { result, messages, generations };
}

/** `""` holds for everything shown as code: each block of the delivered text, and avap_code joined; the final message delivers the text. */
function checkDelivered(result: PipelineResult, messages: ResponseMessage[], route: 'code' | 'docs'): void {
  const final = messages.at(-1);
  assert.equal(final?.is_final, true);
  assert.equal(final?.text, result.text, 'the final message delivers the answer');
  assert.equal(final?.avap_code, result.code);
  if (result.validationStatus !== '') return;
  const blocks = route === 'code' ? codeAnswerBlocks(result.text) : shownCodeBlocks(result.text);
  for (const block of blocks) {
    const verdict = validateAvap(block.code);
    assert.ok(verdict.valid, `a block shown under "" is invalid:\n${block.code}\n${renderTrace(verdict.trace)}`);
  }
  assert.equal(result.code, blocks.map((b) => b.code).join('\n'), 'avap_code is the shown blocks joined');
  if (result.code) assert.ok(validateAvap(result.code).valid, `avap_code under "" is invalid:\n${result.code}`);
}

/** What a client that honours `attempt` and `replace` shows at the end of the drafts. */
function lastDraftView(messages: ResponseMessage[]): string {
  let attempt = 1;
  let text = '';
  for (const m of messages) {
    if (m.is_final) continue;
    if ((m.attempt ?? 1) !== attempt || m.replace) text = '';
    attempt = m.attempt ?? 1;
    text += m.text;
  }
  return text;
}

const fenced = (code: string, label = 'avap') => `\`\`\`${label}\n${code}\n\`\`\``;

describe('core/pipeline: what the user reads is what was validated', () => {
  describe('F1: an answer repaired by the fixes is delivered repaired', () => {
    const TWO_BLOCKS = `Hash it:\n${fenced('addParam(pwd, pwd)\nhashed = getSHA256(pwd)')}\nThen return it:\n${fenced('let out = hashed\naddResult(out);')}\n`;
    const REPAIRED = `Hash it:\n${fenced('addParam(pwd, pwd)\nencodeSHA256(pwd, hashed)')}\nThen return it:\n${fenced('out = hashed\naddResult(out)')}\n`;

    it('two blocks: the final message and a replacing draft carry the repaired text; no LLM retry', async () => {
      const { result, messages, generations } = await run([TWO_BLOCKS]);
      assert.equal(result.validationStatus, '');
      assert.equal(result.repair?.by, 'parser-fixes');
      assert.equal(generations, 1);
      assert.equal(result.text, REPAIRED);
      assert.equal(result.code, 'addParam(pwd, pwd)\nencodeSHA256(pwd, hashed)\nout = hashed\naddResult(out)');
      const replacing = messages.filter((m) => !m.is_final && m.replace);
      assert.equal(replacing.length, 1);
      assert.deepEqual(replacing[0], {
        text: REPAIRED,
        avap_code: '',
        is_final: false,
        draft: true,
        attempt: 1,
        replace: true,
      });
      assert.equal(lastDraftView(messages), REPAIRED, 'the drafts end on the repaired answer');
      assert.deepEqual(messages.at(-1), {
        text: REPAIRED,
        avap_code: result.code,
        is_final: true,
        validation_status: '',
        repaired_by: 'parser-fixes',
      });
    });

    it('the documentation route: unfenced code with a let line is validated and delivered repaired', async () => {
      const prose =
        'To hash a password, read it and hash it:\n\naddParam(pwd, pwd)\nhashed = getSHA256(pwd)\n\nThen return it:\n\nlet out = hashed\naddResult(out);\n';
      const { result, messages } = await run([prose], 'docs');
      assert.equal(result.validationStatus, '');
      assert.equal(result.repair?.by, 'parser-fixes');
      assert.doesNotMatch(result.text, /getSHA256|let out|;/);
      assert.equal(lastDraftView(messages), result.text);
    });

    it('the documentation route: fenced code in a list item is repaired in place, indentation kept', async () => {
      const prose =
        '1. Hash it:\n\n   ```avap\n   addParam(pwd, pwd)\n   hashed = getSHA256(pwd)\n   addResult(hashed)\n   ```\n';
      const { result } = await run([prose], 'docs');
      assert.equal(result.validationStatus, '');
      assert.equal(
        result.text,
        '1. Hash it:\n\n   ```avap\n   addParam(pwd, pwd)\n   encodeSHA256(pwd, hashed)\n   addResult(hashed)\n   ```\n',
      );
    });
  });

  describe('F2: code the extractor used to miss is validated', () => {
    const cases: [string, string][] = [
      ['an unfenced while loop', 'addParam(n, n)\nwhile n > 0:\n    n = n - 1\naddResult(n)\n'],
      [
        'an unfenced foreach … end foreach',
        'addParam(items, items)\nforeach item in items\n  addResult(item)\nend foreach\n',
      ],
      [
        'a fence indented inside a list item',
        '1. Count down:\n\n    ```avap\n    addParam(n, n)\n    while n > 0:\n    ```\n',
      ],
      [
        'a fence under a nested list item',
        '- Steps\n  - loop:\n    ~~~AVAP\n    addParam(n, n)\n    while n > 0:\n    ~~~\n',
      ],
      ['a fence in a blockquote', '> ```avp\n> addParam(n, n)\n> while n > 0:\n> ```\n'],
      ['an indented code block', 'Loop:\n\n    addParam(n, n)\n    while n > 0:\n        n = n - 1\n'],
      ['CRLF line ends', '```avap\r\naddParam(n, n)\r\nwhile n > 0:\r\n```\r\n'],
    ];
    for (const [name, answer] of cases) {
      it(`${name}: INVALID_UNRESOLVED with the loop in avap_code, never ""`, async () => {
        const { result, generations } = await run([answer]);
        assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');
        assert.equal(generations, 2, 'the trace-guided retry ran');
        assert.match(result.code, /while n > 0:|foreach item in items/);
      });
      it(`${name}, on the documentation route: never ""`, async () => {
        const { result } = await run([answer], 'docs');
        assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');
      });
    }
  });

  describe('F3: </think> inside code drops nothing', () => {
    it('invalid code before the line that holds "</think>" is validated: INVALID_UNRESOLVED, every line in avap_code', async () => {
      const answer = fenced(
        'addParam(text, text)\nprint(text)\nreplace(text, "</think>", "", clean)\naddResult(clean)',
      );
      const { result } = await run([answer]);
      assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');
      assert.equal(
        result.code,
        'addParam(text, text)\nprint(text)\nreplace(text, "</think>", "", clean)\naddResult(clean)',
      );
      assert.equal(result.text, answer);
    });

    it('valid code around it is "" with every line delivered; a reasoning preamble before it is still dropped', async () => {
      const code = 'addParam(text, text)\nreplace(text, "</think>", "", clean)\naddResult(clean)';
      const { result } = await run([`<think>\nStrip the tag.\n</think>\n\n${fenced(code)}`]);
      assert.equal(result.validationStatus, '');
      assert.equal(result.code, code);
      assert.equal(result.text, fenced(code));
    });

    it('unfenced, with a think block after the code: nothing before it is dropped', async () => {
      const answer = 'addParam(text, text)\nprint(text)\n<think>done</think>\nThat is it.';
      const { result } = await run([answer]);
      assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');
      assert.match(result.code, /^addParam\(text, text\)\nprint\(text\)/);
    });
  });

  describe('F4: the status holds for the blocks joined', () => {
    const DOUBLE = 'function double(a) {\n  return a * 2\n}';
    it('two blocks that each define function double(a) are not ""', async () => {
      const answer = `${fenced(DOUBLE)}\nUse it:\n${fenced(`${DOUBLE}\naddParam(x, x)\ny = double(x)\naddResult(y)`)}`;
      const { result, generations } = await run([answer]);
      assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');
      assert.equal(generations, 2);
      const outcome = result.attempts.at(-1)?.outcome;
      assert.equal(outcome?.kind, 'validated');
      if (outcome?.kind !== 'validated') return;
      assert.match(renderTrace(outcome.result.trace), /already defined on line 1/);
    });

    it('the retry that shows the function once is ""', async () => {
      const answer = `${fenced(DOUBLE)}\nUse it:\n${fenced(`${DOUBLE}\naddParam(x, x)\ny = double(x)\naddResult(y)`)}`;
      const { result } = await run([answer, fenced(`${DOUBLE}\naddParam(x, x)\ny = double(x)\naddResult(y)`)]);
      assert.equal(result.validationStatus, '');
    });
  });

  describe('F8: output shown after the program is not AVAP', () => {
    const PROGRAM = 'addParam(pwd, p)\nencodeSHA256(p, hashed)\naddResult(hashed)';
    const outputs: [string, string][] = [
      ['JSON output', '```\n{"hashed": "5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8"}\n```'],
      ['pretty-printed JSON in tildes', '~~~\n{\n  "hashed": "5e88"\n}\n~~~'],
      ['a curl call', '```\ncurl "http://localhost:8080/hash?pwd=secret"\n```'],
      [
        'a continued curl call with a prompt',
        '```\n$ curl -X POST http://localhost:8080/hash \\\n    -d pwd=secret\n```',
      ],
      ['an HTTP exchange', '```\nHTTP/1.1 200 OK\nContent-Type: application/json\n\n{"hashed": "5e88"}\n```'],
    ];
    for (const [name, output] of outputs) {
      it(`a correct block followed by ${name}: "", one generation, the output not in avap_code`, async () => {
        const answer = `${fenced(PROGRAM)}\n\nResult:\n\n${output}\n`;
        const { result, generations } = await run([answer]);
        assert.equal(result.validationStatus, '');
        assert.equal(generations, 1, 'no retry spent');
        assert.equal(result.earlyAbort, undefined, 'the stream was not stopped');
        assert.equal(result.code, PROGRAM);
        assert.equal(result.text, answer);
      });
    }

    it('an unlabelled block that is AVAP after the output is still validated', async () => {
      const answer = `${fenced(PROGRAM)}\n\n\`\`\`\n{"hashed": "5e88"}\n\`\`\`\n\n\`\`\`\nprint(hashed)\n\`\`\``;
      const { result } = await run([answer]);
      assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');
    });
  });
});

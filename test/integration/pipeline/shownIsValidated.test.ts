/**
 * "What the user reads is what was validated", end to end over real
 * sockets: `node dist/cli.js generate` (text and --json) with its bundled
 * parser service, and `dist/cli.js serve` over HTTP, both against the scripted
 * Ollama server. Each way it once failed, with variants: a repaired answer is
 * delivered repaired (F1), code the extractor used to miss is validated (F2),
 * `</think>` inside code drops nothing (F3), blocks valid alone but not joined
 * are not "" (F4), output shown after a correct program is not AVAP (F8).
 *
 * Every final message checked here holds the invariant: under "", every block
 * its `text` shows and its `avap_code` are valid AVAP (checked again with the
 * parser library), and `text` is the answer delivered.
 */
import assert from 'node:assert/strict';
import { codeAnswerBlocks, shownCodeBlocks } from '../../../src/core/code/extract';
import { DELIVERED_HEADER, REPAIRED_HEADER } from '../../../src/cli/commands/generate';
import { renderTrace, validateAvap } from '../../../src/parser';
import { runCliProcess } from '../../support/dist';
import { startScriptedOllama, type ScriptedOllama } from '../../support/scriptedOllama';
import { ndjson, sseEvents, startServe, type ServeProcess } from '../rest/serveProcess';
import { MODELS, task } from './fixture';

type Message = Record<string, unknown> & { text: string; avap_code: string; is_final: boolean };

const avap = (code: string, label = 'avap') => `\`\`\`${label}\n${code}\n\`\`\``;

/** F1: two blocks, every error with a proven fix (an invented command, a let, a `;`). */
const TWO_BLOCKS = `Hash it:\n${avap('addParam(pwd, pwd)\nhashed = getSHA256(pwd)')}\nThen return it:\n${avap('let out = hashed\naddResult(out);')}\n`;
const REPAIRED = `Hash it:\n${avap('addParam(pwd, pwd)\nencodeSHA256(pwd, hashed)')}\nThen return it:\n${avap('out = hashed\naddResult(out)')}\n`;
const REPAIRED_CODE = 'addParam(pwd, pwd)\nencodeSHA256(pwd, hashed)\nout = hashed\naddResult(out)';

const PROGRAM = 'addParam(pwd, p)\nencodeSHA256(p, hashed)\naddResult(hashed)';
const DOUBLE = 'function double(a) {\n  return a * 2\n}';

/** The invariant (what the user reads is what was validated) on one final message. */
function checkFinal(final: Message | undefined, route: 'code' | 'docs'): Message {
  assert.ok(final?.is_final, 'a final message');
  if (final.validation_status !== '') return final;
  const blocks = route === 'code' ? codeAnswerBlocks(final.text) : shownCodeBlocks(final.text);
  for (const block of blocks) {
    const verdict = validateAvap(block.code);
    assert.ok(verdict.valid, `"" on a shown block that is invalid:\n${block.code}\n${renderTrace(verdict.trace)}`);
  }
  assert.equal(final.avap_code, blocks.map((b) => b.code).join('\n'), 'avap_code is the shown code, joined');
  if (final.avap_code) assert.ok(validateAvap(final.avap_code).valid, 'avap_code joined is valid');
  return final;
}

const jsonLines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Message);

/** What a client that honours `attempt` and `replace` shows when the drafts end. */
function draftsEndOn(messages: Message[]): string {
  let attempt = 1;
  let text = '';
  for (const m of messages) {
    if (m.is_final) continue;
    const next = typeof m.attempt === 'number' ? m.attempt : 1;
    if (next !== attempt || m.replace === true) text = '';
    attempt = next;
    text += m.text;
  }
  return text;
}

describe('what the user reads is what was validated (CLI and REST over real sockets)', function () {
  this.timeout(120_000);
  let ollama: ScriptedOllama;
  let serve: ServeProcess;
  let env: Record<string, string | undefined>;

  before(async () => {
    ollama = await startScriptedOllama({ models: MODELS });
    serve = await startServe(['--port', '0', '--ollama-url', ollama.url, '--quiet']);
  });
  after(async () => {
    const code = await serve?.stop();
    await ollama?.close();
    assert.equal(code, 0);
  });
  beforeEach(() => {
    ollama.reset();
    ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256 addParam' });
    ollama.on({ endpoint: 'chat', when: task('relevance') }, { content: 'YES' });
    env = {
      OLLAMA_HOST: ollama.url,
      AVAP_PARSER_URL: undefined,
      AVAP_PARSER_TIMEOUT: undefined,
      AVAP_ES_URL: undefined,
      AVAP_TELEMETRY_FILE: undefined,
      AVAP_RELEVANCE_MODE: undefined,
      AVAP_MAX_RETRIES: undefined,
    };
  });

  const answerWith = (content: string, node: 'generate_code' | 'generate' = 'generate_code') =>
    ollama.on({ endpoint: 'chat', when: task(node) }, { content });
  const generations = (node: 'generate_code' | 'generate' = 'generate_code') =>
    ollama.calls('chat').filter(task(node)).length;

  const generateJson = async (args: string[] = []) => {
    const run = await runCliProcess(['generate', '--json', ...args, 'hash the password'], { env });
    const lines = jsonLines(run.stdout);
    return { run, lines, final: checkFinal(lines.at(-1), 'code') };
  };

  const postGenerate = async (body: Record<string, unknown>, accept?: string) => {
    const response = await fetch(`${serve.url}/v1/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(accept ? { accept } : {}) },
      body: JSON.stringify(body),
    });
    assert.equal(response.status, 200);
    if (accept === 'text/event-stream') return (await sseEvents(response)).map((e) => e.data as Message);
    return (await ndjson(response)) as Message[];
  };

  describe('F1: a repaired answer is delivered repaired', () => {
    it('CLI text mode: stdout ends with the repaired answer, then "validation: valid AVAP"', async () => {
      answerWith(TWO_BLOCKS);
      const run = await runCliProcess(['generate', 'hash the password'], { env });
      assert.equal(run.code, 0, run.stderr);
      const at = run.stdout.lastIndexOf(REPAIRED_HEADER);
      assert.ok(at > 0, `the repaired answer follows a header:\n${run.stdout}`);
      assert.equal(run.stdout.slice(at + REPAIRED_HEADER.length).trim(), REPAIRED.trim());
      assert.match(run.stderr, /^repair: attempt 1 repaired by the parser's fixes/m);
      assert.match(run.stderr, /^validation: valid AVAP after 1 attempt\(s\)$/m);
      assert.equal(generations(), 1, 'no LLM retry');
    });

    it('CLI --json: a replacing draft and the final text carry the repaired answer', async () => {
      answerWith(TWO_BLOCKS);
      const { run, lines, final } = await generateJson();
      assert.equal(run.code, 0, run.stderr);
      assert.equal(final.validation_status, '');
      assert.equal(final.repaired_by, 'parser-fixes');
      assert.equal(final.text, REPAIRED);
      assert.equal(final.avap_code, REPAIRED_CODE);
      assert.equal(draftsEndOn(lines), REPAIRED);
      assert.deepEqual(
        lines.filter((m) => m.replace === true).map((m) => [m.text, m.draft, m.attempt]),
        [[REPAIRED, true, 1]],
      );
    });

    it('REST NDJSON and SSE: the drafts end on the repaired answer and the final text is it', async () => {
      answerWith(TWO_BLOCKS);
      for (const accept of [undefined, 'text/event-stream']) {
        const messages = await postGenerate({ query: 'hash the password', force_type: 'CODE_GENERATION' }, accept);
        const final = checkFinal(messages.at(-1), 'code');
        assert.equal(final.validation_status, '');
        assert.equal(final.text, REPAIRED);
        assert.equal(final.avap_code, REPAIRED_CODE);
        assert.equal(draftsEndOn(messages), REPAIRED);
      }
    });

    it('REST, documentation route: unfenced code with a let line is validated and delivered repaired', async () => {
      const prose =
        'To hash a password, read it and hash it:\n\naddParam(pwd, pwd)\nhashed = getSHA256(pwd)\n\nThen return it:\n\nlet out = hashed\naddResult(out);\n';
      answerWith(prose, 'generate');
      const messages = await postGenerate({ query: 'how do I hash a password?', force_type: 'RETRIEVAL' });
      const final = checkFinal(messages.at(-1), 'docs');
      assert.equal(final.validation_status, '');
      assert.equal(final.repaired_by, 'parser-fixes');
      assert.doesNotMatch(final.text, /getSHA256|let out|;/);
      assert.equal(draftsEndOn(messages), final.text);
    });
  });

  describe('F2: every line shown as code is validated', () => {
    const shapes: [string, string][] = [
      ['an unfenced while loop', 'Count down:\naddParam(n, n)\nwhile n > 0:\n    n = n - 1\naddResult(n)\n'],
      ['foreach … end foreach', 'addParam(items, items)\nforeach item in items\n  addResult(item)\nend foreach\n'],
      [
        'an avap fence indented in a list item',
        '1. Count down:\n\n    ```avap\n    addParam(n, n)\n    while n > 0:\n    ```\n',
      ],
      [
        'a tilde fence labelled AVAP under a nested item',
        '- Steps\n  - loop:\n    ~~~AVAP\n    addParam(n, n)\n    while n > 0:\n    ~~~\n',
      ],
      ['an avp fence in a blockquote', '> ```avp\n> addParam(n, n)\n> while n > 0:\n> ```\n'],
      ['an indented code block, CRLF', 'Loop:\r\n\r\n    addParam(n, n)\r\n    while n > 0:\r\n'],
    ];
    for (const [name, answer] of shapes) {
      it(`CLI --json, ${name}: exit 3, the loop in avap_code, never ""`, async () => {
        answerWith(answer);
        const { run, final } = await generateJson();
        assert.equal(run.code, 3, run.stderr);
        assert.equal(final.validation_status, 'INVALID_UNRESOLVED');
        assert.match(final.avap_code, /while n > 0:|foreach item in items/);
        assert.equal(generations(), 2, 'the trace-guided retry ran');
      });
    }

    it('CLI text mode, an unfenced while loop: stdout shows the loop, stderr says INVALID_UNRESOLVED', async () => {
      answerWith('addParam(n, n)\nwhile n > 0:\n    n = n - 1\naddResult(n)\n');
      const run = await runCliProcess(['generate', 'count down'], { env });
      assert.equal(run.code, 3, run.stderr);
      assert.match(run.stdout, /while n > 0:/);
      assert.match(run.stderr, /validation: INVALID_UNRESOLVED after 2 attempt\(s\)/);
      assert.match(run.stderr, /Line 2: foreign keyword 'while'/);
    });

    it('REST, documentation route: a list-item fence is never ""', async () => {
      answerWith('1. Count down:\n\n    ```avap\n    addParam(n, n)\n    while n > 0:\n    ```\n', 'generate');
      const messages = await postGenerate({ query: 'how do I loop?', force_type: 'RETRIEVAL' });
      assert.equal(checkFinal(messages.at(-1), 'docs').validation_status, 'INVALID_UNRESOLVED');
    });
  });

  describe('F3: </think> inside code drops nothing', () => {
    const CODE = 'addParam(text, text)\nprint(text)\nreplace(text, "</think>", "", clean)\naddResult(clean)';

    it('CLI --json and text mode: INVALID_UNRESOLVED with every line in avap_code and on stdout', async () => {
      answerWith(avap(CODE));
      const { run, final } = await generateJson();
      assert.equal(run.code, 3, run.stderr);
      assert.equal(final.validation_status, 'INVALID_UNRESOLVED');
      assert.equal(final.avap_code, CODE);
      assert.equal(final.text, avap(CODE));
      const text = await runCliProcess(['generate', 'strip the tag'], { env });
      assert.equal(text.code, 3, text.stderr);
      assert.match(text.stderr, /Line 2: foreign keyword 'print'/);
      assert.doesNotMatch(text.stdout, new RegExp(DELIVERED_HEADER), 'what streamed is what was judged');
    });

    it('REST: valid code around "</think>" after a reasoning preamble is "" with every line delivered', async () => {
      const code = 'addParam(text, text)\nreplace(text, "</think>", "", clean)\naddResult(clean)';
      answerWith(`<think>\nThe tag has to go.\n</think>\n\n${avap(code)}`);
      const messages = await postGenerate({ query: 'strip the tag', force_type: 'CODE_GENERATION' });
      const final = checkFinal(messages.at(-1), 'code');
      assert.equal(final.validation_status, '');
      assert.equal(final.avap_code, code);
      assert.equal(final.text, avap(code), 'the delivered text is without the reasoning');
    });

    it('CLI text mode: the reasoning streamed, then the answer as validated follows it', async () => {
      const code = 'addParam(text, text)\naddResult(text)';
      answerWith(`I will read it.\n</think>\n\n${avap(code)}`);
      const run = await runCliProcess(['generate', 'echo the text'], { env });
      assert.equal(run.code, 0, run.stderr);
      // The reasoning streamed is not part of the answer: the answer as validated follows it, whole.
      const at = run.stdout.lastIndexOf(DELIVERED_HEADER);
      assert.ok(at > run.stdout.indexOf('I will read it.'), run.stdout);
      assert.equal(run.stdout.slice(at + DELIVERED_HEADER.length).trim(), avap(code));
    });
  });

  describe('F4: the status holds for the blocks joined', () => {
    const TWICE = `${avap(DOUBLE)}\nUse it:\n${avap(`${DOUBLE}\naddParam(x, x)\ny = double(x)\naddResult(y)`)}`;

    it('CLI --json: two blocks that each define function double(a) end INVALID_UNRESOLVED, with the trace', async () => {
      answerWith(TWICE);
      const { run, final } = await generateJson();
      assert.equal(run.code, 3, run.stderr);
      assert.equal(final.validation_status, 'INVALID_UNRESOLVED');
      assert.match(JSON.stringify(final.trace), /already defined on line 1/);
    });

    it('REST SSE: the same; a retry that defines it once is ""', async () => {
      ollama.on({ endpoint: 'chat', when: task('generate_code'), times: 1 }, { content: TWICE });
      answerWith(avap(`${DOUBLE}\naddParam(x, x)\ny = double(x)\naddResult(y)`));
      const messages = await postGenerate(
        { query: 'double a number', force_type: 'CODE_GENERATION' },
        'text/event-stream',
      );
      const final = checkFinal(messages.at(-1), 'code');
      assert.equal(final.validation_status, '');
      assert.equal(generations(), 2);
    });
  });

  describe('F8: output and commands after a correct program are not AVAP', () => {
    const outputs: [string, string][] = [
      ['JSON output', avap('{"hashed": "5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8"}', '')],
      ['a curl call', avap('curl "http://localhost:8080/api/hash?pwd=secret"', '')],
      ['a continued curl call in tildes', '~~~\ncurl -X POST http://localhost:8080/api/hash \\\n  -d pwd=secret\n~~~'],
      ['an HTTP response', avap('HTTP/1.1 200 OK\nContent-Type: application/json\n\n{"hashed": "5e88"}', '')],
    ];
    for (const [name, output] of outputs) {
      it(`CLI --json, then ${name}: exit 0, one generation, no early stop, avap_code is the program`, async () => {
        const answer = `${avap(PROGRAM)}\n\nCall it and you get:\n\n${output}\n`;
        answerWith(answer);
        const { run, final } = await generateJson();
        assert.equal(run.code, 0, run.stderr);
        assert.equal(final.validation_status, '');
        assert.equal(final.avap_code, PROGRAM);
        assert.equal(final.text, answer);
        assert.equal(final.early_abort, undefined);
        assert.equal(generations(), 1, 'no retry spent');
      });
    }

    it('CLI text mode and REST: the same answer is valid, printed once', async () => {
      const answer = `${avap(PROGRAM)}\nOutput:\n${avap('{"hashed": "5e88"}', '')}\nTry it:\n${avap('curl "http://localhost/api?pwd=x"', '')}\n`;
      answerWith(answer);
      const run = await runCliProcess(['generate', 'hash the password'], { env });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /^validation: valid AVAP after 1 attempt\(s\)$/m);
      assert.equal(run.stdout.trim(), answer.trim());
      const messages = await postGenerate({ query: 'hash the password', force_type: 'CODE_GENERATION' });
      const final = checkFinal(messages.at(-1), 'code');
      assert.equal(final.validation_status, '');
      assert.equal(final.avap_code, PROGRAM);
      assert.equal(generations(), 2, 'one generation per run');
    });
  });
});

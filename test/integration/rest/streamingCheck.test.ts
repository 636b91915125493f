/**
 * The early-abort check of a streamed answer never holds the REST server's
 * event loop. A 14 KB answer of the adversarial shape (one-line
 * functions, then calls to invented names) arrived in one piece once kept
 * /health from answering for 15 s while the check parsed the fence again for
 * every one of its lines. Here `dist/cli.js serve` receives such an answer
 * from the scripted Ollama in one piece, then waits (the model "thinks") before
 * the rest: /health must answer, again and again, while the model is still on
 * its first piece — an order of events, not a timing.
 */
import assert from 'node:assert/strict';
import { promptTask, type PromptTask } from '../../../src/core/routing/prompts';
import {
  startScriptedOllama,
  systemPrompt,
  type RecordedRequest,
  type ScriptedOllama,
} from '../../support/scriptedOllama';
import { adversarialShapes } from '../../../bench/parser/shapes';
import { startServe, type ServeProcess } from './serveProcess';

const MODELS = ['qwen3:1.7b', 'qwen3:0.6b', 'qwen3-embedding:0.6b'];
const VALID_CODE = 'addParam(password, p)\nencodeSHA256(p, h)\naddResult(h)';
/** Long enough that the first piece's check would end after it, were the check to hold the event loop. */
const PAUSE_MS = 5000;
const HEALTH_CALLS = 5;

const task = (name: PromptTask) => (r: RecordedRequest) => promptTask(systemPrompt(r)) === name;

/** Reads an NDJSON body as it arrives; `next()` resolves with each message in turn. */
function messages(response: Response): { next: () => Promise<Record<string, unknown> | undefined> } {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next() {
      for (;;) {
        const newline = buffer.indexOf('\n');
        if (newline >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          if (line.trim()) return JSON.parse(line) as Record<string, unknown>;
          continue;
        }
        const { value, done } = await reader.read();
        if (done) return undefined;
        buffer += decoder.decode(value, { stream: true });
      }
    },
  };
}

describe('REST server: the streaming check of a large adversarial answer never holds the event loop', function () {
  this.timeout(90_000);
  let ollama: ScriptedOllama;
  let serve: ServeProcess;

  before(async () => {
    ollama = await startScriptedOllama({ models: MODELS });
    serve = await startServe(['--port', '0', '--ollama-url', ollama.url, '--quiet']);
  });
  after(async () => {
    const code = await serve?.stop();
    await ollama?.close();
    assert.equal(code, 0);
  });

  it('/health answers while the model is still on the first piece of a 14 KB F5-shaped answer', async () => {
    const shape = adversarialShapes().find((s) => s.name.startsWith('F5'));
    assert.ok(shape);
    const code = shape.build(Math.round(14_000 / shape.build(1).length)).trimEnd();
    const lines = code.split('\n');
    const last = lines.pop() as string;
    // The whole answer but its last line in one piece: the check meets ~270 complete code lines at once.
    const first = `Here is the program:\n\`\`\`avap\n${lines.join('\n')}\n`;
    assert.ok(first.length > 13_000);
    ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'functions' });
    ollama.on(
      { endpoint: 'chat', when: task('generate_code'), times: 1 },
      { chunks: [first, `${last}\n\`\`\`\n`], chunkDelayMs: PAUSE_MS },
    );
    // The answer is invalid (invented names without a provable fix): the trace-guided retry answers this.
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: `\`\`\`avap\n${VALID_CODE}\n\`\`\`\n` });

    const response = await fetch(`${serve.url}/v1/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'many helpers', force_type: 'CODE_GENERATION' }),
    });
    assert.equal(response.status, 200);
    const stream = messages(response);
    // The first draft: the server has the first piece (and checks its lines right after forwarding it).
    const draft = await stream.next();
    assert.ok(draft && draft.is_final === false, JSON.stringify(draft));
    const generation = ollama.requests.find((r) => task('generate_code')(r));
    assert.ok(generation);
    const order: string[] = [];
    for (let i = 0; i < HEALTH_CALLS; i++) {
      const health = await fetch(`${serve.url}/health`);
      assert.equal(health.status, 200);
      assert.equal(((await health.json()) as { status: string }).status, 'ok');
      order.push(`health ${i + 1} with ${generation.piecesSent} of ${generation.piecesTotal} pieces sent`);
    }
    assert.deepEqual(
      order,
      Array.from({ length: HEALTH_CALLS }, (_, i) => `health ${i + 1} with 1 of 2 pieces sent`),
      'every /health answered before the model sent its second piece',
    );

    // The run itself ends as usual: the invalid answer is retried, and the retry is valid.
    let final: Record<string, unknown> | undefined;
    for (let m = await stream.next(); m; m = await stream.next()) if (m.is_final) final = m;
    assert.equal(final?.validation_status, '');
    assert.equal(final?.avap_code, VALID_CODE);
    assert.equal(final?.early_abort, undefined, 'nothing in the answer was certain to be rejected while it streamed');
    const trace = final?.parser_trace;
    assert.ok(
      typeof trace === 'string' && /function body on the lines after/.test(trace),
      'the first answer was validated whole',
    );
  });
});

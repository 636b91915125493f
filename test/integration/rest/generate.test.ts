/**
 * /v1/generate, /v1/batch, /v1/models and /v1/feedback of the running
 * `dist/cli.js serve`, over real HTTP to a scripted Ollama and the bundled
 * parser service over gRPC. With the judge on, a RETRIEVAL answer is scored,
 * retried once with the weakest dimension's hint, and recorded as a training
 * signal that feedback and `export` then see.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promptTask, type PromptTask } from '../../../src/core/routing/prompts';
import { QUALITY_RETRY_HEAD } from '../../../src/quality/gate';
import { JUDGE_SYSTEM_HEADER } from '../../../src/quality/judge';
import type { SignalRecord, StoreRecord, TrainingSignal } from '../../../src/signals/schema';
import { runCliProcess } from '../../support/dist';
import {
  lastUser,
  startScriptedOllama,
  systemPrompt,
  type RecordedRequest,
  type ScriptedOllama,
} from '../../support/scriptedOllama';
import { ndjson, sseEvents, startServe, type ServeProcess } from './serveProcess';

const MODELS = ['qwen3:1.7b', 'qwen3:0.6b', 'qwen3-embedding:0.6b'];
const VALID_CODE = 'addParam(password, p)\nencodeSHA256(p, h)\naddResult(h)';
// An error without a proven fix: the parser's fixes cannot repair it, the LLM retry runs.
const INVALID_CODE = 'addParam(password, p)\nsha256Encode(p, h)\naddResult(h)';
const fenced = (code: string) => `Here is the program:\n\`\`\`avap\n${code}\n\`\`\`\n`;

const SHALLOW = 'You can hash a password in AVAP by hashing it.';
const GOOD =
  'Use `encodeSHA256(SourceVariable, TargetVariable)` [1]:\n```avap\naddParam(password, pwd)\nencodeSHA256(pwd, pwdHash)\naddResult(pwdHash)\n```\n';

const task = (name: PromptTask) => (r: RecordedRequest) => promptTask(systemPrompt(r)) === name;
const isJudge = (r: RecordedRequest) => systemPrompt(r).startsWith(JUDGE_SYSTEM_HEADER);
const isQualityRetry = (r: RecordedRequest) => lastUser(r).startsWith(QUALITY_RETRY_HEAD);
const verdict = (g: number, s: number, a: number) =>
  JSON.stringify({
    grounding: { reason: 'g', score: g },
    specificity: { reason: 's', score: s },
    actionability: { reason: 'a', score: a },
  });

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

type Message = {
  text: string;
  avap_code: string;
  is_final: boolean;
  validation_status?: string;
  draft?: boolean;
  attempt?: number;
  [k: string]: unknown;
};

interface QualityJson {
  validator: string;
  retried: boolean;
  passed: boolean;
  failure?: { code: string };
  attempts: { hint?: string; verdict: { ok: boolean; assessment?: { composite: number } } }[];
}

function scriptRetrieval(ollama: ScriptedOllama, answer: string): void {
  ollama.on({ endpoint: 'chat', when: task('classify') }, { content: '{"type": "RETRIEVAL"}' });
  ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256 password hash' });
  ollama.on({ endpoint: 'chat', when: task('relevance') }, { content: 'YES' });
  ollama.on({ endpoint: 'chat', when: (r) => task('generate')(r) && !isQualityRetry(r) }, { content: answer });
}

describe('REST server: generate, batch, models and feedback (dist/cli.js serve)', function () {
  this.timeout(90_000);
  let ollama: ScriptedOllama;
  let plain: ServeProcess;
  let judged: ServeProcess;
  let dir: string;
  let signalsFile: string;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'avap-rest-gen-'));
    signalsFile = path.join(dir, 'signals.jsonl');
    ollama = await startScriptedOllama({ models: MODELS });
    [plain, judged] = await Promise.all([
      startServe(['--port', '0', '--ollama-url', ollama.url, '--quiet']),
      startServe(['--port', '0', '--ollama-url', ollama.url, '--judge', 'on', '--signals', signalsFile, '--quiet']),
    ]);
  });
  after(async () => {
    const codes = await Promise.all([plain?.stop(), judged?.stop()]);
    await ollama?.close();
    rmSync(dir, { recursive: true, force: true });
    assert.deepEqual(codes, [0, 0]);
  });
  beforeEach(() => ollama.reset());

  it('streams NDJSON: the answer in pieces, then one final message with the status and the code', async () => {
    ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256 addParam' });
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    const response = await post(`${plain.url}/v1/generate`, {
      query: 'return the SHA-256 of the password parameter',
      force_type: 'CODE_GENERATION',
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/x-ndjson/);
    const messages = (await ndjson(response)) as Message[];
    const final = messages[messages.length - 1] as Message;
    assert.equal(messages.filter((m) => m.is_final).length, 1, 'exactly one final message, the last');
    assert.equal(final.is_final, true);
    assert.equal(final.validation_status, '');
    assert.equal(final.avap_code, VALID_CODE);
    assert.equal(final.query_type, 'CODE_GENERATION');
    assert.equal(final.parser_trace, '', 'valid at once: an empty parser_trace');
    assert.match(String(final.generation_id), /^[0-9a-f-]{36}$/);
    assert.equal(
      messages
        .slice(0, -1)
        .map((m) => m.text)
        .join(''),
      fenced(VALID_CODE),
    );
    assert.ok(messages.slice(0, -1).every((m) => m.attempt === 1));
    assert.equal(ollama.calls('chat').filter(task('classify')).length, 0, 'force_type skips the classifier');
  });

  it('streams server-sent events when the client accepts text/event-stream; invalid twice → INVALID_UNRESOLVED', async () => {
    ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256' });
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(INVALID_CODE) });
    const response = await post(
      `${plain.url}/v1/generate`,
      { query: 'hash the password', force_type: 'CODE_GENERATION' },
      { accept: 'text/event-stream' },
    );
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    const events = await sseEvents(response);
    assert.ok(events.every((e) => e.event === 'message'));
    assert.deepEqual(
      events.map((e) => Number(e.id)),
      events.map((_, i) => i + 1),
      'ids count up',
    );
    const final = events[events.length - 1]?.data as Message;
    assert.equal(final.is_final, true);
    assert.equal(final.validation_status, 'INVALID_UNRESOLVED');
    assert.equal(
      final.parser_trace,
      "Line 2: unknown command 'sha256Encode' — expected known identifier",
      "the first attempt's raw trace (D1)",
    );
    assert.ok(
      events.some((e) => e.data.attempt === 2),
      'the retry is streamed as attempt 2',
    );
  });

  it('"stream": "sse" in the body chooses SSE without an Accept header', async () => {
    ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256' });
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    const response = await post(`${plain.url}/v1/generate`, {
      query: 'hash',
      force_type: 'CODE_GENERATION',
      stream: 'sse',
    });
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    const events = await sseEvents(response);
    assert.equal(events[events.length - 1]?.data.avap_code, VALID_CODE);
  });

  it('a model that is not pulled answers 502 with the actionable message, not an empty stream', async () => {
    const other = await startServe(['--port', '0', '--ollama-url', ollama.url, '--model', 'missing:7b', '--quiet']);
    try {
      const response = await post(`${other.url}/v1/generate`, { query: 'hash', force_type: 'CODE_GENERATION' });
      assert.equal(response.status, 502);
      const body = (await response.json()) as { error: string; message: string };
      assert.equal(body.error, 'model-missing');
      assert.match(body.message, /ollama pull missing:7b/);
    } finally {
      assert.equal(await other.stop(), 0);
    }
  });

  it('GET /v1/models lists the models Ollama has pulled', async () => {
    const response = await fetch(`${plain.url}/v1/models`);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { models: MODELS });
  });

  it('POST /v1/batch answers each request in order', async () => {
    ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256' });
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    const response = await post(`${plain.url}/v1/batch`, {
      requests: [
        { kind: 'validate', source: INVALID_CODE, filename: 'bad.avap' },
        { kind: 'generate', query: 'hash the password', force_type: 'CODE_GENERATION' },
        { kind: 'validate', source: VALID_CODE, filename: 'good.avap' },
      ],
    });
    assert.equal(response.status, 200);
    const { results } = (await response.json()) as {
      results: { index: number; kind: string; status: number; body: Record<string, unknown> }[];
    };
    assert.deepEqual(
      results.map((r) => [r.index, r.kind, r.status]),
      [
        [0, 'validate', 200],
        [1, 'generate', 200],
        [2, 'validate', 200],
      ],
    );
    assert.equal(results[0]?.body.valid, false);
    assert.equal(results[0]?.body.file, 'bad.avap');
    assert.equal(results[1]?.body.avap_code, VALID_CODE);
    assert.equal(results[1]?.body.validation_status, '');
    assert.equal(results[2]?.body.valid, true);
  });

  it('POST /v1/feedback without a signal store is a 409', async () => {
    const response = await post(`${plain.url}/v1/feedback`, { generation_id: 'x', thumbs: 'up' });
    assert.equal(response.status, 409);
  });

  describe('with the judge on and training signals recorded', () => {
    let generationId = '';

    it("a shallow RETRIEVAL answer is judged, retried once with the weakest dimension's hint, and the retry is returned with its scores", async () => {
      scriptRetrieval(ollama, SHALLOW);
      ollama.on({ endpoint: 'chat', when: isQualityRetry }, { content: GOOD });
      ollama.on({ endpoint: 'chat', when: isJudge, times: 1 }, { content: verdict(0.6, 0.1, 0.3) });
      ollama.on({ endpoint: 'chat', when: isJudge, times: 1 }, { content: verdict(0.9, 0.9, 1) });
      const response = await post(`${judged.url}/v1/generate`, {
        query: 'How do I hash a password parameter with SHA-256?',
      });
      assert.equal(response.status, 200);
      const messages = (await ndjson(response)) as Message[];
      const final = messages[messages.length - 1] as Message & { quality: QualityJson };
      assert.equal(final.query_type, 'RETRIEVAL');
      assert.equal(final.context_relevant, true, 'the relevance check said YES (D1 context_relevant)');
      assert.equal('parser_trace' in final, false);
      assert.equal(
        messages
          .filter((m) => !m.is_final && m.attempt === 1)
          .map((m) => m.text)
          .join(''),
        SHALLOW,
      );
      assert.equal(
        messages
          .filter((m) => !m.is_final && m.attempt === 2)
          .map((m) => m.text)
          .join(''),
        GOOD,
      );
      assert.ok(final.avap_code.includes('encodeSHA256(pwd, pwdHash)'), "the final code is the retry's");
      assert.equal(final.quality.validator, 'llm-judge');
      assert.equal(final.quality.retried, true);
      assert.equal(final.quality.passed, true);
      assert.equal(final.quality.attempts[0]?.verdict.assessment?.composite, 0.39);
      assert.match(final.quality.attempts[1]?.hint ?? '', /Cite the exact AVAP command and its argument order/);
      assert.equal(final.quality.attempts[1]?.verdict.assessment?.composite, 0.92);
      const retry = ollama.calls('chat').find(isQualityRetry) as RecordedRequest;
      assert.ok(lastUser(retry).includes('Cite the exact AVAP command and its argument order'));
      const judge = ollama.calls('chat').find(isJudge) as RecordedRequest;
      assert.match(
        lastUser(judge),
        /RETRIEVED DOCUMENTATION:\n\[1\] /,
        'the judge sees the retrieved documentation text',
      );
      assert.equal(ollama.calls('chat').filter(isJudge).length, 2);
      generationId = String(final.generation_id);
    });

    it('the generation is in the signal store with its context, output, scores and model', () => {
      const lines = readFileSync(signalsFile, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as StoreRecord);
      const signal = lines.find((l): l is SignalRecord => l.record === 'signal' && l.id === generationId);
      assert.ok(signal, 'signal recorded');
      assert.equal(signal.signal_type, 'retrieval');
      assert.equal(signal.source, 'rest');
      assert.equal(signal.input.query, 'How do I hash a password parameter with SHA-256?');
      assert.ok(
        signal.input.context.length > 0 &&
          signal.input.context.every((c: { text?: string }) => typeof c.text === 'string' && c.text.length > 0),
      );
      assert.equal(signal.output.text, GOOD);
      assert.equal(signal.automated.score?.composite, 0.92);
      assert.deepEqual(
        signal.automated.history.map((h: { composite: number }) => h.composite),
        [0.39, 0.92],
      );
      assert.equal(signal.model.name, 'qwen3:1.7b');
      assert.equal(signal.model.judge, 'qwen3:1.7b');
      assert.match(signal.model.parser_version ?? '', /^avap-parser\//);
      assert.ok(!Number.isNaN(Date.parse(signal.created_at)));
    });

    it('thumbs and outcome are recorded through /v1/feedback; an unknown generation is a 404', async () => {
      const ok = await post(`${judged.url}/v1/feedback`, {
        generation_id: generationId,
        thumbs: 'up',
        outcome: 'accepted',
      });
      assert.equal(ok.status, 200);
      assert.deepEqual(await ok.json(), { recorded: true, generation_id: generationId });
      const unknown = await post(`${judged.url}/v1/feedback`, { generation_id: 'no-such-generation', thumbs: 'down' });
      assert.equal(unknown.status, 404);
      const empty = await post(`${judged.url}/v1/feedback`, { generation_id: generationId });
      assert.equal(empty.status, 400);
      assert.match(((await empty.json()) as { error: string }).error, /needs thumbs or outcome/);
    });

    it('/v1/feedback caps final_code: 3 MB (or 1 MiB of UTF-8 in fewer characters) is a 400 with the reason, and nothing is stored', async () => {
      const size = statSync(signalsFile).size;
      for (const finalCode of ['x'.repeat(3_000_000), '€'.repeat(400_000)]) {
        const response = await post(`${judged.url}/v1/feedback`, {
          generation_id: generationId,
          outcome: 'edited',
          thumbs: 'down',
          final_code: finalCode,
        });
        assert.equal(response.status, 400);
        const body = (await response.json()) as { valid: boolean; error: string; suggestions: string[] };
        assert.equal(body.valid, false);
        assert.match(
          body.error,
          /^Invalid POST \/v1\/feedback body: 'final_code' (must have at most 1048576 characters|is 1200000 bytes of UTF-8, over the limit of 1048576)/,
        );
        assert.ok(body.suggestions.length > 0);
      }
      assert.equal(statSync(signalsFile).size, size, 'nothing was written to the signal store');
    });

    it('`export` hands the signal with its feedback to a training pipeline; --mark makes it used_for_training', async () => {
      const first = await runCliProcess(['export', '--feedback', 'up', '--features', signalsFile]);
      assert.equal(first.code, 0, first.stderr);
      const exported = first.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as TrainingSignal & { features: Record<string, number> });
      const mine = exported.find((s) => s.id === generationId);
      assert.ok(mine, first.stdout);
      assert.equal(mine.feedback?.thumbs, 'up');
      assert.equal(mine.outcome?.outcome, 'accepted');
      assert.equal(mine.used_for_training, false);
      assert.equal(typeof mine.features.commands_named, 'number');
      // The reward: judge composite 0.92, thumbs up 1, accepted 1 → 0.3 · 0.92 + 0.4 + 0.3.
      assert.deepEqual(
        [mine.feedback?.score, mine.reward_version, mine.reward_components, mine.computed_reward],
        [1, 1, { automated: 0.92, human_feedback: 1, outcome: 1 }, 0.976],
      );
      assert.equal(mine.reward_computed_at, mine.outcome?.at);

      const marked = await runCliProcess([
        'export',
        '--unused',
        '--mark',
        '--batch',
        'rest-batch-1',
        '--label',
        'rest-test',
        signalsFile,
      ]);
      assert.equal(marked.code, 0, marked.stderr);
      assert.match(marked.stderr, /marked \d+ signals as used for training \(batch rest-batch-1\)/);
      const again = await runCliProcess(['export', '--unused', signalsFile]);
      assert.equal(again.stdout, '', 'nothing unused is left');
      const all = await runCliProcess(['export', signalsFile]);
      assert.ok(
        all.stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as TrainingSignal)
          .every((s) => s.used_for_training === true && s.training_batch_id === 'rest-batch-1'),
      );
    });

    it('a malformed judge answer is reported as a judge failure, never a score, and the answer comes back unretried', async () => {
      scriptRetrieval(ollama, GOOD);
      ollama.on({ endpoint: 'chat', when: isJudge }, { content: 'Looks good to me!' });
      const response = await post(`${judged.url}/v1/generate`, {
        query: 'How do I hash a password parameter with SHA-256?',
      });
      const messages = (await ndjson(response)) as Message[];
      const final = messages[messages.length - 1] as Message & { quality: QualityJson };
      assert.equal(final.quality.retried, false);
      assert.equal(final.quality.passed, false);
      assert.equal(final.quality.failure?.code, 'judge-malformed');
      assert.equal('assessment' in (final.quality.attempts[0]?.verdict ?? {}), false);
      assert.equal(
        messages
          .filter((m) => !m.is_final)
          .map((m) => m.text)
          .join(''),
        GOOD,
      );
      assert.equal(ollama.calls('chat').filter(isQualityRetry).length, 0);
    });

    it('CODE_GENERATION is not judged (the parser is its validator)', async () => {
      ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256' });
      ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
      const response = await post(`${judged.url}/v1/generate`, { query: 'hash', force_type: 'CODE_GENERATION' });
      const messages = (await ndjson(response)) as Message[];
      assert.equal(messages[messages.length - 1]?.quality, undefined);
      assert.equal(ollama.calls('chat').filter(isJudge).length, 0);
    });
  });

  describe('every status is earned', () => {
    it("force_type RETRIEVAL: the answer's code is validated before the final message; every earlier message is a draft", async () => {
      ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256' });
      ollama.on({ endpoint: 'chat', when: task('relevance') }, { content: 'YES' });
      ollama.on({ endpoint: 'chat', when: task('generate') }, { content: fenced(INVALID_CODE) });
      const response = await post(`${plain.url}/v1/generate`, {
        query: 'how do I hash a password?',
        force_type: 'RETRIEVAL',
      });
      assert.equal(response.status, 200);
      const messages = (await ndjson(response)) as Message[];
      const final = messages.at(-1) as Message & { retry: { usedBy: string }; retrieval: { status: string } };
      assert.equal(final.query_type, 'RETRIEVAL');
      assert.equal(final.validation_status, 'INVALID_UNRESOLVED');
      assert.equal(final.avap_code, INVALID_CODE);
      assert.equal(final.retry.usedBy, 'parser-trace');
      assert.deepEqual(final.retrieval, { status: 'ok' });
      for (const m of messages.slice(0, -1)) {
        assert.equal(m.draft, true);
        assert.equal(m.avap_code, '');
        assert.equal('validation_status' in m, false);
      }
      assert.equal(ollama.calls('chat').filter(task('generate')).length, 2, 'one trace-guided retry');
    });

    it('a model that stalls mid-stream: the stream ends with a final message carrying the error, no status', async () => {
      const impatient = await startServe(['--port', '0', '--ollama-url', ollama.url, '--quiet'], {
        AVAP_LLM_IDLE_TIMEOUT: '0.4',
      });
      try {
        ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256' });
        ollama.on(
          { endpoint: 'chat', when: task('generate_code') },
          { content: fenced(VALID_CODE), stallAfterChunks: 2 },
        );
        const response = await post(`${impatient.url}/v1/generate`, { query: 'hash', force_type: 'CODE_GENERATION' });
        assert.equal(response.status, 200);
        const messages = (await ndjson(response)) as Message[];
        const final = messages.at(-1) as Message & { error: { error: string; message: string } };
        assert.equal(final.is_final, true);
        assert.equal(final.error.error, 'llm-timeout');
        assert.match(final.error.message, /stopped sending mid-answer: nothing for 0\.4 s/);
        assert.equal('validation_status' in final, false, 'a failed run claims nothing');
        assert.equal(final.avap_code, '');
        assert.equal(messages.length, 3, 'two drafts, then the final message');
      } finally {
        assert.equal(await impatient.stop(), 0);
      }
    });

    it("with the judge on, its hinted retry is skipped when the relevance reformulation used the request's one retry", async () => {
      ollama.on({ endpoint: 'chat', when: task('classify') }, { content: '{"type": "RETRIEVAL"}' });
      ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256 password hash' });
      ollama.on({ endpoint: 'chat', when: task('relevance') }, { content: 'NO' });
      ollama.on({ endpoint: 'chat', when: (r) => task('generate')(r) && !isQualityRetry(r) }, { content: SHALLOW });
      ollama.on({ endpoint: 'chat', when: isJudge }, { content: verdict(0.6, 0.1, 0.3) });
      const response = await post(`${judged.url}/v1/generate`, {
        query: 'How do I hash a password parameter with SHA-256?',
      });
      const messages = (await ndjson(response)) as Message[];
      const final = messages.at(-1) as Message & { quality: QualityJson & { retrySkipped: unknown } };
      assert.equal(final.quality.retried, false);
      assert.deepEqual(final.quality.retrySkipped, {
        trigger: 'judge-hint',
        reason: 'cycle-used',
        usedBy: 'relevance',
      });
      assert.equal(ollama.calls('chat').filter(isQualityRetry).length, 0, 'no second retry cycle');
      assert.equal(final.validation_status, '');
    });
  });

  it('a client that disconnects mid-stream does not take the server down', async () => {
    ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256' });
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE), chunkDelayMs: 200 });
    const response = await post(`${plain.url}/v1/generate`, { query: 'hash', force_type: 'CODE_GENERATION' }, {});
    const reader = response.body?.getReader();
    await reader?.read();
    await reader?.cancel();
    const health = await fetch(`${plain.url}/health`);
    assert.equal(health.status, 200);
    assert.equal(((await health.json()) as { status: string }).status, 'ok');
  });
});

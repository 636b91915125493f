/**
 * Every status earned and every outcome told, through the built CLI (child processes, the bundled parser service,
 * the scripted Ollama with its fault modes): seconds for the parser timeout,
 * a stalled model that ends with exit 2, every non-valid outcome reported in
 * text mode, and a --json stdout that holds only JSON lines.
 */
import assert from 'node:assert/strict';
import { logRetrievalFailed } from '../../../src/core/pipeline/retrieve';
import { runCliProcess } from '../../support/dist';
import { unusedPort } from '../../support/ports';
import { startScriptedOllama, type ScriptedOllama } from '../../support/scriptedOllama';
import { fenced, INVALID_CODE, MODELS, task, VALID_CODE } from './fixture';
import { prefixed } from '../../../src/core/ports';

describe('CLI: every outcome told truthfully', function () {
  this.timeout(60_000);
  let ollama: ScriptedOllama;
  let env: Record<string, string | undefined>;

  before(async () => {
    ollama = await startScriptedOllama({ models: MODELS });
  });
  after(async () => {
    await ollama.close();
  });
  beforeEach(() => {
    ollama.reset();
    ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256 addParam' });
    env = {
      OLLAMA_HOST: ollama.url,
      AVAP_PARSER_URL: undefined,
      AVAP_PARSER_TIMEOUT: undefined,
      AVAP_ES_URL: undefined,
      AVAP_TELEMETRY_FILE: undefined,
      AVAP_RELEVANCE_MODE: undefined,
      AVAP_MAX_RETRIES: undefined,
      AVAP_LLM_IDLE_TIMEOUT: undefined,
      PARSER_CB_THRESHOLD: undefined,
      PARSER_CB_COOLDOWN: undefined,
    };
  });

  const jsonOnly = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .map((line) => {
        try {
          return JSON.parse(line) as Record<string, unknown>;
        } catch {
          throw new Error(`stdout holds a line that is not JSON: ${line}\n--- stdout ---\n${stdout}`);
        }
      });

  it('AVAP_PARSER_TIMEOUT is seconds as the design writes it: 2 validates, 0.5 too', async () => {
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    for (const value of ['2', '0.5']) {
      const run = await runCliProcess(['generate', '--json', 'hash'], { env: { ...env, AVAP_PARSER_TIMEOUT: value } });
      assert.equal(run.code, 0, `${value}: ${run.stderr}`);
      assert.equal(jsonOnly(run.stdout).at(-1)?.validation_status, '');
    }
    const flag = await runCliProcess(['generate', '--json', '--parser-timeout', '1.5', 'hash'], { env });
    assert.equal(flag.code, 0, flag.stderr);
  });

  it('a leftover millisecond figure is refused with the unit and what to write (exit 2)', async () => {
    const byEnv = await runCliProcess(['generate', 'hash'], { env: { ...env, AVAP_PARSER_TIMEOUT: '2000' } });
    assert.equal(byEnv.code, 2);
    assert.match(
      byEnv.stderr,
      /AVAP_PARSER_TIMEOUT is in seconds \(it was read as milliseconds before\).*write 2 \(or 2000ms\)/,
    );
    const byFlag = await runCliProcess(['generate', '--parser-timeout', '2000', 'hash'], { env });
    assert.equal(byFlag.code, 2);
    assert.match(byFlag.stderr, /--parser-timeout is in seconds/);
    const help = await runCliProcess(['generate', '--help'], { env });
    assert.match(help.stdout, /--parser-timeout S +seconds per parser call, decimals allowed/);
    assert.match(help.stdout, /AVAP_LLM_IDLE_TIMEOUT/);
  });

  it('a model that stalls mid-stream: exit 2 with the idle-timeout error — it never hangs', async () => {
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE), stallAfterChunks: 2 });
    const text = await runCliProcess(['generate', 'hash'], { env: { ...env, AVAP_LLM_IDLE_TIMEOUT: '0.5' } });
    assert.equal(text.code, 2, text.stderr);
    assert.match(text.stderr, /avap: Ollama at .* stopped sending mid-answer: nothing for 0\.5 s/);
    assert.match(text.stderr, /validation: none — the run failed before any code was validated \(llm-timeout\)/);

    const json = await runCliProcess(['generate', '--json', 'hash'], { env: { ...env, AVAP_LLM_IDLE_TIMEOUT: '0.5' } });
    assert.equal(json.code, 2, json.stderr);
    const lines = jsonOnly(json.stdout);
    const final = lines.at(-1) as Record<string, unknown>;
    assert.equal(final.is_final, true);
    assert.equal('validation_status' in final, false, 'a failed run claims nothing');
    assert.equal((final.error as { code: string }).code, 'llm-timeout');
    assert.ok(lines.slice(0, -1).every((l) => l.draft === true));
  });

  it('the retry itself failing (Ollama crashes on the second call): text mode still prints the status and the trace', async () => {
    ollama.on({ endpoint: 'chat', when: task('generate_code'), times: 1 }, { content: fenced(INVALID_CODE) });
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { crash: true });
    const run = await runCliProcess(['generate', 'hash'], { env });
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /avap: .*Ollama/);
    assert.match(
      run.stderr,
      /validation: INVALID_UNRESOLVED after 1 attempt\(s\) \(the retry could not be generated\)/,
    );
    assert.match(run.stderr, /Line 2: unknown command 'sha256Encode'/);
  });

  it("--json stdout holds only JSON lines when Ollama answers a non-JSON 500 (the client's own print goes to stderr)", async () => {
    ollama.on(
      { endpoint: 'chat', when: task('generate_code') },
      { status: 500, rawError: '<html>Internal Server Error</html>' },
    );
    const run = await runCliProcess(['generate', '--json', 'hash'], { env });
    assert.equal(run.code, 2, run.stderr);
    const lines = jsonOnly(run.stdout);
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.is_final, true);
    assert.equal((lines[0]?.error as { code: string }).code, 'llm-failed');
    assert.match(run.stderr, /Getting text from response/, 'what the dependency printed is on stderr');
  });

  it('ask: a documentation answer with invalid code → exit 3, the status line and the trace in text mode', async () => {
    ollama.on({ endpoint: 'chat', when: task('classify') }, { content: '{"type":"RETRIEVAL"}' });
    ollama.on({ endpoint: 'chat', when: task('relevance') }, { content: 'YES' });
    ollama.on({ endpoint: 'chat', when: task('generate') }, { content: fenced(INVALID_CODE) });
    const run = await runCliProcess(['ask', 'how do I hash the password parameter?'], { env });
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /validation: INVALID_UNRESOLVED after 2 attempt\(s\)/);
    assert.match(run.stderr, /Line 2: unknown command 'sha256Encode'/);
  });

  it('AVAP_MAX_RETRIES above 1 is refused; 0 makes no retry of any kind and says so', async () => {
    const two = await runCliProcess(['generate', 'hash'], { env: { ...env, AVAP_MAX_RETRIES: '2' } });
    assert.equal(two.code, 2);
    assert.match(two.stderr, /AVAP_MAX_RETRIES must be 0 or 1/);
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(INVALID_CODE) });
    const zero = await runCliProcess(['generate', 'hash'], { env: { ...env, AVAP_MAX_RETRIES: '0' } });
    assert.equal(zero.code, 3, zero.stderr);
    assert.match(zero.stderr, /retry: skipped — parser-trace: retries are disabled \(max retries 0\)/);
    assert.equal(ollama.calls('chat').filter(task('generate_code')).length, 1);
  });

  it('the parser unreachable: PARSER_UNAVAILABLE is reported with its reason in text mode (exit 4)', async () => {
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    const run = await runCliProcess(['generate', 'hash'], {
      env: { ...env, AVAP_PARSER_URL: `127.0.0.1:${await unusedPort()}` },
    });
    assert.equal(run.code, 4, run.stderr);
    assert.match(
      run.stderr,
      /validation: PARSER_UNAVAILABLE after 1 attempt\(s\) — the code was not validated \(transport: /,
    );
  });

  it('Elasticsearch down: the final message says the answer had no documentation context', async () => {
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    const esEnv = { ...env, AVAP_ES_URL: `http://127.0.0.1:${await unusedPort()}` };
    const json = await runCliProcess(['generate', '--json', 'hash'], { env: esEnv });
    assert.equal(json.code, 0, json.stderr);
    const final = jsonOnly(json.stdout).at(-1) as {
      retrieval: { status: string; reason: string };
      validation_status: string;
    };
    assert.equal(final.retrieval.status, 'degraded');
    assert.match(final.retrieval.reason, /retrieval failed \(elasticsearch/);
    assert.equal(final.validation_status, '');
    const [, source = '', message = ''] = /^retrieval failed \((.*?)\): (.*)$/.exec(final.retrieval.reason) ?? [];
    assert.ok(json.stderr.includes(prefixed(logRetrievalFailed(source, message))), json.stderr);
  });
});

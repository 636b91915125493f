/**
 * The CLI end to end: `node dist/cli.js generate|ask|metrics|index` as child
 * processes against the scripted Ollama and the bundled parser service
 * (started by the CLI itself when no parser URL is given).
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LOG_PARSER_UNAVAILABLE, prefixed } from '../../../src/core';
import type { Comparison } from '../../../src/core/telemetry/comparison';
import type { Metrics } from '../../../src/core/telemetry/metrics';
import { runCliProcess } from '../../support/dist';
import { startScriptedOllama, type ScriptedOllama } from '../../support/scriptedOllama';
import {
  fenced,
  FIXABLE_CODE,
  FOREIGN_CODE,
  FOREIGN_EARLY_CODE,
  INVALID_CODE,
  MODELS,
  task,
  VALID_CODE,
} from './fixture';
import { unusedPort } from '../../support/ports';

describe('CLI generate / ask / metrics / index (dist/cli.js, bundled parser service)', function () {
  let ollama: ScriptedOllama;
  let dir: string;
  let env: Record<string, string | undefined>;

  before(async () => {
    ollama = await startScriptedOllama({ models: MODELS });
    dir = mkdtempSync(path.join(os.tmpdir(), 'avap-cli-'));
  });
  after(async () => {
    await ollama.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    ollama.reset();
    ollama.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256 addParam' });
    // The environment of a user with nothing configured but Ollama: the parser is the bundled service.
    env = {
      OLLAMA_HOST: ollama.url,
      AVAP_PARSER_URL: undefined,
      AVAP_PARSER_TIMEOUT: undefined,
      AVAP_ES_URL: undefined,
      AVAP_TELEMETRY_FILE: undefined,
      AVAP_RELEVANCE_MODE: undefined,
      PARSER_CB_THRESHOLD: undefined,
      PARSER_CB_COOLDOWN: undefined,
    };
  });

  const jsonLines = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it('generate --json: exit 0, the response messages as JSON lines, the last final with status ""', async () => {
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    const run = await runCliProcess(['generate', '--json', 'return the SHA-256 of the password parameter'], { env });
    assert.equal(run.code, 0, run.stderr);
    const lines = jsonLines(run.stdout);
    const final = lines[lines.length - 1] as Record<string, unknown>;
    assert.equal(final.is_final, true);
    assert.equal(final.validation_status, '');
    assert.equal(final.avap_code, VALID_CODE);
    assert.equal(final.query_type, 'CODE_GENERATION');
    assert.equal(final.parser_trace, '', 'valid on the first attempt: an empty parser_trace');
    for (const line of lines.slice(0, -1)) {
      // Drafts: marked, no status (no validity claim before the verdict), no code.
      assert.deepEqual(Object.keys(line).sort(), ['attempt', 'avap_code', 'draft', 'is_final', 'text']);
      assert.equal(line.is_final, false);
      assert.equal(line.draft, true);
      assert.equal(line.avap_code, '');
    }
    assert.deepEqual(final.retrieval, { status: 'ok' });
    assert.deepEqual(final.retry, { limit: 1, skipped: [] });
    assert.equal(
      lines
        .slice(0, -1)
        .map((l) => l.text)
        .join(''),
      fenced(VALID_CODE),
    );
    assert.equal(ollama.calls('chat').filter(task('classify')).length, 0, 'generate forces CODE_GENERATION');
  });

  it('generate: invalid twice → exit 3, both attempts streamed, the trace on stderr', async () => {
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(FOREIGN_CODE) });
    const run = await runCliProcess(['generate', 'hash the password'], { env });
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stdout, /--- attempt 2: regenerating with the parser's trace ---/);
    assert.match(run.stderr, /validation: INVALID_UNRESOLVED after 2 attempt\(s\)/);
    assert.match(run.stderr, /Line 1: .*import/);
  });

  it('generate: invalid then fixed → exit 0 with two attempts', async () => {
    ollama.on({ endpoint: 'chat', when: task('generate_code'), times: 1 }, { content: fenced(INVALID_CODE) });
    ollama.on({ endpoint: 'chat', when: task('generate_code'), times: 1 }, { content: fenced(VALID_CODE) });
    const run = await runCliProcess(['generate', '--json', 'hash the password'], { env });
    assert.equal(run.code, 0, run.stderr);
    const final = jsonLines(run.stdout).pop();
    assert.equal(final?.attempts, 2);
    assert.equal(final?.validation_status, '');
    assert.deepEqual(final?.trace, [], 'the final code is valid');
    assert.equal(
      final?.parser_trace,
      "Line 2: unknown command 'sha256Encode' — expected known identifier",
      "the first attempt's raw trace (D1)",
    );
    assert.equal(final?.context_relevant, undefined);
  });

  it("generate: an answer repaired by the parser's fixes says so — a repair line in text mode, repaired_by in --json", async () => {
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(FIXABLE_CODE) });
    const text = await runCliProcess(['generate', 'hash the password'], { env });
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stderr,
      /^repair: attempt 1 repaired by the parser's fixes — \d+ fix\(es\) in \d+ round\(s\), validated by the parser service; no LLM retry spent$/m,
    );
    assert.doesNotMatch(text.stderr, /^stream: /m);
    const json = await runCliProcess(['generate', '--json', 'hash the password'], { env });
    assert.equal(json.code, 0, json.stderr);
    const final = jsonLines(json.stdout).pop();
    assert.equal(final?.validation_status, '');
    assert.equal(final?.repaired_by, 'parser-fixes');
    assert.equal(final?.attempts, 1, 'the repair is a record of the one attempt, not another attempt');
    assert.equal(final?.avap_code, VALID_CODE);
    assert.equal(ollama.calls('chat').filter(task('generate_code')).length, 2, 'one generation per run: no LLM retry');
  });

  it('generate: a stream stopped early by the in-process check says so — a stream line in text mode, early_abort in --json', async () => {
    ollama.on(
      { endpoint: 'chat', when: task('generate_code'), times: 1 },
      { content: fenced(FOREIGN_EARLY_CODE), chunkDelayMs: 5 },
    );
    ollama.on({ endpoint: 'chat', when: task('generate_code'), times: 1 }, { content: fenced(VALID_CODE) });
    const text = await runCliProcess(['generate', 'hash the password'], { env });
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stderr,
      /^stream: attempt 1 stopped early — line 4 \(foreign-keyword\) is certain to be rejected; the model was stopped and asked again with the trace$/m,
    );
    assert.doesNotMatch(text.stderr, /^repair: /m);
    ollama.on(
      { endpoint: 'chat', when: task('generate_code'), times: 1 },
      { content: fenced(FOREIGN_EARLY_CODE), chunkDelayMs: 5 },
    );
    ollama.on({ endpoint: 'chat', when: task('generate_code'), times: 1 }, { content: fenced(VALID_CODE) });
    const json = await runCliProcess(['generate', '--json', 'hash the password'], { env });
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(jsonLines(json.stdout).pop()?.early_abort, { attempt: 1, line: 4, rule: 'foreign-keyword' });
  });

  it('generate --parser-timeout 0 → exit 4 and the [ptvl] unvalidated line', async () => {
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(INVALID_CODE) });
    const run = await runCliProcess(['generate', '--parser-timeout', '0', 'hash'], { env });
    assert.equal(run.code, 4, run.stderr);
    assert.ok(
      run.stderr.split('\n').some((l) => l.startsWith(prefixed(LOG_PARSER_UNAVAILABLE))),
      run.stderr,
    );
    assert.equal(ollama.calls('chat').filter(task('generate_code')).length, 1);
  });

  it('generate with an unreachable parser URL (AVAP_PARSER_URL) → exit 4', async () => {
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    const run = await runCliProcess(['generate', 'hash'], {
      env: { ...env, AVAP_PARSER_URL: `127.0.0.1:${await unusedPort()}` },
    });
    assert.equal(run.code, 4, run.stderr);
    assert.ok(run.stderr.includes(prefixed(LOG_PARSER_UNAVAILABLE)), run.stderr);
  });

  it('generate with Ollama unreachable → exit 2 with an actionable message', async () => {
    const port = await unusedPort();
    const run = await runCliProcess(['generate', '--ollama-url', `http://127.0.0.1:${port}`, 'hash'], { env });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /Ollama is not running at http:\/\/127\.0\.0\.1:\d+ .*ollama serve/);
  });

  it('usage errors → exit 2', async () => {
    for (const args of [
      ['generate'],
      ['ask', '--relevance', 'psychic', 'q'],
      ['generate', '--parser-url', 'not a url', 'q'],
      ['generate', '--parser-timeout', 'soon', 'q'],
    ]) {
      const run = await runCliProcess(args, { env });
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, /Usage: node dist\/cli\.js/);
    }
  });

  it('ask: classified and routed (RETRIEVAL with the cosine check over the shipped knowledge base) → exit 0', async () => {
    ollama.on({ endpoint: 'chat', when: task('classify') }, { content: '{"type":"RETRIEVAL"}' });
    ollama.on({ endpoint: 'chat', when: task('generate') }, { content: 'addParam reads a request parameter.' });
    const run = await runCliProcess(['ask', '--json', '--relevance', 'cosine', 'How does addParam work?'], { env });
    assert.equal(run.code, 0, run.stderr);
    const final = jsonLines(run.stdout).pop();
    assert.equal(final?.query_type, 'RETRIEVAL');
    assert.equal(final?.validation_status, '');
    // The scripted embedder's bag-of-words vectors put the question below the 0.5 cosine threshold: the check said
    // no, and the hinted reformulation retrieved once more (D1: context_relevant is the first check's verdict).
    assert.equal(final?.context_relevant, false);
    assert.equal(
      ollama.calls('chat').filter(task('reformulate')).length,
      2,
      'reformulated, then reformulated with the hint',
    );
    assert.equal(final?.parser_trace, undefined);
    const generation = ollama.calls('chat').find(task('generate'));
    assert.match(
      generation?.body.messages?.[0]?.content ?? '',
      /addParam/,
      'the shipped knowledge base supplied context',
    );
  });

  it('telemetry from generate feeds metrics; a torn last line is skipped', async () => {
    const log = path.join(dir, 'telemetry.jsonl');
    ollama.on({ endpoint: 'chat', when: task('generate_code'), times: 1 }, { content: fenced(VALID_CODE) });
    assert.equal((await runCliProcess(['generate', '--telemetry', log, 'a'], { env })).code, 0);
    ollama.on({ endpoint: 'chat', when: task('generate_code'), times: 1 }, { content: fenced(INVALID_CODE) });
    ollama.on({ endpoint: 'chat', when: task('generate_code'), times: 1 }, { content: fenced(VALID_CODE) });
    assert.equal((await runCliProcess(['generate', '--telemetry', log, 'b'], { env })).code, 0);
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(INVALID_CODE) });
    assert.equal(
      (await runCliProcess(['generate', '--telemetry', log, 'c'], { env: { ...env, AVAP_TELEMETRY_FILE: undefined } }))
        .code,
      3,
    );
    const before = readFileSync(log, 'utf8');
    assert.equal(before.trim().split('\n').length, 5, 'one line per attempt: 1 + 2 + 2');
    appendFileSync(log, '{"schema_version":1,"generation_id":"torn","attem');

    const run = await runCliProcess(['metrics', '--json', log], { env });
    assert.equal(run.code, 0, run.stderr);
    const metrics = JSON.parse(run.stdout) as Metrics;
    assert.equal(metrics.skippedLines, 1);
    assert.equal(metrics.generations, 3);
    assert.equal(metrics.validatedGenerations, 3);
    assert.equal(metrics.firstAttemptInvalidRate, 2 / 3);
    assert.equal(metrics.multiAttemptConvergenceRate, 1 / 2);
    assert.equal(metrics.meanAttemptsAmongConverged, 1.5);
    assert.equal(metrics.nonConvergenceRate, 1 / 3);
    assert.deepEqual(metrics.statusCounts, { '': 2, INVALID_UNRESOLVED: 1, PARSER_UNAVAILABLE: 0 });
    assert.deepEqual(metrics.rejectedValues[0], {
      code: 'E001',
      rule: 'unknown-command',
      value: 'sha256Encode',
      occurrences: 3,
      generations: 2,
      outcomes: { converged: 1, unresolved: 1, undetermined: 0 },
      convergenceRate: 0.5,
    });
    assert.deepEqual(metrics.byRule[0], ['unknown-command', 3]);
    assert.equal(metrics.needs_review, true, 'two thirds of first attempts invalid is above 15 %');
    // The trend per UTC day of the first attempts (the three runs may straddle midnight: the days add up).
    const days = [
      ...new Set(
        before
          .trim()
          .split('\n')
          .map((l) => (JSON.parse(l) as { timestamp: string }).timestamp.slice(0, 10)),
      ),
    ].sort();
    assert.deepEqual(
      metrics.trend.map((t) => t.day),
      days,
    );
    const total = (key: 'validatedGenerations' | 'firstAttemptInvalid') =>
      metrics.trend.reduce((n, t) => n + t[key], 0);
    assert.deepEqual([total('validatedGenerations'), total('firstAttemptInvalid')], [3, 2]);
    const getSha = metrics.perCommand.find((c) => c.command === 'sha256Encode');
    assert.deepEqual(getSha, { command: 'sha256Encode', usedInAttempts: 3, rejectedInAttempts: 3, rate: 1 });

    const human = await runCliProcess(['metrics', log], { env });
    assert.equal(human.code, 0);
    assert.match(human.stdout, /first-attempt invalid rate\s+66\.7 %/);
    assert.match(human.stdout, /E001 sha256Encode\s+3 \/ 2 {3}converged 1\/2 \(50\.0 %\), unresolved 1/);
    assert.match(human.stdout, /needs review: the first-attempt invalid rate is above 15\.0 %/);
    assert.match(human.stderr, /skipped 1 unreadable line/);
    assert.equal(readFileSync(log, 'utf8').startsWith(before), true, 'the log is never rewritten');
  });

  it('metrics --by model: before/after figures per model, first seen first, with the change', async () => {
    const log = path.join(dir, 'by-model.jsonl');
    ollama.on(
      { endpoint: 'chat', when: (r) => task('generate_code')(r) && r.body.model === 'qwen3:1.7b' },
      { content: fenced(VALID_CODE) },
    );
    ollama.on(
      { endpoint: 'chat', when: (r) => task('generate_code')(r) && r.body.model === 'qwen3:0.6b' },
      { content: fenced(INVALID_CODE) },
    );
    assert.equal(
      (await runCliProcess(['generate', '--telemetry', log, '--model', 'qwen3:1.7b', 'a'], { env })).code,
      0,
    );
    assert.equal(
      (await runCliProcess(['generate', '--telemetry', log, '--model', 'qwen3:0.6b', 'b'], { env })).code,
      3,
    );

    const run = await runCliProcess(['metrics', '--json', '--by', 'model', log], { env });
    assert.equal(run.code, 0, run.stderr);
    const { comparison } = JSON.parse(run.stdout) as { comparison: Comparison };
    assert.equal(comparison.by, 'model');
    assert.deepEqual(
      comparison.groups.map((g) => [
        g.value,
        g.generations,
        g.firstAttemptInvalidRate,
        g.nonConvergenceRate,
        g.needs_review,
      ]),
      [
        ['qwen3:1.7b', 1, 0, 0, false],
        ['qwen3:0.6b', 1, 1, 1, true],
      ],
    );
    assert.deepEqual(comparison.deltas, [
      {
        before: 'qwen3:1.7b',
        after: 'qwen3:0.6b',
        firstAttemptInvalidRate: 1,
        multiAttemptConvergenceRate: null,
        meanAttemptsAmongConverged: null,
        nonConvergenceRate: 1,
      },
    ]);
    assert.deepEqual(comparison.uncontrolled, []);

    const human = await runCliProcess(['metrics', '--by', 'parser_version', log], { env });
    assert.equal(human.code, 0, human.stderr);
    assert.match(
      human.stdout,
      /Before\/after by parser_version \(first seen first\):\n {2}avap-parser\/[^ ]+ {2}\S+ {2}2 generation\(s\), 2 validated\n/,
    );
    assert.doesNotMatch(human.stdout, /→|not controlled/, 'one parser version: nothing to compare');
    assert.match(
      human.stdout,
      /First-attempt invalid rate per day \(UTC\):\n {2}\d{4}-\d\d-\d\d\s+50\.0 % {2}\(1\/2\)/,
    );
    const bad = await runCliProcess(['metrics', '--by', 'seed', log], { env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--by must be one of parser_version, model, got 'seed'/);
  });

  it('metrics on a missing log → exit 2', async () => {
    const run = await runCliProcess(['metrics', path.join(dir, 'nope.jsonl')], { env });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /cannot read/);
  });

  it('index without an Elasticsearch URL → exit 2; with an unreachable one → exit 2', async () => {
    const none = await runCliProcess(['index'], { env });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no Elasticsearch URL/);
    const down = await runCliProcess(['index', '--es-url', `http://127.0.0.1:${await unusedPort()}`], { env });
    assert.equal(down.code, 2, down.stderr);
    assert.match(down.stderr, /avap index: Elasticsearch: ConnectionError/);
  });

  it('SIGINT during generation → exit 130', async () => {
    const pieces = fenced(VALID_CODE).match(/[\s\S]{1,3}/g) ?? [];
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { chunks: pieces, chunkDelayMs: 200 });
    const run = await runCliProcess(['generate', 'hash'], { env, interruptWhen: (out) => out.length > 0 });
    assert.equal(run.code, 130, run.stderr);
  });
});

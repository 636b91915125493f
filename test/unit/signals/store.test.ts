import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type StoreRecord,
  parseSignals,
  selectSignals,
  signalFromPipeline,
  SignalStore,
  type AnsweredResult,
  type NewSignal,
  type TrainingSignal,
} from '../../../src/signals';
import { validateAvap } from '../../../src/parser';

function newSignal(overrides: Partial<NewSignal> = {}): NewSignal {
  return {
    signal_type: 'code_generation',
    source: 'editor',
    input: {
      query: 'hash the password',
      query_type: 'CODE_GENERATION',
      context: [{ id: 'c1', title: 'encodeSHA256' }],
    },
    output: { text: '```avap\naddVar(a, 1)\n```', code: 'addVar(a, 1)', validation_status: '', attempts: 1 },
    automated: { score: null, history: [], failure: null, parser: ['valid'] },
    model: { name: 'qwen3:1.7b', parser_version: 'p1' },
    ...overrides,
  };
}

describe('training signals: the append-only store', () => {
  let dir: string;
  let file: string;
  let clock: number;
  const now = () => new Date((clock += 1000));

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'avap-signals-'));
    file = path.join(dir, 'nested', 'signals.jsonl');
    clock = Date.parse('2026-01-01T00:00:00Z');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('records a signal and folds later feedback, outcome and training marks into it', async () => {
    const store = new SignalStore(file, { now });
    const id = await store.recordSignal(newSignal({ id: 'gen-1' }));
    assert.deepEqual(id, { ok: true, value: 'gen-1' });
    assert.ok((await store.recordFeedback('gen-1', 'down', 'editor')).ok);
    assert.ok((await store.recordFeedback('gen-1', 'up', 'editor', 'fixed it')).ok);
    assert.ok((await store.recordOutcome('gen-1', 'edited', 'editor', 'addVar(a, 2)')).ok);
    assert.ok((await store.markUsedForTraining(['gen-1'], 'ds-1')).ok);

    const read = await store.read();
    assert.ok(read.ok);
    if (!read.ok) return;
    const [signal] = read.value.signals;
    assert.equal(read.value.signals.length, 1);
    assert.equal(signal?.id, 'gen-1');
    assert.equal(signal?.schema_version, 1);
    assert.equal(signal?.created_at, '2026-01-01T00:00:01.000Z');
    assert.deepEqual(
      signal?.feedback,
      { thumbs: 'up', score: 1, at: '2026-01-01T00:00:03.000Z', source: 'editor', comment: 'fixed it' },
      'the last thumbs wins',
    );
    assert.deepEqual(signal?.outcome, {
      outcome: 'edited',
      at: '2026-01-01T00:00:04.000Z',
      source: 'editor',
      final_code: 'addVar(a, 2)',
    });
    assert.equal(signal?.used_for_training, true);
    assert.equal(signal?.training_batch_id, null, 'marked without a batch id');
    assert.equal(signal?.updated_at, '2026-01-01T00:00:05.000Z');
    // The reward of the folded facts: parser valid 1 (automated), thumbs up 1, edited 0.5 → (0.3 + 0.4 + 0.15) / 1.
    assert.deepEqual(
      [signal?.reward_version, signal?.reward_components, signal?.computed_reward, signal?.reward_computed_at],
      [1, { automated: 1, human_feedback: 1, outcome: 0.5 }, 0.85, '2026-01-01T00:00:04.000Z'],
    );
    assert.deepEqual(read.value.skipped, []);
    assert.equal(read.value.tornTail, false);
  });

  it('stores human feedback as a score as well as a label, and the training batch of a mark', async () => {
    const store = new SignalStore(file, { now });
    await store.recordSignal(
      newSignal({ id: 'g', automated: { score: null, history: [], failure: null, parser: ['invalid', 'invalid'] } }),
    );
    await store.recordFeedback('g', 'down', 'rest');
    await store.markUsedForTraining(['g'], 'ds', 'batch-1');
    await store.markUsedForTraining(['g'], undefined, 'batch-2');
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual([lines[1]?.thumbs, lines[1]?.score], ['down', 0]);
    assert.deepEqual([lines[2]?.batch_id, lines[3]?.batch_id], ['batch-1', 'batch-2']);
    const read = await store.read();
    assert.ok(read.ok);
    const [signal] = read.ok ? read.value.signals : [];
    assert.deepEqual(signal?.feedback?.score, 0);
    assert.equal(signal?.training_batch_id, 'batch-2', 'the last batch it went into');
    assert.deepEqual(
      [signal?.reward_components, signal?.computed_reward],
      [{ automated: 0, human_feedback: 0, outcome: null }, 0],
    );
  });

  it('reads a store written before rewards, feedback scores and batch ids existed', () => {
    const old =
      [
        {
          record: 'signal',
          schema_version: 1,
          id: 'old',
          created_at: '2025-06-01T00:00:00.000Z',
          ...newSignal({
            automated: {
              score: { validator: 'llm-judge', composite: 0.5, threshold: 0.6, passed: false, dimensions: {} },
              history: [],
              failure: null,
              parser: [],
            },
          }),
        },
        {
          record: 'feedback',
          schema_version: 1,
          signal_id: 'old',
          at: '2025-06-02T00:00:00.000Z',
          thumbs: 'up',
          source: 'editor',
        },
        { record: 'training', schema_version: 1, at: '2025-06-03T00:00:00.000Z', signal_ids: ['old'], label: 'v0' },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n';
    const report = parseSignals(old);
    assert.deepEqual(report.skipped, []);
    const [signal] = report.signals;
    assert.deepEqual(
      signal?.feedback,
      { thumbs: 'up', score: 1, at: '2025-06-02T00:00:00.000Z', source: 'editor' },
      'the score is derived from the thumbs',
    );
    assert.equal(signal?.used_for_training, true);
    assert.equal(signal?.training_batch_id, null);
    // (0.3 · 0.5 + 0.4 · 1) / 0.7
    assert.equal(signal?.computed_reward, 0.7857);
    assert.equal(signal?.reward_computed_at, '2025-06-02T00:00:00.000Z');
  });

  it('never rewrites: each fact is one more line', async () => {
    const store = new SignalStore(file, { now });
    await store.recordSignal(newSignal({ id: 'a' }));
    const first = readFileSync(file, 'utf8');
    await store.recordFeedback('a', 'up', 'rest');
    const second = readFileSync(file, 'utf8');
    assert.ok(second.startsWith(first));
    assert.equal(second.split('\n').filter(Boolean).length, 2);
    assert.equal((JSON.parse(second.split('\n')[1] as string) as StoreRecord).record, 'feedback');
  });

  it('gives new signals a UUID when no id is given', async () => {
    const id = await new SignalStore(file).recordSignal(newSignal());
    assert.ok(id.ok && /^[0-9a-f-]{36}$/.test(id.value));
  });

  it('a torn last line is skipped on read, and the next append starts on a fresh line (reported once)', async () => {
    const warnings: string[] = [];
    const store = new SignalStore(file, { now, warn: (line) => warnings.push(line) });
    await store.recordSignal(newSignal({ id: 'kept' }));
    appendFileSync(file, '{"record":"signal","schema_version":1,"id":"torn","crea');
    const torn = await store.read();
    assert.ok(torn.ok && torn.value.tornTail && torn.value.signals.length === 1 && torn.value.skipped.length === 0);

    await store.recordSignal(newSignal({ id: 'after' }));
    const read = await store.read();
    assert.ok(read.ok);
    if (!read.ok) return;
    assert.deepEqual(
      read.value.signals.map((s) => s.id),
      ['kept', 'after'],
      'the cut line did not swallow the new record',
    );
    assert.equal(read.value.tornTail, false);
    assert.deepEqual(
      read.value.skipped.map((s) => s.line),
      [2],
      'the old torn line is now a skipped middle line',
    );
    await store.recordFeedback('after', 'up', 'rest');
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0] ?? '', /the last line of .* was cut short/);
  });

  it('malformed lines are skipped with their line numbers and reasons; orphans are counted', () => {
    const good = JSON.stringify({ record: 'signal', schema_version: 1, id: 'g', created_at: 't', ...newSignal() });
    const text =
      [
        good,
        'not json',
        JSON.stringify({
          record: 'feedback',
          schema_version: 1,
          signal_id: 'g',
          at: 't2',
          thumbs: 'sideways',
          source: 'rest',
        }),
        JSON.stringify({
          record: 'outcome',
          schema_version: 1,
          signal_id: 'ghost',
          at: 't3',
          outcome: 'accepted',
          source: 'rest',
        }),
        '',
        JSON.stringify({
          record: 'feedback',
          schema_version: 1,
          signal_id: 'g',
          at: 't4',
          thumbs: 'down',
          source: 'rest',
        }),
      ].join('\n') + '\n';
    const report = parseSignals(text);
    assert.deepEqual(
      report.skipped.map((s) => s.line),
      [2, 3],
    );
    assert.match(report.skipped[0]?.reason ?? '', /^not JSON/);
    assert.match(report.skipped[1]?.reason ?? '', /thumbs/);
    assert.equal(report.orphans, 1);
    assert.equal(report.signals[0]?.feedback?.thumbs, 'down');
    assert.equal(report.tornTail, false);
  });

  it('concurrent appends never interleave', async () => {
    const store = new SignalStore(file, { now });
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        i % 2 === 0
          ? store.recordSignal(
              newSignal({
                id: `s${i}`,
                output: { text: 'x'.repeat(5000 + i), code: '', validation_status: '', attempts: 1 },
              }),
            )
          : store.recordFeedback(`s${i - 1}`, 'up', 'editor'),
      ),
    );
    const read = await store.read();
    assert.ok(read.ok && read.value.skipped.length === 0 && read.value.signals.length === 30);
    if (read.ok) assert.ok(read.value.signals.every((s) => s.feedback?.thumbs === 'up'));
  });

  it('a missing file is an empty store; an unreadable one is an error, not an exception', async () => {
    const empty = await new SignalStore(path.join(dir, 'none.jsonl')).read();
    assert.deepEqual(empty, { ok: true, value: { signals: [], skipped: [], tornTail: false, orphans: 0 } });
    const asDir = await new SignalStore(dir).read();
    assert.ok(!asDir.ok && asDir.error.kind === 'unreadable' && /cannot read .*EISDIR/.test(asDir.error.message));
    const cannotWrite = await new SignalStore(dir).recordSignal(newSignal());
    assert.ok(
      !cannotWrite.ok &&
        cannotWrite.error.kind === 'unwritable' &&
        /cannot append/.test(cannotWrite.error.message) &&
        cannotWrite.error.code === 'EISDIR',
    );
  });

  it('health() reports a store that cannot be written (probe, then the last append), with its code', async () => {
    assert.deepEqual(await new SignalStore(file).health(), { ok: true, value: undefined });
    const asDir = await new SignalStore(dir).health();
    assert.ok(!asDir.ok && asDir.error.code === 'EISDIR', JSON.stringify(asDir));
    const full = new SignalStore('/dev/full');
    const written = await full.recordSignal(newSignal());
    assert.ok(!written.ok && written.error.code === 'ENOSPC');
    const health = await full.health();
    assert.ok(!health.ok && health.error.code === 'ENOSPC');
  });

  it('has() tells whether a generation is in the store', async () => {
    const store = new SignalStore(file);
    await store.recordSignal(newSignal({ id: 'known' }));
    assert.deepEqual(await store.has('known'), { ok: true, value: true });
    assert.deepEqual(await store.has('unknown'), { ok: true, value: false });
  });
});

describe('training signals: from a pipeline result', () => {
  it('captures input context, output, parser verdicts, the automated scores and the model', () => {
    const result: AnsweredResult = {
      queryType: 'CODE_GENERATION',
      text: 'answer',
      code: 'getSHA256(a, b)',
      validationStatus: 'INVALID_UNRESOLVED',
      attempts: [
        {
          attempt: 1,
          code: 'getSHA256(a, b)',
          outcome: { kind: 'validated', result: validateAvap('getSHA256(a, b)') },
        },
        { attempt: 2, code: 'addVar(a, 1)', outcome: { kind: 'unavailable', reason: 'timeout', detail: 'slow' } },
      ],
      sources: [{ id: 'c1', title: 'encodeSHA256', score: 0.5 }],
      relevanceRetry: false,
      generationId: 'gen-9',
    };
    const entry = validateAvap('getSHA256(a, b)').trace[0];
    const signal = signalFromPipeline(
      { query: 'hash it', forceType: 'CODE_GENERATION', correction: { code: 'x', trace: entry ? [entry] : [] } },
      result,
      {
        source: 'editor',
        model: 'qwen3:1.7b',
        judgeModel: 'judge',
        parserVersion: 'p',
        assistantVersion: '0.1.0',
        quality: [
          {
            ok: true,
            assessment: {
              validator: 'llm-judge',
              composite: 0.4,
              threshold: 0.6,
              passed: false,
              dimensions: [{ name: 'grounding', score: 0.4, weight: 0.5 }],
              findings: [],
            },
          },
          { ok: false, failure: { validator: 'llm-judge', code: 'judge-malformed', message: 'bad' } },
        ],
        contextTexts: new Map([['c1', 'encodeSHA256(source, target)']]),
      },
    );
    assert.equal(signal.id, 'gen-9');
    assert.equal(signal.signal_type, 'code_generation');
    assert.deepEqual(signal.input.context, [
      { id: 'c1', title: 'encodeSHA256', score: 0.5, text: 'encodeSHA256(source, target)' },
    ]);
    assert.equal(signal.input.forced, true);
    assert.match(signal.input.correction?.trace[0] ?? '', /^Line 1: /);
    assert.deepEqual(signal.output, {
      text: 'answer',
      code: 'getSHA256(a, b)',
      validation_status: 'INVALID_UNRESOLVED',
      attempts: 2,
    });
    assert.deepEqual(signal.automated.parser, ['invalid', 'unavailable']);
    assert.equal(signal.automated.score, null, 'the last verdict was a failure: no score');
    assert.deepEqual(signal.automated.failure, { validator: 'llm-judge', code: 'judge-malformed', message: 'bad' });
    assert.deepEqual(signal.automated.history, [
      {
        validator: 'llm-judge',
        composite: 0.4,
        threshold: 0.6,
        passed: false,
        dimensions: { grounding: 0.4 },
        attempt: 1,
      },
    ]);
    assert.deepEqual(signal.model, {
      name: 'qwen3:1.7b',
      judge: 'judge',
      parser_version: 'p',
      assistant_version: '0.1.0',
    });
  });
});

describe('training signals: selection for export', () => {
  const base = (id: string, patch: Partial<TrainingSignal>): TrainingSignal =>
    ({
      schema_version: 1,
      id,
      created_at: '2026-01-02T00:00:00.000Z',
      updated_at: '2026-01-02T00:00:00.000Z',
      ...newSignal(),
      feedback: null,
      outcome: null,
      used_for_training: false,
      ...patch,
    }) as TrainingSignal;
  const score = (composite: number) => ({
    score: { validator: 'llm-judge', composite, threshold: 0.6, passed: composite >= 0.6, dimensions: {} },
    history: [],
    failure: null,
    parser: [],
  });
  const signals = [
    base('a', { feedback: { thumbs: 'up', score: 1, at: 't', source: 'editor' }, automated: score(0.9) }),
    base('b', {
      feedback: { thumbs: 'down', score: 0, at: 't', source: 'editor' },
      automated: score(0.3),
      signal_type: 'retrieval',
    }),
    base('c', { used_for_training: true, outcome: { outcome: 'accepted', at: 't', source: 'editor' } }),
    base('d', { created_at: '2025-12-01T00:00:00.000Z' }),
  ];
  const ids = (filter: Parameters<typeof selectSignals>[1]) => selectSignals(signals, filter).map((s) => s.id);

  it('filters by use, type, feedback, outcome, score and time', () => {
    assert.deepEqual(ids({}), ['a', 'b', 'c', 'd']);
    assert.deepEqual(ids({ unused: true }), ['a', 'b', 'd']);
    assert.deepEqual(ids({ types: ['retrieval'] }), ['b']);
    assert.deepEqual(ids({ feedback: 'up' }), ['a']);
    assert.deepEqual(ids({ feedback: 'any' }), ['a', 'b']);
    assert.deepEqual(ids({ feedback: 'none' }), ['c', 'd']);
    assert.deepEqual(ids({ outcome: 'accepted' }), ['c']);
    assert.deepEqual(ids({ outcome: 'none' }), ['a', 'b', 'd']);
    assert.deepEqual(ids({ minScore: 0.5 }), ['a']);
    assert.deepEqual(ids({ maxScore: 0.5 }), ['b']);
    assert.deepEqual(ids({ since: '2026-01-01T00:00:00.000Z' }), ['a', 'b', 'c']);
  });
});

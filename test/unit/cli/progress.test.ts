/**
 * The progress display of long CLI jobs: the time-left estimator, the
 * terminal line (fitted to the width, redrawn in place, left clean), and the
 * live and plain renderings of evaluation and indexing — with a fake clock
 * and width.
 */
import assert from 'node:assert/strict';
import type { EvalPosition, EvalProgressEvent, EvalVerdict } from '../../../src/eval';
// internal-import: the CLI has no library entry; progress arithmetic tested without a terminal
import { EtaEstimator, formatDuration, formatRate, timeLeftMs } from '../../../src/cli/progress/eta';
// internal-import: the CLI has no library entry; progress lines tested without a terminal
import {
  createEvalProgress,
  evalLiveLine,
  evalPlainLine,
  questionsAfter,
  type EvalLiveState,
} from '../../../src/cli/progress/evalProgress';
// internal-import: the CLI has no library entry; progress lines tested without a terminal
import {
  bulkFailureLine,
  createIndexProgress,
  indexLiveLine,
  type IndexLiveState,
} from '../../../src/cli/progress/indexProgress';
import type { BulkBatchFailure, IngestEvent } from '../../../src/core';
// internal-import: the CLI has no library entry; the live line tested with a fake terminal
import {
  CLEAR_LINE,
  createProgressOutput,
  fitSegments,
  lineWidth,
  progressMode,
  stopOnAbort,
} from '../../../src/cli/progress/output';

/** A clock the test moves by hand. */
function fakeClock(start = 1_000) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

function capture() {
  const writes: string[] = [];
  return {
    writes,
    write: (text: string) => {
      writes.push(text);
    },
    text: () => writes.join(''),
  };
}

const at = (run: number, question: number, id: string, runs = 2, questions = 2): EvalPosition => ({
  run,
  runs,
  question,
  questions,
  id,
});
const start = (p: EvalPosition): EvalProgressEvent => ({ kind: 'question-start', ...p });
const done = (p: EvalPosition, verdict: EvalVerdict): EvalProgressEvent => ({ kind: 'question-done', ...p, verdict });

describe('cli/progress: the time-left estimator', () => {
  it('knows nothing before the first piece of work finishes', () => {
    const eta = new EtaEstimator();
    assert.equal(eta.msPerUnit(), undefined);
    assert.equal(eta.perSecond(), undefined);
    assert.equal(eta.forUnits(10), undefined);
    assert.equal(eta.forKeys(['a']), undefined);
  });

  it('counts the mean time per unit, and the rate', () => {
    const eta = new EtaEstimator();
    eta.record(2_000, 32);
    eta.record(6_000, 32);
    assert.equal(eta.units, 64);
    assert.equal(eta.msPerUnit(), 125);
    assert.equal(eta.perSecond(), 8);
    assert.equal(eta.forUnits(100), 12_500);
    assert.equal(eta.forUnits(-3), 0);
  });

  it('expects a question to take what it took before; a new one the mean', () => {
    const eta = new EtaEstimator();
    eta.record(10_000, 1, 'code');
    eta.record(2_000, 1, 'hello');
    eta.record(14_000, 1, 'code');
    // code: mean 12 s; hello: 2 s; unseen: the mean over all three, 26/3 s.
    assert.equal(eta.forKeys(['code', 'hello']), 14_000);
    assert.equal(Math.round(eta.forKeys(['new']) ?? 0), Math.round(26_000 / 3));
  });

  it('ignores nonsense records', () => {
    const eta = new EtaEstimator();
    eta.record(-5, 1);
    eta.record(Number.NaN, 1);
    eta.record(100, 0);
    assert.equal(eta.units, 0);
  });

  it("time left while a step runs: the step's remainder (never below zero) plus the rest", () => {
    assert.equal(timeLeftMs(10_000, 30_000, 4_000), 36_000);
    assert.equal(timeLeftMs(10_000, 30_000, 25_000), 30_000);
    assert.equal(timeLeftMs(undefined, 30_000, 0), undefined);
  });

  it('formats durations and rates for people', () => {
    assert.deepEqual([0, 420, 9_949, 9_950, 42_000, 185_000, 3_720_000, -1].map(formatDuration), [
      '0.0s',
      '0.4s',
      '9.9s',
      '10s',
      '42s',
      '3m05s',
      '1h02m',
      '0.0s',
    ]);
    assert.deepEqual([0, 0.421, 4.24, 42.4, 420.6].map(formatRate), ['0', '0.42', '4.2', '42', '421']);
  });
});

describe('cli/progress: the terminal line', () => {
  const segments = [
    { text: 'run 2/5 · question 14/60', priority: 0 },
    { text: '25 answered, 1 failed', priority: 4 },
    { text: '3m12s elapsed', priority: 3 },
    { text: '~41m left', priority: 1 },
    { text: 'GD-C-014', priority: 2 },
  ];

  it('keeps every segment when the width allows', () => {
    assert.equal(
      fitSegments(segments, 200),
      'run 2/5 · question 14/60 · 25 answered, 1 failed · 3m12s elapsed · ~41m left · GD-C-014',
    );
  });

  it('drops the least important segments first, keeping the order of the rest', () => {
    assert.equal(fitSegments(segments, 63), 'run 2/5 · question 14/60 · 3m12s elapsed · ~41m left · GD-C-014');
    assert.equal(fitSegments(segments, 62), 'run 2/5 · question 14/60 · ~41m left · GD-C-014');
    assert.equal(fitSegments(segments, 38), 'run 2/5 · question 14/60 · ~41m left');
  });

  it('cuts what is still too wide with an ellipsis, counting characters, not bytes', () => {
    const line = fitSegments(segments, 12);
    assert.equal(line, 'run 2/5 · q…');
    assert.equal([...line].length, 12);
  });

  it('stays one column short of the terminal edge, with a fallback when the width is unknown', () => {
    assert.equal(lineWidth(100), 99);
    assert.equal(lineWidth(undefined), 79);
    assert.equal(lineWidth(0), 79);
    assert.equal(lineWidth(4), 10);
  });

  it('chooses live on a terminal, plain lines elsewhere, nothing with --quiet', () => {
    const terminal = { columns: () => 80 };
    assert.equal(progressMode({ stderr: () => undefined, stderrTerminal: terminal }, false), 'live');
    assert.equal(progressMode({ stderr: () => undefined }, false), 'lines');
    assert.equal(progressMode({ stderr: () => undefined, stderrTerminal: terminal }, true), 'off');
  });

  it('live: redraws in place, prints notes and warnings above, and leaves a clean line', () => {
    const out = capture();
    let text = 'step 1';
    let columns = 40;
    const output = createProgressOutput({
      mode: 'live',
      write: out.write,
      columns: () => columns,
      render: (w) => `${text} (${w})`,
      tickMs: 0,
    });
    output.redraw();
    text = 'step 2';
    columns = 20;
    output.redraw();
    output.step('a plain step line (lines mode only)');
    output.note('run 1 done');
    output.warn('batch 3 failed');
    output.stop();
    output.stop();
    output.note('after the end');
    output.redraw();
    assert.deepEqual(out.writes, [
      `${CLEAR_LINE}step 1 (39)`,
      `${CLEAR_LINE}step 2 (19)`,
      CLEAR_LINE,
      'run 1 done\n',
      `${CLEAR_LINE}step 2 (19)`,
      CLEAR_LINE,
      'batch 3 failed\n',
      `${CLEAR_LINE}step 2 (19)`,
      CLEAR_LINE,
    ]);
  });

  it('lines: plain text without control characters; off: only warnings', () => {
    const lines = capture();
    const plain = createProgressOutput({ mode: 'lines', write: lines.write, render: () => 'never drawn', tickMs: 0 });
    plain.redraw();
    plain.step('step');
    plain.note('note');
    plain.warn('warning');
    plain.stop();
    assert.equal(lines.text(), 'step\nnote\nwarning\n');
    const off = capture();
    const quiet = createProgressOutput({ mode: 'off', write: off.write, render: () => 'never drawn', tickMs: 0 });
    quiet.redraw();
    quiet.step('step');
    quiet.note('note');
    quiet.warn('warning');
    quiet.stop();
    assert.equal(off.text(), 'warning\n');
  });

  it('live: redraws on a timer so elapsed time moves during a long step', async () => {
    const out = capture();
    let n = 0;
    const output = createProgressOutput({ mode: 'live', write: out.write, render: () => `tick ${++n}`, tickMs: 5 });
    while (n < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    output.stop();
    const after = out.writes.length;
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(out.writes.length, after, 'no redraw after stop');
    assert.equal(out.writes.at(-1), CLEAR_LINE);
  });

  it("Ctrl+C (the command's abort signal) clears the live line", () => {
    const out = capture();
    const output = createProgressOutput({ mode: 'live', write: out.write, render: () => 'working', tickMs: 0 });
    const controller = new AbortController();
    const release = stopOnAbort(output, controller.signal);
    output.redraw();
    controller.abort();
    output.redraw();
    release();
    assert.deepEqual(out.writes, [`${CLEAR_LINE}working`, CLEAR_LINE]);
  });
});

describe('cli/progress: evaluation progress', () => {
  it('the plain line is exactly run k/N · question i/M · <id> · <verdict> · <elapsed>', () => {
    assert.equal(
      evalPlainLine(at(2, 14, 'GD-C-014', 5, 60), { outcome: 'invalid' }, 192_000),
      'run 2/5 · question 14/60 · GD-C-014 · invalid · 3m12s',
    );
    assert.equal(
      evalPlainLine(at(1, 1, 'GD-R-001'), { outcome: 'no-code' }, 400),
      'run 1/2 · question 1/2 · GD-R-001 · no code · 0.4s',
    );
    assert.equal(
      evalPlainLine(at(1, 2, 'GD-C-001'), { outcome: 'failed', code: 'llm-timeout' }, 61_000),
      'run 1/2 · question 2/2 · GD-C-001 · failed (llm-timeout) · 1m01s',
    );
  });

  it('the live line, at a time and a width', () => {
    const state: EvalLiveState = {
      startedAt: 0,
      position: at(2, 14, 'GD-C-014', 5, 60),
      currentSince: 190_000,
      answered: 72,
      failed: 1,
      expectedCurrentMs: 20_000,
      expectedRestMs: 2_400_000,
    };
    assert.equal(
      evalLiveLine(state, 192_000, 120),
      'run 2/5 · question 14/60 · 72 answered, 1 failed · 3m12s elapsed · ~40m18s left · GD-C-014',
    );
    assert.equal(
      evalLiveLine(state, 192_000, 66),
      'run 2/5 · question 14/60 · 3m12s elapsed · ~40m18s left · GD-C-014',
    );
    assert.equal(evalLiveLine(state, 192_000, 40), 'run 2/5 · question 14/60 · ~40m18s left');
    assert.equal(
      evalLiveLine({ startedAt: 0, answered: 0, failed: 0 }, 5, 80),
      undefined,
      'nothing before the first question',
    );
  });

  it('lists the questions still to ask: the rest of this run, then the later runs in full', () => {
    assert.deepEqual(questionsAfter(at(1, 1, 'a', 3, 3), ['a', 'b', 'c']), ['b', 'c', 'a', 'b', 'c', 'a', 'b', 'c']);
    assert.deepEqual(questionsAfter(at(3, 3, 'c', 3, 3), ['a', 'b', 'c']), []);
  });

  it('live: counts answers and failures and estimates from what each question took in run 1', () => {
    const clock = fakeClock(0);
    const out = capture();
    const progress = createEvalProgress({
      mode: 'live',
      write: out.write,
      columns: () => 121,
      now: clock.now,
      ids: ['a', 'b'],
      tickMs: 0,
    });
    const last = () => out.writes.at(-1) ?? '';
    progress.onEvent(start(at(1, 1, 'a')));
    assert.equal(
      last(),
      `${CLEAR_LINE}run 1/2 · question 1/2 · 0 answered, 0 failed · 0.0s elapsed · estimating time left · a`,
    );
    clock.advance(10_000);
    progress.onEvent(done(at(1, 1, 'a'), { outcome: 'valid' }));
    // a took 10 s; b (unseen) and the second run's a and b: 3 × 10 s.
    assert.equal(last(), `${CLEAR_LINE}run 1/2 · question 1/2 · 1 answered, 0 failed · 10s elapsed · ~30s left · a`);
    progress.onEvent(start(at(1, 2, 'b')));
    clock.advance(30_000);
    progress.onEvent(done(at(1, 2, 'b'), { outcome: 'failed', code: 'llm-timeout' }));
    progress.note('run 1: syntactic_validity 1');
    progress.onEvent(start(at(2, 1, 'a')));
    assert.equal(last(), `${CLEAR_LINE}run 2/2 · question 1/2 · 1 answered, 1 failed · 40s elapsed · ~40s left · a`);
    clock.advance(4_000);
    progress.note('a note redraws the line below it');
    // Run 2 expects a = 10 s (4 s of it spent) and b = 30 s.
    assert.equal(last(), `${CLEAR_LINE}run 2/2 · question 1/2 · 1 answered, 1 failed · 44s elapsed · ~36s left · a`);
    progress.stop();
    assert.equal(last(), CLEAR_LINE);
    const kept = out
      .text()
      .split(CLEAR_LINE)
      .filter((piece) => piece.includes('\n'));
    assert.deepEqual(
      kept,
      ['run 1: syntactic_validity 1\n', 'a note redraws the line below it\n'],
      'only notes add lines',
    );
  });

  it('lines: one plain line per finished question, notes kept, nothing else', () => {
    const clock = fakeClock(0);
    const out = capture();
    const progress = createEvalProgress({
      mode: 'lines',
      write: out.write,
      columns: () => 80,
      now: clock.now,
      ids: ['a'],
      tickMs: 0,
    });
    progress.note('parser p; 1 questions × 1 run(s)');
    progress.onEvent(start(at(1, 1, 'a', 1, 1)));
    clock.advance(1_500);
    progress.onEvent(done(at(1, 1, 'a', 1, 1), { outcome: 'invalid' }));
    progress.stop();
    assert.equal(out.text(), 'parser p; 1 questions × 1 run(s)\nrun 1/1 · question 1/1 · a · invalid · 1.5s\n');
  });

  it('off (--quiet): writes nothing', () => {
    const out = capture();
    const progress = createEvalProgress({ mode: 'off', write: out.write, ids: ['a'], tickMs: 0 });
    progress.note('header');
    progress.onEvent(start(at(1, 1, 'a', 1, 1)));
    progress.onEvent(done(at(1, 1, 'a', 1, 1), { outcome: 'valid' }));
    progress.stop();
    assert.deepEqual(out.writes, []);
  });
});

describe('cli/progress: indexing progress', () => {
  const failure: BulkBatchFailure = {
    batch: 3,
    batches: 6,
    documents: 32,
    failed: 5,
    causes: [
      { cause: 'document_parsing_exception: failed to parse field [embedding]', count: 4, ids: ['a', 'b', 'c'] },
      { cause: 'strict_dynamic_mapping_exception: field [x] not allowed', count: 1, ids: ['d'] },
    ],
  };

  it('a refused batch reads: which batch, how many of how many, why, the first ids', () => {
    assert.equal(
      bulkFailureLine(failure),
      'bulk batch 3/6: 5 of 32 documents refused — 4 × document_parsing_exception: failed to parse field [embedding] [a, b, c, +1 more]; 1 × strict_dynamic_mapping_exception: field [x] not allowed [d]',
    );
  });

  it('the live line, at a time and a width', () => {
    const state: IndexLiveState = {
      startedAt: 0,
      phase: 'bulk',
      total: 412,
      done: 128,
      failed: 3,
      batchSince: 8_000,
      perSecond: 250.4,
      expectedBatchMs: 128,
      expectedRestMs: 1_008,
    };
    assert.equal(
      indexLiveLine(state, 8_100, 120),
      'bulk loading 128/412 documents · 3 failed · 250 documents/s · 8.1s elapsed · ~1.0s left',
    );
    assert.equal(indexLiveLine(state, 8_100, 60), 'bulk loading 128/412 documents · 3 failed · ~1.0s left');
    assert.equal(
      indexLiveLine(
        { ...state, phase: 'embedding', failed: 0, perSecond: undefined, expectedBatchMs: undefined },
        8_100,
        120,
      ),
      'embedding 128/412 documents · measuring rate · 8.1s elapsed · estimating time left',
    );
    assert.equal(indexLiveLine({ startedAt: 0, total: 0, done: 0, failed: 0, batchSince: 0 }, 5, 80), undefined);
  });

  it('live and lines: per batch, with the rate and time left of the phase', () => {
    const clock = fakeClock(0);
    const live = capture();
    const lines = capture();
    const displays = [
      createIndexProgress({ mode: 'live', write: live.write, columns: () => 200, now: clock.now, tickMs: 0 }),
      createIndexProgress({ mode: 'lines', write: lines.write, now: clock.now, tickMs: 0 }),
    ];
    const send = (e: IngestEvent) => displays.forEach((d) => d.onEvent(e));
    send({ kind: 'phase', phase: 'embedding', total: 10, batches: 3 });
    clock.advance(2_000);
    send({ kind: 'batch', phase: 'embedding', batch: 1, batches: 3, documents: 4, done: 4, total: 10, failed: 0 });
    assert.equal(
      live.writes.at(-1),
      `${CLEAR_LINE}embedding 4/10 documents · 2.0 documents/s · 2.0s elapsed · ~3.0s left`,
    );
    clock.advance(1_000);
    displays[0]?.onEvent({ kind: 'note', message: 'a redraw' });
    assert.equal(
      live.writes.at(-1),
      `${CLEAR_LINE}embedding 4/10 documents · 2.0 documents/s · 3.0s elapsed · ~2.0s left`,
    );
    clock.advance(1_000);
    send({ kind: 'batch', phase: 'embedding', batch: 2, batches: 3, documents: 4, done: 8, total: 10, failed: 0 });
    send({ kind: 'phase', phase: 'bulk', total: 10, batches: 3 });
    clock.advance(200);
    send({
      kind: 'batch-failed',
      failure: {
        ...failure,
        batch: 1,
        batches: 3,
        documents: 4,
        failed: 1,
        causes: [{ cause: 't: r', count: 1, ids: ['x'] }],
      },
    });
    send({ kind: 'batch', phase: 'bulk', batch: 1, batches: 3, documents: 4, done: 4, total: 10, failed: 1 });
    assert.equal(
      live.writes.at(-1),
      `${CLEAR_LINE}bulk loading 4/10 documents · 1 failed · 20 documents/s · 4.2s elapsed · ~0.3s left`,
    );
    displays.forEach((d) => d.stop());
    assert.equal(live.writes.at(-1), CLEAR_LINE);
    assert.equal(
      lines.text(),
      [
        'embedding · batch 1/3 · 4/10 documents · 2.0 documents/s · 2.0s elapsed · ~3.0s left',
        'embedding · batch 2/3 · 8/10 documents · 2.0 documents/s · 4.0s elapsed · ~1.0s left',
        'bulk batch 1/3: 1 of 4 documents refused — 1 × t: r [x]',
        'bulk loading · batch 1/3 · 4/10 documents · 1 failed · 20 documents/s · 4.2s elapsed · ~0.3s left',
        '',
      ].join('\n'),
    );
  });
});

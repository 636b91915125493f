import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AnswerReviewer, PipelineRequest, PipelineResult } from '../../../src/core';
import type { QualityValidator, QualityVerdict } from '../../../src/quality/port';
import { runRecorded } from '../../../src/signals/recordedRun';
import { parseSignals, SignalStore } from '../../../src/signals/store';
import { fakeLlm, llmError } from '../../support/fakes/llm';
import { reviewed } from '../eval/fakes';

const result = (patch: Partial<PipelineResult> = {}): PipelineResult => ({
  queryType: 'RETRIEVAL',
  text: 'encodeSHA256(source, target) hashes source.',
  code: '',
  validationStatus: '',
  attempts: [],
  sources: [{ id: 'c1', title: 'encodeSHA256', score: 1 }],
  relevanceRetry: false,
  generationId: 'gen-1',
  ...patch,
});
const noRetry = fakeLlm({ chat: () => llmError('llm-failed', 'no retry expected') });
/** The pipeline's contract with a reviewer: RETRIEVAL answers are reviewed before the final message. */
const assistant = (r: PipelineResult) => ({
  run: (request: PipelineRequest, options?: { review?: AnswerReviewer }) => reviewed(r, request, options, noRetry),
});
const judge = (verdict: QualityVerdict): QualityValidator => ({
  name: 'llm-judge',
  assess: () => Promise.resolve(verdict),
});
const passages = (sources: readonly { id: string; title: string }[]) =>
  sources.map((s) => ({ id: s.id, title: s.title, text: `text of ${s.id}` }));
const PASS: QualityVerdict = {
  ok: true,
  value: {
    validator: 'llm-judge',
    composite: 0.83,
    threshold: 0.6,
    passed: true,
    findings: [],
    dimensions: [{ name: 'grounding', score: 0.9, weight: 0.5, reason: '' }],
  },
};

function store(): SignalStore {
  return new SignalStore(path.join(mkdtempSync(path.join(tmpdir(), 'avap-signals-')), 'signals.jsonl'));
}
const read = (s: SignalStore) => parseSignals(readFileSync(s.file, 'utf8')).signals;
const context = { source: 'editor' as const, model: 'qwen3:1.7b', parserVersion: 'pv' };

describe('signals: one recorded run (shared by REST and the editor)', () => {
  it('records an answer whose retry could not be generated with its earned INVALID_UNRESOLVED, never as valid', async () => {
    const signals = store();
    const run = await runRecorded(
      {
        assistant: assistant(
          result({
            queryType: 'CODE_GENERATION',
            code: 'getSHA256(p, h)',
            validationStatus: 'INVALID_UNRESOLVED',
            error: { code: 'llm-timeout', message: 'stalled' },
          }),
        ),
        passages,
        signals,
        signal: context,
        log: () => undefined,
      },
      { query: 'hash it' },
    );
    assert.equal(run.signalId, 'gen-1');
    assert.equal(read(signals)[0]?.output.validation_status, 'INVALID_UNRESOLVED');
  });

  it('judges a RETRIEVAL answer when a judge is set and records the signal with its scores and passage texts', async () => {
    const signals = store();
    const lines: string[] = [];
    const run = await runRecorded(
      {
        assistant: assistant(result()),
        quality: { validator: judge(PASS) },
        passages,
        signals,
        signal: context,
        log: (l) => lines.push(l),
      },
      { query: 'what does encodeSHA256 do?' },
    );
    assert.equal(run.signalId, 'gen-1');
    assert.equal(run.quality?.passed, true);
    const [signal] = read(signals);
    assert.equal(signal?.id, 'gen-1');
    assert.equal(signal?.source, 'editor');
    assert.equal(signal?.automated.score?.composite, 0.83);
    assert.deepEqual(
      signal?.input.context.map((c) => c.text),
      ['text of c1'],
    );
    assert.deepEqual(lines, []);
  });

  it('without a judge or a store it is the plain run', async () => {
    const run = await runRecorded(
      { assistant: assistant(result()), passages, signal: context, log: () => undefined },
      { query: 'q' },
    );
    assert.equal(run.quality, undefined);
    assert.equal(run.signalId, undefined);
    assert.equal(run.result.generationId, 'gen-1');
  });

  it('records no signal for a run that failed, and logs — does not fail — when the store cannot be written', async () => {
    const signals = store();
    // A failed run has no status (it claims nothing) and is no training signal.
    const failed = await runRecorded(
      {
        assistant: assistant(
          result({ error: { code: 'llm-unreachable', message: 'down' }, validationStatus: undefined }),
        ),
        passages,
        signals,
        signal: context,
        log: () => undefined,
      },
      { query: 'q' },
    );
    assert.equal(failed.signalId, undefined);
    assert.equal(existsSync(signals.file), false, 'nothing was written');

    const dir = mkdtempSync(path.join(tmpdir(), 'avap-signals-'));
    writeFileSync(path.join(dir, 'blocker'), 'a file where a directory should be');
    const broken = new SignalStore(path.join(dir, 'blocker', 'signals.jsonl'));
    const lines: string[] = [];
    const run = await runRecorded(
      { assistant: assistant(result()), passages, signals: broken, signal: context, log: (l) => lines.push(l) },
      { query: 'q' },
    );
    assert.equal(run.result.text, result().text, 'the answer is returned');
    assert.equal(run.signalId, undefined);
    assert.match(lines[0] ?? '', /^training signal not recorded: /);
  });
});

/**
 * The progress of `index` on stderr, fed by the ingestion's events: embedding
 * the chunks, then bulk loading them.
 *
 * On a terminal, one live line:
 *   bulk loading 128/412 documents · 3 failed · 250 documents/s · 8.1s elapsed · ~1.2s left
 * elsewhere, one plain line per batch:
 *   bulk loading · batch 4/13 · 128/412 documents · 3 failed · 250 documents/s · 8.1s elapsed · ~1.2s left
 * A bulk batch with refused documents gets a line of its own in every mode
 * (even with --quiet): which batch, how many, why, the first ids.
 * Rate and time left are per phase (embedding is the slow one).
 */
import type { BulkBatchFailure, IngestEvent, IngestPhase } from '../../core';
import { EtaEstimator, formatDuration, formatRate, timeLeftMs } from './eta';
import { createProgressOutput, fitSegments, type DisplayOptions, type Segment } from './output';

const LABEL: Record<IngestPhase, string> = { embedding: 'embedding', bulk: 'bulk loading' };

export interface IndexLiveState {
  startedAt: number;
  phase?: IngestPhase;
  total: number;
  done: number;
  failed: number;
  /** When the batch under way started. */
  batchSince: number;
  /** Documents per second in this phase; undefined before its first batch ends. */
  perSecond?: number;
  /** Expected time of the batch under way and of the batches after it. */
  expectedBatchMs?: number;
  expectedRestMs?: number;
}

function segments(state: IndexLiveState, now: number, phase: IngestPhase): Segment[] {
  const left = timeLeftMs(state.expectedBatchMs, state.expectedRestMs, now - state.batchSince);
  return [
    ...(phase === 'bulk' ? [{ text: `${state.failed} failed`, priority: 0 }] : []),
    {
      text: state.perSecond === undefined ? 'measuring rate' : `${formatRate(state.perSecond)} documents/s`,
      priority: 3,
    },
    { text: `${formatDuration(now - state.startedAt)} elapsed`, priority: 2 },
    { text: left === undefined ? 'estimating time left' : `~${formatDuration(left)} left`, priority: 1 },
  ];
}

/**
 * The live line at time `now`, at most `width` characters; undefined before the first phase.
 * @internal
 */
export function indexLiveLine(state: IndexLiveState, now: number, width: number): string | undefined {
  if (!state.phase) return undefined;
  return fitSegments(
    [
      { text: `${LABEL[state.phase]} ${state.done}/${state.total} documents`, priority: 0 },
      ...segments(state, now, state.phase),
    ],
    width,
  );
}

/** The plain line of a finished batch. */
function indexPlainLine(state: IndexLiveState, batch: number, batches: number, now: number): string {
  const phase = state.phase ?? 'embedding';
  const parts = [
    `${LABEL[phase]}`,
    `batch ${batch}/${batches}`,
    `${state.done}/${state.total} documents`,
    ...segments(state, now, phase).map((s) => s.text),
  ];
  return parts.join(' · ');
}

/**
 * One line for a bulk batch with refused documents: which batch, how many, why, the first ids.
 * @internal
 */
export function bulkFailureLine(failure: BulkBatchFailure): string {
  const causes = failure.causes.map((c) => {
    const more = c.count - c.ids.length;
    const ids = c.ids.length ? ` [${c.ids.join(', ')}${more > 0 ? `, +${more} more` : ''}]` : '';
    return `${c.count} × ${c.cause}${ids}`;
  });
  return `bulk batch ${failure.batch}/${failure.batches}: ${failure.failed} of ${failure.documents} documents refused — ${causes.join('; ')}`;
}

export interface IndexProgress {
  onEvent: (event: IngestEvent) => void;
  stop: () => void;
}

export function createIndexProgress(options: DisplayOptions): IndexProgress {
  const now = options.now ?? (() => performance.now());
  const state: IndexLiveState = { startedAt: now(), total: 0, done: 0, failed: 0, batchSince: now() };
  let eta = new EtaEstimator();
  const output = createProgressOutput({ ...options, render: (width) => indexLiveLine(state, now(), width) });
  return {
    onEvent(event) {
      const t = now();
      switch (event.kind) {
        case 'note':
          output.note(event.message);
          return;
        case 'batch-failed':
          output.warn(bulkFailureLine(event.failure));
          return;
        case 'phase':
          eta = new EtaEstimator();
          Object.assign(state, {
            phase: event.phase,
            total: event.total,
            done: 0,
            failed: 0,
            batchSince: t,
            perSecond: undefined,
          });
          break;
        case 'batch':
          eta.record(t - state.batchSince, event.documents);
          Object.assign(state, { done: event.done, failed: event.failed, batchSince: t, perSecond: eta.perSecond() });
          break;
      }
      // The batch under way is the next one of the same size (the last may be smaller; the estimate is per document).
      const left = state.total - state.done;
      const next = Math.min(
        left,
        event.kind === 'batch' ? event.documents : Math.ceil(event.total / Math.max(1, event.batches)),
      );
      state.expectedBatchMs = eta.forUnits(next);
      state.expectedRestMs = eta.forUnits(left - next);
      if (event.kind === 'batch') output.step(indexPlainLine(state, event.batch, event.batches, t));
      output.redraw();
    },
    stop: () => output.stop(),
  };
}

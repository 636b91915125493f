/**
 * The progress of `eval` on stderr, fed by the runner's question events.
 *
 * On a terminal, one live line:
 *   run 2/5 · question 14/60 · 25 answered, 1 failed · 3m12s elapsed · ~41m left · GD-C-014
 * elsewhere, one plain line per question:
 *   run 2/5 · question 14/60 · GD-C-014 · invalid · 3m12s
 * (the elapsed time is since the evaluation started).
 *
 * The time left counts, for every question still to ask, what that question
 * took in earlier runs, else the mean so far (see EtaEstimator).
 */
import type { EvalPosition, EvalProgressEvent, EvalVerdict } from '../../eval';
import { EtaEstimator, formatDuration, timeLeftMs } from './eta';
import { createProgressOutput, fitSegments, type DisplayOptions } from './output';

export interface EvalLiveState {
  startedAt: number;
  /** The question under way, or the last one finished. */
  position?: EvalPosition;
  /** When the question under way started; undefined between questions. */
  currentSince?: number;
  answered: number;
  failed: number;
  /** Expected time of the question under way (0 between questions) and of everything after it. */
  expectedCurrentMs?: number;
  expectedRestMs?: number;
}

function verdictText(verdict: EvalVerdict): string {
  switch (verdict.outcome) {
    case 'valid':
      return 'valid';
    case 'invalid':
      return 'invalid';
    case 'no-code':
      return 'no code';
    case 'failed':
      return `failed (${verdict.code})`;
  }
}

/**
 * The plain line of a finished question: `run k/N · question i/M · <id> · <verdict> · <elapsed>`.
 * @internal
 */
export function evalPlainLine(position: EvalPosition, verdict: EvalVerdict, elapsedMs: number): string {
  return `run ${position.run}/${position.runs} · question ${position.question}/${position.questions} · ${position.id} · ${verdictText(verdict)} · ${formatDuration(elapsedMs)}`;
}

/**
 * The live line at time `now`, at most `width` characters; undefined before the first question.
 * @internal
 */
export function evalLiveLine(state: EvalLiveState, now: number, width: number): string | undefined {
  const p = state.position;
  if (!p) return undefined;
  const spent = state.currentSince === undefined ? 0 : now - state.currentSince;
  const left = timeLeftMs(state.expectedCurrentMs, state.expectedRestMs, spent);
  return fitSegments(
    [
      { text: `run ${p.run}/${p.runs} · question ${p.question}/${p.questions}`, priority: 0 },
      { text: `${state.answered} answered, ${state.failed} failed`, priority: 4 },
      { text: `${formatDuration(now - state.startedAt)} elapsed`, priority: 3 },
      { text: left === undefined ? 'estimating time left' : `~${formatDuration(left)} left`, priority: 1 },
      { text: p.id, priority: 2 },
    ],
    width,
  );
}

/**
 * The questions still to ask after `position`: the rest of this run, then every later run in full.
 * @internal
 */
export function questionsAfter(position: EvalPosition, ids: readonly string[]): string[] {
  const rest = ids.slice(position.question);
  for (let run = position.run + 1; run <= position.runs; run++) rest.push(...ids);
  return rest;
}

export interface EvalProgressOptions extends DisplayOptions {
  /** The question ids of one run, in the order they are asked. */
  ids: readonly string[];
}

export interface EvalProgress {
  onEvent: (event: EvalProgressEvent) => void;
  /** A line to keep (the run's header, a run's summary). */
  note: (line: string) => void;
  stop: () => void;
}

export function createEvalProgress(options: EvalProgressOptions): EvalProgress {
  const now = options.now ?? (() => performance.now());
  const eta = new EtaEstimator();
  const state: EvalLiveState = { startedAt: now(), answered: 0, failed: 0 };
  const output = createProgressOutput({ ...options, render: (width) => evalLiveLine(state, now(), width) });
  return {
    onEvent(event) {
      const t = now();
      if (event.kind === 'question-start') {
        state.currentSince = t;
        state.expectedCurrentMs = eta.forKeys([event.id]);
      } else {
        eta.record(t - (state.currentSince ?? t), 1, event.id);
        state.currentSince = undefined;
        state.expectedCurrentMs = eta.msPerUnit() === undefined ? undefined : 0;
        if (event.verdict.outcome === 'failed') state.failed++;
        else state.answered++;
        output.step(evalPlainLine(event, event.verdict, t - state.startedAt));
      }
      state.position = {
        run: event.run,
        runs: event.runs,
        question: event.question,
        questions: event.questions,
        id: event.id,
      };
      state.expectedRestMs = eta.forKeys(questionsAfter(state.position, options.ids));
      output.redraw();
    },
    note: (line) => output.note(line),
    stop: () => output.stop(),
  };
}

/**
 * Training signals, editor-free: an append-only JSONL store separate from the
 * telemetry log. `new SignalStore(file)` → recordSignal / recordFeedback /
 * recordOutcome / markUsedForTraining / read (each signal with its versioned
 * reward, `reward.ts`); `signalFromPipeline` builds a
 * signal from a pipeline result; `selectSignals`/`exportLine` serve
 * `node dist/cli.js export`.
 */
export * from './schema';
export { SignalStore, /** @internal */ parseSignals, type NewSignal, type StoreResult } from './store';
export { /** @internal */ isAnswered, /** @internal */ signalFromPipeline, type AnsweredResult } from './fromPipeline';
export { selectSignals, exportLine, type ExportFilter } from './exporter';
export { runRecorded, type RecordedRun } from './recordedRun';
export {
  /** @internal */ computeReward,
  /** @internal */ combineReward,
  /** @internal */ rewardComponents,
  REWARD_VERSION,
  /** @internal */ REWARD_WEIGHTS,
  type RewardInput,
} from './reward';

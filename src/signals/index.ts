/**
 * Training signals, editor-free: an append-only JSONL store separate from the
 * telemetry log. `new SignalStore(file)` → recordSignal / recordFeedback /
 * recordOutcome / markUsedForTraining / read (each signal with its versioned
 * reward, `reward.ts`); `signalFromPipeline` builds a
 * signal from a pipeline result; `selectSignals`/`exportLine` serve
 * `node dist/cli.js export`.
 */
export * from './schema';
export {
  SignalStore,
  parseSignals,
  type NewSignal,
  type ReadReport,
  type StoreResult,
  type SignalStoreOptions,
} from './store';
export {
  isAnswered,
  signalFromPipeline,
  signalTypeOf,
  scoreRecord,
  type AnsweredResult,
  type SignalContext,
} from './fromPipeline';
export { selectSignals, exportLine, type ExportFilter } from './exporter';
export { runRecorded, type RecordedRun, type RecordedRunDeps } from './recordedRun';
export {
  computeReward,
  combineReward,
  rewardComponents,
  REWARD_VERSION,
  REWARD_WEIGHTS,
  THUMBS_SCORE,
  OUTCOME_SCORE,
  type Reward,
  type RewardComponents,
  type RewardInput,
} from './reward';

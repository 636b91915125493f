/**
 * The training-signal records. The store is an append-only JSONL file, so a
 * signal is never rewritten: later facts about it (a thumbs up/down, whether
 * the user accepted or edited the code, that it was exported for training)
 * are appended as their own records and folded into the signal on read.
 *
 *   {"record":"signal",   ...}  one generation: input context, output, automated score, model versions
 *   {"record":"feedback", ...}  human thumbs up/down (chat view, generate preview, REST), label and score
 *   {"record":"outcome",  ...}  accepted | edited | discarded
 *   {"record":"training", ...}  these signals were exported for training (used_for_training, batch_id)
 *
 * On read each signal also gets its reward (`reward.ts`: computed_reward,
 * reward_version, reward_computed_at). Fields added after the first version
 * (a feedback score, a batch id) are optional: older stores still read.
 *
 * Separate from the telemetry/audit log: telemetry observes attempts, this
 * store keeps what a training pipeline needs.
 */
import { z } from 'zod';
import type { Reward } from './reward';

export const SIGNALS_SCHEMA_VERSION = 1;

export const SIGNAL_TYPES = ['code_generation', 'retrieval', 'conversational', 'platform', 'tool_call'] as const;
export type SignalType = (typeof SIGNAL_TYPES)[number];

export const THUMBS = ['up', 'down'] as const;
export type Thumbs = (typeof THUMBS)[number];

export const OUTCOMES = ['accepted', 'edited', 'discarded'] as const;
export type Outcome = (typeof OUTCOMES)[number];

const SIGNAL_SOURCES = ['editor', 'cli', 'rest', 'eval'] as const;

const isoTime = z.string().min(1);

const AutomatedScoreSchema = z.object({
  validator: z.string(),
  composite: z.number().min(0).max(1),
  threshold: z.number().min(0).max(1),
  passed: z.boolean(),
  dimensions: z.record(z.string(), z.number().min(0).max(1)),
  /** 1 or 2: the attempt of the quality gate this score belongs to. */
  attempt: z.number().int().min(1).optional(),
});

const AutomatedFailureSchema = z.object({
  validator: z.string(),
  code: z.string(),
  message: z.string(),
});

/** @internal */
export const SignalRecordSchema = z.object({
  record: z.literal('signal'),
  schema_version: z.number().int(),
  id: z.string().min(1),
  created_at: isoTime,
  signal_type: z.enum(SIGNAL_TYPES),
  source: z.enum(SIGNAL_SOURCES),
  input: z.object({
    query: z.string(),
    query_type: z.string().optional(),
    forced: z.boolean().optional(),
    /** The retrieved documentation the answer was built from. */
    context: z
      .array(z.object({ id: z.string(), title: z.string(), score: z.number().optional(), text: z.string().optional() }))
      .default([]),
    /** Code and trace a "regenerate with trace" started from. */
    correction: z.object({ code: z.string(), trace: z.array(z.string()) }).optional(),
  }),
  output: z.object({
    text: z.string(),
    code: z.string(),
    validation_status: z.string(),
    /** Generations made (a repair by the parser's fixes is not one). */
    attempts: z.number().int().min(0),
    /** Set when the answer is the model's answer repaired by the parser's proven fixes (no LLM retry). */
    repaired_by: z.literal('parser-fixes').optional(),
  }),
  automated: z.object({
    /** The score that decided (the last attempt's); null when none was computed. */
    score: AutomatedScoreSchema.nullable(),
    /** Every score of the quality gate, in order. */
    history: z.array(AutomatedScoreSchema).default([]),
    failure: AutomatedFailureSchema.nullable().default(null),
    /** Parser verdicts of the code attempts ("valid", "invalid", "unavailable"). */
    parser: z.array(z.string()).default([]),
  }),
  model: z.object({
    name: z.string(),
    judge: z.string().optional(),
    parser_version: z.string().optional(),
    assistant_version: z.string().optional(),
  }),
});
export type SignalRecord = z.infer<typeof SignalRecordSchema>;

const FeedbackRecordSchema = z.object({
  record: z.literal('feedback'),
  schema_version: z.number().int(),
  signal_id: z.string().min(1),
  at: isoTime,
  thumbs: z.enum(THUMBS),
  /** The thumbs as a score in [0, 1] (up 1, down 0); absent in older stores, derived from the thumbs then. */
  score: z.number().min(0).max(1).optional(),
  comment: z.string().max(2000).optional(),
  source: z.enum(SIGNAL_SOURCES),
});
export type FeedbackRecord = z.infer<typeof FeedbackRecordSchema>;

const OutcomeRecordSchema = z.object({
  record: z.literal('outcome'),
  schema_version: z.number().int(),
  signal_id: z.string().min(1),
  at: isoTime,
  outcome: z.enum(OUTCOMES),
  /** The code as the user saved it (when edited). */
  final_code: z.string().optional(),
  source: z.enum(SIGNAL_SOURCES),
});
export type OutcomeRecord = z.infer<typeof OutcomeRecordSchema>;

const TrainingRecordSchema = z.object({
  record: z.literal('training'),
  schema_version: z.number().int(),
  at: isoTime,
  signal_ids: z.array(z.string().min(1)).min(1),
  /** What the export was for (a free label, e.g. a dataset name). */
  label: z.string().optional(),
  /** The training batch these signals went into (`export --mark --batch ID`); absent in older stores. */
  batch_id: z.string().min(1).max(200).optional(),
});
export type TrainingRecord = z.infer<typeof TrainingRecordSchema>;

export const StoreRecordSchema = z.discriminatedUnion('record', [
  SignalRecordSchema,
  FeedbackRecordSchema,
  OutcomeRecordSchema,
  TrainingRecordSchema,
]);
export type StoreRecord = z.infer<typeof StoreRecordSchema>;

/** A signal with every later fact folded in, and its reward: what `read()` and `export` give. */
export interface TrainingSignal extends Omit<SignalRecord, 'record'>, Reward {
  /** The last thumbs given: the label and its score (up 1, down 0). */
  feedback: { thumbs: Thumbs; score: number; at: string; comment?: string; source: string } | null;
  outcome: { outcome: Outcome; at: string; final_code?: string; source: string } | null;
  used_for_training: boolean;
  /** The training batch the signal last went into; null when none was named. */
  training_batch_id: string | null;
  /** The time of the last record about this signal. */
  updated_at: string;
}

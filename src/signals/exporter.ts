/**
 * Selecting signals for a training pipeline. Pure: the CLI `export` command
 * reads the store, selects with these filters, writes JSONL and may append a
 * `training` record for what it exported.
 */
import { answerFeatures, numericFeatures } from '../quality';
import type { SignalType, Thumbs, TrainingSignal } from './schema';

export interface ExportFilter {
  /** Only signals not yet used for training. */
  unused?: boolean;
  types?: readonly SignalType[];
  /** 'any' = has feedback, 'none' = has none. */
  feedback?: Thumbs | 'any' | 'none';
  /** Automated composite at least this (signals without a score are left out). */
  minScore?: number;
  /** Automated composite below this (signals without a score are left out). */
  maxScore?: number;
  outcome?: 'accepted' | 'edited' | 'discarded' | 'any' | 'none';
  /** ISO time: created at or after. */
  since?: string;
}

export function selectSignals(signals: readonly TrainingSignal[], filter: ExportFilter): TrainingSignal[] {
  return signals.filter((s) => {
    if (filter.unused && s.used_for_training) return false;
    if (filter.types?.length && !filter.types.includes(s.signal_type)) return false;
    if (filter.feedback === 'any' && !s.feedback) return false;
    if (filter.feedback === 'none' && s.feedback) return false;
    if ((filter.feedback === 'up' || filter.feedback === 'down') && s.feedback?.thumbs !== filter.feedback)
      return false;
    if (filter.outcome === 'any' && !s.outcome) return false;
    if (filter.outcome === 'none' && s.outcome) return false;
    if (filter.outcome && !['any', 'none'].includes(filter.outcome) && s.outcome?.outcome !== filter.outcome)
      return false;
    const score = s.automated.score?.composite;
    if (filter.minScore !== undefined && (score === undefined || score < filter.minScore)) return false;
    if (filter.maxScore !== undefined && (score === undefined || score >= filter.maxScore)) return false;
    if (filter.since && s.created_at < filter.since) return false;
    return true;
  });
}

/** One exported line: the folded signal, plus the quality feature vector when asked. */
export function exportLine(signal: TrainingSignal, withFeatures: boolean): Record<string, unknown> {
  if (!withFeatures) return { ...signal };
  const features = numericFeatures(
    answerFeatures({
      question: signal.input.query,
      answer: signal.output.text,
      context: signal.input.context.map((c) => ({ id: c.id, title: c.title, text: c.text ?? '' })),
    }),
  );
  return { ...signal, features };
}

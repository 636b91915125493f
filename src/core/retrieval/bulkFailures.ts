/**
 * What went wrong in one bulk request, read from its response items: a bulk
 * call can succeed as a whole while Elasticsearch refuses some documents
 * (a vector of the wrong length, a field the strict mapping does not know).
 * Refusals are grouped by cause, so a batch of 32 identical failures reads as
 * one line with a count and the first ids.
 */

/** The part of a bulk response item this module reads (any operation type). */
export interface BulkItemOutcome {
  _id?: string | null;
  status?: number;
  error?: BulkItemError;
}

interface BulkItemError {
  type?: string;
  reason?: string | null;
  caused_by?: BulkItemError;
}

export interface FailureCause {
  /** `type: reason`, with the underlying cause when Elasticsearch gives one. */
  cause: string;
  count: number;
  /** The first few refused document ids (at most MAX_IDS). */
  ids: string[];
}

export interface BulkBatchFailure {
  /** 1-based batch number and the number of batches. */
  batch: number;
  batches: number;
  /** Documents sent in the batch, and how many were refused. */
  documents: number;
  failed: number;
  causes: FailureCause[];
}

const MAX_IDS = 3;

function describeError(error: BulkItemError): string {
  const own = `${error.type ?? 'error'}: ${error.reason ?? 'no reason given'}`;
  return error.caused_by ? `${own} (caused by ${describeError(error.caused_by)})` : own;
}

/** The refused items of a bulk response (items with an error), grouped by cause in order of first appearance. */
export function bulkItemFailures(items: readonly Partial<Record<string, BulkItemOutcome>>[]): {
  failed: number;
  causes: FailureCause[];
} {
  const causes = new Map<string, FailureCause>();
  let failed = 0;
  for (const item of items) {
    const outcome = Object.values(item).find((o): o is BulkItemOutcome => o !== undefined);
    if (!outcome?.error) continue;
    failed++;
    const cause = describeError(outcome.error);
    const entry = causes.get(cause) ?? { cause, count: 0, ids: [] };
    entry.count++;
    if (outcome._id && entry.ids.length < MAX_IDS) entry.ids.push(outcome._id);
    causes.set(cause, entry);
  }
  return { failed, causes: [...causes.values()] };
}

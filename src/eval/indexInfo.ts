/**
 * What evaluation records about the index before it starts: its name, its
 * version and the ingestion pipeline that built it — from the Elasticsearch
 * mapping's `_meta` (written by `index`), or the embedded index's corpus
 * fingerprint. Failures are data.
 */
import { Client } from '@elastic/elasticsearch';
import { fail, ok, type Failure, type Result } from '../result';
import type { EvalConfig } from './report';

export interface IndexTarget {
  esUrl?: string;
  esIndex: string;
  esApiKey?: string;
}

export type IndexInfo = EvalConfig['index'];

export async function describeIndex(
  target: IndexTarget,
  embeddedFingerprint: string,
  client?: Client,
): Promise<Result<IndexInfo, Failure<'index-unreadable'>>> {
  if (!target.esUrl && !client)
    return ok({ name: 'embedded', version: embeddedFingerprint, pipeline: 'in-process BM25 + embeddings' });
  const es =
    client ?? new Client({ node: target.esUrl, ...(target.esApiKey ? { auth: { apiKey: target.esApiKey } } : {}) });
  try {
    const mapping = await es.indices.getMapping({ index: target.esIndex });
    const meta = Object.values(mapping)[0]?.mappings?._meta;
    return ok({
      name: target.esIndex,
      version: `${metaText(meta?.index_version)} (corpus ${metaText(meta?.corpus_fingerprint)})`,
      pipeline: metaText(meta?.ingestion_pipeline),
    });
  } catch (err) {
    return fail(
      'index-unreadable',
      `cannot read the index metadata of ${target.esIndex}${target.esUrl ? ` at ${target.esUrl}` : ''}: ${(err as Error).message}`,
    );
  } finally {
    if (!client) await es.close();
  }
}

/** A metadata value as text: the index stores strings (numbers from older ingests); anything else reads as unknown. */
function metaText(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : 'unknown';
}

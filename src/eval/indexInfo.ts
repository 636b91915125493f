/**
 * What evaluation records about the index before it starts: its name, its
 * version and the ingestion pipeline that built it — from the Elasticsearch
 * mapping's `_meta` (written by `index`), or the embedded index's corpus
 * fingerprint. Failures are data.
 */
import { Client } from '@elastic/elasticsearch';
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
): Promise<{ ok: true; value: IndexInfo } | { ok: false; error: string }> {
  if (!target.esUrl && !client) return { ok: true, value: { name: 'embedded', version: embeddedFingerprint, pipeline: 'in-process BM25 + embeddings' } };
  const es = client ?? new Client({ node: target.esUrl as string, ...(target.esApiKey ? { auth: { apiKey: target.esApiKey } } : {}) });
  try {
    const mapping = await es.indices.getMapping({ index: target.esIndex });
    const meta = Object.values(mapping)[0]?.mappings?._meta as Record<string, unknown> | undefined;
    return {
      ok: true,
      value: {
        name: target.esIndex,
        version: `${String(meta?.index_version ?? 'unknown')} (corpus ${String(meta?.corpus_fingerprint ?? 'unknown')})`,
        pipeline: String(meta?.ingestion_pipeline ?? 'unknown'),
      },
    };
  } catch (err) {
    return { ok: false, error: `cannot read the index metadata of ${target.esIndex}${target.esUrl ? ` at ${target.esUrl}` : ''}: ${(err as Error).message}` };
  } finally {
    if (!client) await es.close();
  }
}

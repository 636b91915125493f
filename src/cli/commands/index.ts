/**
 * `index --es-url URL [--index NAME] [--recreate] [--ollama-url URL] [--embedding-model M]`
 * — creates the Elasticsearch index of the knowledge base (mapping with
 * text + dense_vector fields, index version and ingestion pipeline in its
 * metadata) and bulk-ingests every chunk with its embedding.
 */
import { Client } from '@elastic/elasticsearch';
import { parseArgs } from 'node:util';
import { configFromEnv, createOllamaLlm, mergeConfig, normalizeOllamaHost } from '../../core';
import { ingestKnowledge } from '../../core/retrieval/elastic';
import { loadKnowledgeBase } from '../../knowledge';
import { EXIT, UsageError, type CliCommand, type CliIO } from '../command';

const USAGE = `Usage: node dist/cli.js index --es-url URL [--index NAME] [--recreate]
                              [--ollama-url URL] [--embedding-model M] [--knowledge DIR]
  Indexes the AVAP knowledge base into Elasticsearch for hybrid retrieval.
  --es-url URL          Elasticsearch (default $AVAP_ES_URL); API key from $AVAP_ES_API_KEY
  --index NAME          index name (default $AVAP_ES_INDEX, else avap-knowledge-v1)
  --recreate            replace the index if it exists
  --ollama-url URL      Ollama for the embeddings (default $OLLAMA_HOST, else http://127.0.0.1:11434)
  --embedding-model M   (default $OLLAMA_EMBEDDING_MODEL, else qwen3-embedding:0.6b)
  --knowledge DIR       knowledge directory (default: the one shipped with the CLI)
Exit codes: 0 indexed, 2 usage error, unreachable service or failed ingestion.`;

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      'es-url': { type: 'string' },
      index: { type: 'string' },
      recreate: { type: 'boolean', default: false },
      'ollama-url': { type: 'string' },
      'embedding-model': { type: 'string' },
      knowledge: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const config = mergeConfig(configFromEnv(io.env), {
    ollama: { host: values['ollama-url'], embeddingModel: values['embedding-model'] },
    retrieval: { esUrl: values['es-url'], esIndex: values.index },
  });
  const esUrl = config.retrieval.esUrl;
  if (!esUrl) throw new UsageError('no Elasticsearch URL (--es-url or AVAP_ES_URL)');
  const kb = loadKnowledgeBase(values.knowledge ? { directory: values.knowledge } : {});
  if (!kb.ok) {
    io.stderr(`avap index: knowledge base: ${kb.error.message}\n`);
    return EXIT.usage;
  }
  const llm = createOllamaLlm({ ...config.ollama, host: normalizeOllamaHost(config.ollama.host) });
  const client = new Client({ node: esUrl, ...(config.retrieval.esApiKey ? { auth: { apiKey: config.retrieval.esApiKey } } : {}) });
  try {
    const result = await ingestKnowledge({
      client,
      index: config.retrieval.esIndex,
      chunks: kb.value.chunks,
      embed: (texts, signal) => llm.embed(config.ollama.embeddingModel, texts, signal ?? io.signal),
      embeddingModel: config.ollama.embeddingModel,
      corpusFingerprint: kb.value.fingerprint,
      recreate: values.recreate,
      onProgress: (line) => io.stderr(`${line}\n`),
    });
    if (!result.ok) {
      io.stderr(`avap index: ${result.error}\n`);
      return EXIT.usage;
    }
    io.stdout(`indexed ${result.indexed} chunks into ${config.retrieval.esIndex} (index version ${result.meta.index_version}, pipeline ${result.meta.ingestion_pipeline}, ${result.meta.dims}-d ${result.meta.embedding_model}, corpus ${result.meta.corpus_fingerprint})\n`);
    return EXIT.ok;
  } finally {
    await client.close();
  }
}

export const indexCommand: CliCommand = {
  name: 'index',
  summary: 'index the knowledge base into Elasticsearch (mapping + embeddings + bulk)',
  usage: USAGE,
  run,
};

/**
 * `index --es-url URL [--index NAME] [--recreate] [--ollama-url URL] [--embedding-model M]`
 * — creates the Elasticsearch index of the knowledge base (mapping with
 * text + dense_vector fields, index version and ingestion pipeline in its
 * metadata) and bulk-ingests every chunk with its embedding, with progress on
 * stderr; documents Elasticsearch refuses are reported per batch and make the
 * exit code 2.
 */
import { Client } from '@elastic/elasticsearch';
import { parseArgs } from 'node:util';
import { configFromEnv, createOllamaLlm, mergeConfig, normalizeOllamaHost, ingestKnowledge } from '../../core';
import { loadKnowledgeBase } from '../../knowledge';
import { EXIT, UsageError, type CliCommand, type CliIO } from '../command';
import { createIndexProgress } from '../progress/indexProgress';
import { progressMode, stopOnAbort } from '../progress/output';

const USAGE = `Usage: node dist/cli.js index --es-url URL [--index NAME] [--recreate]
                              [--ollama-url URL] [--embedding-model M] [--knowledge DIR]
  Indexes the AVAP knowledge base into Elasticsearch for hybrid retrieval.
  --es-url URL          Elasticsearch (default $AVAP_ES_URL); API key from $AVAP_ES_API_KEY
  --index NAME          index name (default $AVAP_ES_INDEX, else avap-knowledge-v1)
  --recreate            replace the index if it exists
  --ollama-url URL      Ollama for the embeddings (default $OLLAMA_HOST, else http://127.0.0.1:11434)
  --embedding-model M   (default $OLLAMA_EMBEDDING_MODEL, else qwen3-embedding:0.6b)
  --knowledge DIR       knowledge directory (default: the one shipped with the CLI)
  --quiet               no progress on stderr (refused documents and errors still print)
Progress goes to stderr (embedding, then bulk loading: documents done / total, rate, time left): on a
terminal one live line, otherwise one line per batch. A bulk batch in which Elasticsearch refuses
documents is reported on its own line (batch, how many, why, the first ids); the other batches are
still loaded.
Exit codes: 0 indexed, 2 usage error, unreachable service, failed ingestion or refused documents.`;

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
      quiet: { type: 'boolean', default: false },
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
  const client = new Client({
    node: esUrl,
    ...(config.retrieval.esApiKey ? { auth: { apiKey: config.retrieval.esApiKey } } : {}),
  });
  const display = createIndexProgress({
    mode: progressMode(io, values.quiet),
    write: io.stderr,
    columns: io.stderrTerminal?.columns,
  });
  const releaseAbort = stopOnAbort(display, io.signal);
  try {
    const result = await ingestKnowledge({
      client,
      index: config.retrieval.esIndex,
      chunks: kb.value.chunks,
      embed: (texts, signal) => llm.embed(config.ollama.embeddingModel, texts, signal),
      embeddingModel: config.ollama.embeddingModel,
      corpusFingerprint: kb.value.fingerprint,
      recreate: values.recreate,
      onEvent: display.onEvent,
      signal: io.signal,
    });
    display.stop();
    if (!result.ok) {
      io.stderr(`avap index: ${result.error.message}\n`);
      return EXIT.usage;
    }
    const total = kb.value.chunks.length;
    const ingested = result.value;
    const refused = total - ingested.indexed;
    io.stdout(
      `indexed ${refused ? `${ingested.indexed} of ${total}` : ingested.indexed} chunks into ${config.retrieval.esIndex} (index version ${ingested.meta.index_version}, pipeline ${ingested.meta.ingestion_pipeline}, ${ingested.meta.dims}-d ${ingested.meta.embedding_model}, corpus ${ingested.meta.corpus_fingerprint})\n`,
    );
    if (ingested.failures.length) {
      io.stderr(
        `avap index: Elasticsearch refused ${refused} of ${total} documents in ${ingested.failures.length} of ${ingested.failures[0]?.batches} bulk batches (listed above); the index is incomplete — fix the cause and run again with --recreate\n`,
      );
      return EXIT.usage;
    }
    return EXIT.ok;
  } finally {
    display.stop();
    releaseAbort();
    await client.close();
  }
}

export const indexCommand: CliCommand = {
  name: 'index',
  summary: 'index the knowledge base into Elasticsearch (mapping + embeddings + bulk)',
  usage: USAGE,
  run,
};

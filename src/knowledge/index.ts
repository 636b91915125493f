/**
 * AVAP knowledge base — editor-free library (never imports `vscode`).
 *
 * Data lives in `knowledge/` at the package root (shipped with the extension):
 *   - `knowledge/docs/*.md`            reference documents (front matter + Markdown),
 *                                      one per catalogue command plus topic chapters;
 *   - `knowledge/examples/pool.json`   ≥ 190 validated AVAP example programs;
 *   - `knowledge/golden/golden-set.json` the evaluation golden set.
 * Every ```avap block of the docs, every pool example and every reference
 * program of the golden set is VALID under the current parser (unit tests).
 *
 * API (all loaders return `LoadResult<T>` = `{ok: true, value}` | `{ok: false, error}`;
 * nothing here throws on bad files):
 *
 *   knowledgeDirectory(dir?)        → LoadResult<string>   finds `knowledge/` from dist/*.js
 *                                                          (`dist/../knowledge`) or src/knowledge
 *   loadKnowledgeBase({directory?}) → LoadResult<KnowledgeBase>
 *       kb.search(query, k)         → {id, score}[]        BM25 over doc chunks, best first, ties by id
 *       kb.chunk(id)                → DocChunk             {id, docId, title, heading, text, commands[],
 *                                                           blockKinds[], constructs[], sourceDoc, docKind, ordinal}
 *       kb.selectExamples(req, k=5) → {example, score}[]   few-shot: top-K similar pool examples
 *       kb.docs / kb.chunks / kb.pool / kb.fingerprint (corpus content version)
 *   loadDocs(dir) / loadExamplePool(dir) / loadGoldenSet(dir)   the raw files, schema-checked
 *   chunkDocument(doc) / chunkDocuments(docs)                   the Markdown chunker
 *   Bm25Index, tokenize                                         the lexical index and its tokenizer
 *   buildChunkIndex(chunks), createExampleSelector(pool)        the two indexes, from loaded data
 *   renderExamples(selected)                                    examples as prompt text
 *   divergenceNote(example.divergences)                         what AVAP Lite does instead, in a sentence
 *   detectCommands(code) / detectConstructs(code)               lexical metadata of AVAP code
 *
 * Typical use (pipeline core):
 *   const kb = loadKnowledgeBase();
 *   if (kb.ok) { const hits = kb.value.search(query, 8); const shots = kb.value.selectExamples(query, 5); }
 */
export * from './types';
export { knowledgeDirectory, /** @internal */ knowledgeCandidates } from './paths';
export {
  /** @internal */ loadDocs,
  /** @internal */ loadExamplePool,
  loadGoldenSet,
  /** @internal */ parseDoc,
} from './loaders';
export {
  /** @internal */ chunkDocument,
  /** @internal */ chunkDocuments,
  /** @internal */ markdownBlocks,
  /** @internal */ avapCodeBlocks,
} from './chunker';
export { tokenize, /** @internal */ identifierParts, /** @internal */ foldPlural } from './tokenizer';
export { /** @internal */ DIVERGENCE_NOTES, divergenceNote } from './divergences';
export { /** @internal */ Bm25Index } from './bm25';
export {
  /** @internal */ createExampleSelector,
  /** @internal */ renderExamples,
  /** @internal */ DEFAULT_FEW_SHOT_K,
} from './fewShot';
export { detectCommands, /** @internal */ detectConstructs, stripAvap } from './avapScan';
export { loadKnowledgeBase, type KnowledgeBase } from './knowledgeBase';

/** A report.json as `eval --out` writes it (undefined metrics are null), for the viewer's tests. */
export function sampleStoredReport() {
  return {
    config: {
      seed: 42, model: 'qwen3:1.7b', judgeModel: 'qwen3:1.7b', embeddingModel: 'qwen3-embedding:0.6b', temperature: 0,
      index: { name: 'avap-knowledge-v1', version: '3 (corpus abc)', pipeline: 'avap-kb-ingest-v1' },
      retrievalMode: 'knn_only', fewShot: { status: 'degraded', k: 5 }, runs: 2, goldenVersion: '1.0.0', llm: 'ollama',
      parserVersion: 'avap-parser/1.0.0+catalogue.2026.11.1', goldenEntries: 12, startedAt: '2026-11-23T10:00:00Z',
    },
    runs: [
      { run: 1, entries: 12, codeBearing: 10, validCode: 7, syntactic_validity: 0.7, faithfulness: null, answer_relevancy: 0.5, judge_failures: 1, pipeline_errors: 1, quality_judged: 2, quality_passed: 1, quality_retried: 1, quality_failures: 0, convergence: {} },
      { run: 2, entries: 12, codeBearing: 9, validCode: 6, syntactic_validity: 0.6333, faithfulness: null, answer_relevancy: 0.5, judge_failures: 0, pipeline_errors: 0, quality_judged: 2, quality_passed: 2, quality_retried: 0, quality_failures: 1, convergence: {} },
    ],
    syntactic_validity: { mean: 0.6667, std: 0.0471, n: 2 },
    faithfulness: { mean: null, std: null, n: 0 },
    answer_relevancy: { mean: 0.5, std: 0, n: 2 },
    convergence: {
      first_attempt_invalid_rate: { mean: 0.5, std: 0, n: 2 },
      convergence_rate: { mean: 0.4, std: 0, n: 2 },
      mean_attempts_converged: { mean: 1.4, std: 0, n: 2 },
      non_convergence_rate: { mean: 0.3, std: 0, n: 2 },
    },
    judge_failures: 1,
    confusion: {
      categories: ['unknown_token', 'unexpected_construct', 'foreign_keyword', 'syntax_error'],
      byQuestion: { 'GD-C-007': { unknown_token: 3, unexpected_construct: 0, foreign_keyword: 1, syntax_error: 0 } },
      byCategory: { unknown_token: 3, unexpected_construct: 0, foreign_keyword: 1, syntax_error: 0 },
      topTokens: [['generateToken', 3], ['let', 1]] as [string, number][],
    },
    leakage: [{ model: 'qwen3:1.7b', avap_commands: 40, foreign_keywords: 1, unknown_identifiers: 3, shares: {}, topForeign: [], topUnknown: [] }],
    entries: [],
    finishedAt: '2026-11-23T10:05:00Z',
  };
}

/**
 * Evaluation over the golden set, editor-free: the runner (runner.ts), the
 * recorded-answer cassette (cassette.ts), RAGAS-style judges (ragas.ts),
 * metrics across runs (analysis.ts, stats.ts), the Markdown/HTML report and
 * its reader (report.ts, reportRead.ts) and the index description (indexInfo.ts).
 */
export * from './runner';
export * from './functional';
export * from './cassette';
export * from './ragas';
export * from './analysis';
export * from './stats';
export * from './report';
export * from './reportRead';
export * from './indexInfo';

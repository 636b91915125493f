/**
 * The unseen-corpus throughput (bench/parser/unseen.ts) measured in a process of its own, started by the parser
 * suite (index.ts), which reads the figures as JSON from its stdout. Alone, because CPU time is per process: in the
 * suite's process the earlier benchmarks leave a large heap (the 515 KiB throughput's createSourceFile trees), and
 * the collector's threads working through it were counted to whichever side ran then — a pass of validateAvap that
 * takes 4.5 ms alone measured 13 ms there, its parse-only twin on the same input at times half or twice that.
 * Here the three contenders still run side by side, in the same interleaved rounds.
 */
import path from 'node:path';
import ts from 'typescript';
import type * as ParserModule from '../../src/parser';
import { REPO_ROOT } from '../../test/support/parserProcess';
import { regexLineScan } from './floor';
import { measureUnseen } from './unseen';

// The parser as shipped (dist/parser.js), as the rest of the suite measures it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { validateAvap } = require(path.join(REPO_ROOT, 'dist', 'parser.js')) as typeof ParserModule;

void measureUnseen({
  validateAvap,
  createSourceFile: (text) => ts.createSourceFile('bench.js', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS),
  floor: regexLineScan,
}).then(
  (figures) => process.stdout.write(`${JSON.stringify(figures)}\n`),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);

/**
 * The unseen-corpus throughput (bench/parser/unseen.ts) measured in a process of its own, started by the parser
 * suite (index.ts), which reads the figures as JSON from its stdout. Alone, because CPU time is per process: in the
 * suite's process the earlier benchmarks leave a large heap (the 515 KiB throughput's createSourceFile trees), and
 * the collector's threads working through it were counted to whichever side ran then — a pass of validateAvap that
 * takes 4.5 ms alone measured 13 ms there, its parse-only twin on the same input at times half or twice that.
 * Here the three contenders still run side by side, in the same interleaved rounds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import ts from 'typescript';
import type * as ParserModule from '../../src/parser';
import type * as LexicalModule from '../../src/parser/lexical';
import { REPO_ROOT } from '../../test/support/parserProcess';
import { regexLineScan } from './floor';
import { measureUnseen } from './unseen';

// The parser as shipped (dist/parser.js), as the rest of the suite measures it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { validateAvap } = require(path.join(REPO_ROOT, 'dist', 'parser.js')) as typeof ParserModule;

/**
 * The scanner as the parser bundle has it: src/parser/lexical.ts (the scanner's light entry) bundled the way
 * dist/parser.js is, into a temporary folder, since the parser bundle exports no scanner.
 */
function loadScanner(): typeof LexicalModule {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'avap-bench-scanner-'));
  try {
    const outfile = path.join(dir, 'lexical.js');
    buildSync({
      entryPoints: [path.join(REPO_ROOT, 'src', 'parser', 'lexical.ts')],
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      outfile,
      logLevel: 'warning',
    });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(outfile) as typeof LexicalModule;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const { newScanState, scanLine } = loadScanner();

/** Every line scanned, split the way the analyzer splits them (at LF, CR or CRLF); the number of tokens. */
function scanOnly(text: string): number {
  const state = newScanState();
  const span = { start: 0, end: 0 };
  const sink = () => undefined;
  const n = text.length;
  let tokens = 0;
  let start = 0;
  let nextLF = -2;
  let nextCR = -2;
  for (;;) {
    if (nextLF !== -1 && nextLF < start) nextLF = text.indexOf('\n', start);
    if (nextCR !== -1 && nextCR < start) nextCR = text.indexOf('\r', start);
    const end = Math.min(nextLF === -1 ? n : nextLF, nextCR === -1 ? n : nextCR);
    span.start = start;
    span.end = end;
    tokens += scanLine(text, span, state, sink).length;
    if (end >= n) return tokens;
    start = end + (text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? 2 : 1);
  }
}

void measureUnseen({
  validateAvap,
  createSourceFile: (text) => ts.createSourceFile('bench.js', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS),
  floor: regexLineScan,
  scanOnly,
}).then(
  (figures) => process.stdout.write(`${JSON.stringify(figures)}\n`),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);

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
import type * as LexicalModule from '../../src/parser/lexical';
import type * as PlainTokensModule from '../../src/parser/analysis/plainTokens';
import { REPO_ROOT } from '../../test/support/parserProcess';
import { bundledModule } from '../bundle';
import { regexLineScan } from './floor';
import { measureUnseen } from './unseen';

// The parser as shipped (dist/parser.js), as the rest of the suite measures it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { validateAvap } = require(path.join(REPO_ROOT, 'dist', 'parser.js')) as typeof ParserModule;

// The scanner (src/parser/lexical.ts, its light entry) and the plain reader's tokenizer.
const { newScanState, scanLine } = bundledModule<typeof LexicalModule>('src/parser/lexical.ts');
const { LineTokens } = bundledModule<typeof PlainTokensModule>('src/parser/analysis/plainTokens.ts');

/** The start and end offsets of every line of `text`, split the way the analyzer splits them (at LF, CR or CRLF). */
function eachLine(text: string, visit: (start: number, end: number) => void): void {
  const n = text.length;
  let start = 0;
  let nextLF = -2;
  let nextCR = -2;
  for (;;) {
    if (nextLF !== -1 && nextLF < start) nextLF = text.indexOf('\n', start);
    if (nextCR !== -1 && nextCR < start) nextCR = text.indexOf('\r', start);
    const end = Math.min(nextLF === -1 ? n : nextLF, nextCR === -1 ? n : nextCR);
    visit(start, end);
    if (end >= n) return;
    start = end + (text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? 2 : 1);
  }
}

/**
 * The plain reader's tokenizer alone over every line, as the analysis calls it (analysis/plainTokens.ts: the program
 * loaded into the WebAssembly tokenizer once, each line tokenized there; a line it does not read, it leaves at its
 * first odd character). The token count.
 */
const reader = new LineTokens();
function readOnly(text: string): number {
  let tokens = 0;
  const ticket = reader.load(text);
  eachLine(text, (start, end) => {
    tokens += Math.max(0, reader.tokenizeLoaded(ticket, text, start, end));
  });
  return tokens;
}

/** Every line scanned as the scanner reads it; the number of tokens. */
function scanOnly(text: string): number {
  const state = newScanState();
  const span = { start: 0, end: 0 };
  const sink = () => undefined;
  let tokens = 0;
  eachLine(text, (start, end) => {
    span.start = start;
    span.end = end;
    tokens += scanLine(text, span, state, sink).length;
  });
  return tokens;
}

void measureUnseen({
  validateAvap,
  createSourceFile: (text) => ts.createSourceFile('bench.js', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS),
  floor: regexLineScan,
  scanOnly,
  readOnly,
}).then(
  (figures) => process.stdout.write(`${JSON.stringify(figures)}\n`),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);

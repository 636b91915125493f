/**
 * Language-feature benchmarks: every request of src/language on a
 * 1,000-line file, p95, side by side with a parse of the same file —
 * `validateAvap` (what diagnostics cost) and the syntax tree alone. Goal:
 * every request p95 ≤ 10 ms.
 *
 * Each request is timed *cold*: on a new version of the text (an edit near
 * the middle of the file that changes its line's length, so every line after
 * it moves), so it pays for the syntax tree and the symbol index it reads —
 * what the first request after a keystroke costs; the requests after it share
 * them, and the *warm* figure (the same version) says what they cost then.
 * The syntax tree of a new version reuses the lines it shares with the last
 * one (src/syntax/reuse.ts); what a first read with nothing to reuse costs (a
 * file just opened) is measured beside it. Measured on the bundle as it ships
 * (esbuild, minified), not the TypeScript sources under tsx. Two programs: the
 * tuned one and a held-out one (bench/language/programs.ts).
 *
 * Then the same over the protocol: `avap lsp --stdio` as a child process,
 * each request right after a full-text didChange (JSON-RPC both ways) sent
 * once the previous version's diagnostics are published (as keystrokes come:
 * the server validates between them), the time from spawn to the initialize
 * answer, and edit → published diagnostics. The fix-all code action needs the
 * parser's verdict on the version just sent, so it is the parse: it has a row
 * of its own, beside the parse.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver/node';
import { childEnv, distFile } from '../../test/support/dist';
import type * as Entry from './entry';
import { benchPrograms, LINES, type BenchProgram } from './programs';
import { median, type BenchResult, type BenchSuite } from '../types';

type Language = typeof Entry;
type Doc = InstanceType<Language['AvapDocument']>;
type Pos = { line: number; character: number };

const ROOT = path.join(__dirname, '..', '..');
const COLD = Number(process.env.AVAP_BENCH_LANGUAGE_RUNS ?? 120) || 120;
const WARM = 200;
const OVER_STDIO = 40;
const GOAL_MS = 10;

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)] ?? 0;
}
const p95 = (samples: readonly number[]) => percentile(samples, 0.95);

async function loadBundle(): Promise<{ language: Language; cleanup: () => void }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'avap-bench-language-'));
  const outfile = path.join(dir, 'language.js');
  await esbuild.build({
    entryPoints: [path.join(__dirname, 'entry.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    outfile,
    logLevel: 'warning',
    absWorkingDir: ROOT,
  });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const language = require(outfile) as Language;
  return { language, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

interface Places {
  functionCall: Pos;
  variable: Pos;
  renameTo: string;
  callArgument: Pos;
  statementStart: Pos;
  visible: { start: Pos; end: Pos };
}

/** Where each request is asked, found in the program itself (the first of each kind that works). */
function places(L: Language, program: BenchProgram): Places {
  const doc = new L.AvapDocument(program.text);
  const at = (o: { start: number }) => doc.lines.positionAt(o.start + 1);
  const call = doc.symbols.occurrences.find((o) => o.symbol === 'function' && o.role === 'reference');
  const counts = new Map<string, number>();
  for (const o of doc.symbols.occurrences)
    if (o.symbol === 'variable' && o.role === 'reference') counts.set(o.name, (counts.get(o.name) ?? 0) + 1);
  const byUse = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([name]) => name);
  let variable: Pos | undefined;
  for (const name of byUse) {
    const first = doc.symbols.occurrences.find((o) => o.name === name && o.role === 'reference');
    if (first && L.rename(doc, at(first), `${name}_renamed`).ok) {
      variable = at(first);
      break;
    }
  }
  const withArgs = doc.tree.statements.find((s) => s.kind === 'call' && s.args.length >= 2);
  if (!call || !variable || withArgs?.kind !== 'call') throw new Error(`${program.name}: no place to ask`);
  const middle = Math.floor(LINES / 2);
  return {
    functionCall: at(call),
    variable,
    renameTo: 'renamed_in_bench',
    callArgument: doc.lines.positionAt((withArgs.args[1]?.span.start ?? withArgs.open.end) + 0),
    statementStart: { line: middle, character: 0 },
    visible: { start: { line: middle - 30, character: 0 }, end: { line: middle + 30, character: 0 } },
  };
}

type Request = (doc: Doc) => unknown;

function requests(L: Language, p: Places): Record<string, Request> {
  const whole = { start: { line: 0, character: 0 }, end: { line: LINES, character: 0 } };
  return {
    'document symbols': (d) => L.documentSymbols(d),
    definition: (d) => L.definition(d, p.functionCall),
    references: (d) => L.references(d, p.variable, true),
    'document highlights': (d) => L.highlights(d, p.variable),
    'prepare rename': (d) => L.prepareRename(d, p.variable),
    rename: (d) => L.rename(d, p.variable, p.renameTo),
    'signature help': (d) => L.signatureHelp(d, p.callArgument),
    'inlay hints (visible 60 lines)': (d) => L.inlayHints(d, p.visible, { parameterNames: true }),
    'inlay hints (whole file)': (d) => L.inlayHints(d, whole, { parameterNames: true }),
    'semantic tokens': (d) => L.semanticTokens(d),
    'folding ranges': (d) => L.foldingRanges(d),
    'format document': (d) => L.formatEdits(d),
    'format selection (60 lines)': (d) => L.formatEdits(d, p.visible),
    hover: (d) => L.hover(d, p.variable),
    completion: (d) => L.completion(d, p.statementStart),
  };
}

/** CPU time of each call (this process's, user + system), next to the wall time: the machine is shared. */
const cpu: number[] = [];

function time(fn: () => unknown): number {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  fn();
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const used = process.cpuUsage(c0);
  cpu.push((used.user + used.system) / 1000);
  return wall;
}

/** Runs `fn` and files its wall time in `wall[name]` and its CPU time in `cpuOf[name]`. */
function timed(wall: Record<string, number[]>, cpuOf: Record<string, number[]>, name: string, fn: () => unknown): void {
  wall[name]?.push(time(fn));
  cpuOf[name]?.push(cpu[cpu.length - 1] ?? 0);
}

interface InProcess {
  cold: Record<string, number[]>;
  coldCpu: Record<string, number[]>;
  warm: Record<string, number[]>;
  validate: number[];
  validateCpu: number[];
  syntax: number[];
  /** A first read, nothing reused: the syntax tree, and the tree with its symbol index (CPU time). */
  fresh: number[];
  freshIndexCpu: number[];
  diagnostics: number[];
}

function measureInProcess(L: Language, program: BenchProgram): InProcess {
  const asks = requests(L, places(L, program));
  const names = Object.keys(asks);
  const cold: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const coldCpu: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const warm: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const parse = { validate: [] as number[] };
  const parseCpu = { validate: [] as number[] };
  const validate = parse.validate;
  const syntax: number[] = [];
  const fresh: number[] = [];
  const freshIndexCpu: number[] = [];
  const diagnostics: number[] = [];
  let edit = 1;
  // Warm-up: the JIT, untimed.
  for (let i = 0; i < 10; i++) for (const ask of Object.values(asks)) ask(new L.AvapDocument(program.edited(edit++)));
  // Cold: a new version for every request; the parse of the same versions interleaved.
  for (let i = 0; i < COLD; i++) {
    for (const name of names) {
      const text = program.edited(edit++);
      timed(cold, coldCpu, name, () => asks[name]?.(new L.AvapDocument(text)));
    }
    const text = program.edited(edit++);
    timed(parse, parseCpu, 'validate', () => L.validateAvap(text));
    const syntaxText = program.edited(edit++);
    syntax.push(time(() => L.parseSyntax(syntaxText)));
    const freshText = program.edited(edit++);
    fresh.push(time(() => L.parseSyntaxFresh(freshText)));
    time(() => new L.SymbolIndex(L.parseSyntaxFresh(freshText)));
    freshIndexCpu.push(cpu[cpu.length - 1] ?? 0);
    const diagnosticsText = program.edited(edit++);
    diagnostics.push(time(() => L.verdictOf(diagnosticsText, edit, 'bench.avap')));
  }
  const doc = new L.AvapDocument(program.edited(edit++));
  void doc.symbols;
  for (let i = 0; i < WARM; i++) for (const name of names) warm[name]?.push(time(() => asks[name]?.(doc)));
  cpu.length = 0;
  return { cold, coldCpu, warm, validate, validateCpu: parseCpu.validate, syntax, fresh, freshIndexCpu, diagnostics };
}

interface OverStdio {
  initializeMs: number[];
  requests: Record<string, number[]>;
  /** The fix-all code action: it needs the parser's verdict on the version just sent. */
  fixAll: number[];
  diagnostics: number[];
}

const FIX_ALL = 'code actions (source.fixAll)';

/** The server as an editor runs it: each request right after a full-text edit, over JSON-RPC on stdio. */
async function measureOverStdio(L: Language, program: BenchProgram): Promise<OverStdio> {
  const p = places(L, program);
  const uri = 'file:///bench/program.avap';
  const doc = { textDocument: { uri } };
  const whole = { start: { line: 0, character: 0 }, end: { line: LINES, character: 0 } };
  const asks: Record<string, [string, object]> = {
    'document symbols': ['textDocument/documentSymbol', doc],
    definition: ['textDocument/definition', { ...doc, position: p.functionCall }],
    references: ['textDocument/references', { ...doc, position: p.variable, context: { includeDeclaration: true } }],
    'signature help': ['textDocument/signatureHelp', { ...doc, position: p.callArgument }],
    'inlay hints (visible 60 lines)': ['textDocument/inlayHint', { ...doc, range: p.visible }],
    'semantic tokens': ['textDocument/semanticTokens/full', doc],
    'folding ranges': ['textDocument/foldingRange', doc],
    'format document': ['textDocument/formatting', { ...doc, options: { tabSize: 2, insertSpaces: true } }],
    rename: ['textDocument/rename', { ...doc, position: p.variable, newName: p.renameTo }],
    hover: ['textDocument/hover', { ...doc, position: p.variable }],
    completion: ['textDocument/completion', { ...doc, position: p.statementStart }],
    [FIX_ALL]: [
      'textDocument/codeAction',
      { ...doc, range: whole, context: { diagnostics: [], only: ['source.fixAll'] } },
    ],
  };
  const initializeMs: number[] = [];
  const requestsMs: Record<string, number[]> = Object.fromEntries(
    Object.keys(asks)
      .filter((n) => n !== FIX_ALL)
      .map((n) => [n, []]),
  );
  const fixAll: number[] = [];
  const diagnostics: number[] = [];
  for (let run = 0; run < 5; run++) {
    const t0 = performance.now();
    const child = spawn(process.execPath, [distFile('cli.js'), 'lsp', '--stdio'], {
      env: childEnv(),
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const connection = createProtocolConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    const published = new Map<number, () => void>();
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      if (params.version !== undefined) published.get(params.version)?.();
    });
    connection.listen();
    await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: null,
      capabilities: {},
      initializationOptions: { avap: { inlayHints: { parameterNames: true } } },
    });
    initializeMs.push(performance.now() - t0);
    await connection.sendNotification(InitializedNotification.type, {});
    let version = 1;
    const opened = new Promise<void>((resolve) => published.set(version, resolve));
    await connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'avap', version, text: program.text },
    });
    await opened;
    if (run === 0) {
      // One server answers the requests (the others measure start-up): warm-up, then the timed rounds. Each
      // edit is sent once the last one's diagnostics are out, as keystrokes come: the server validates between.
      for (let i = 0; i < OVER_STDIO + 5; i++) {
        for (const [name, [method, params]] of Object.entries(asks)) {
          version++;
          const validated = new Promise<void>((resolve) => published.set(version, resolve));
          const t = performance.now();
          await connection.sendNotification(DidChangeTextDocumentNotification.type, {
            textDocument: { uri, version },
            contentChanges: [{ text: program.edited(version) }],
          });
          await connection.sendRequest(method, params);
          if (i >= 5) (name === FIX_ALL ? fixAll : requestsMs[name])?.push(performance.now() - t);
          await validated;
        }
        version++;
        const t = performance.now();
        const seen = new Promise<void>((resolve) => published.set(version, resolve));
        await connection.sendNotification(DidChangeTextDocumentNotification.type, {
          textDocument: { uri, version },
          contentChanges: [{ text: program.edited(version) }],
        });
        await seen;
        if (i >= 5) diagnostics.push(performance.now() - t);
      }
    }
    await connection.sendRequest('shutdown');
    await connection.sendNotification('exit');
    await new Promise((resolve) => child.once('exit', resolve));
    connection.dispose();
  }
  return { initializeMs, requests: requestsMs, fixAll, diagnostics };
}

const ms = (v: number) => `${v.toFixed(2)} ms`;

function report(program: BenchProgram, r: InProcess, s: OverStdio): BenchResult[] {
  const slowest = (set: Record<string, number[]>): [string, number] =>
    Object.entries(set)
      .map(([name, samples]): [string, number] => [name, p95(samples)])
      .sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  const list = (set: Record<string, number[]>) =>
    Object.entries(set)
      .map(([name, samples]) => `${name} ${ms(p95(samples))}`)
      .join(', ');
  const [cpuName, cpuP95] = slowest(r.coldCpu);
  const [wallName, wallP95] = slowest(r.cold);
  const parseCpu = p95(r.validateCpu);
  const parseWall = p95(r.validate);
  const [stdioName, stdioP95] = slowest(s.requests);
  const load = os.loadavg()[0] ?? 0;
  const goal = (v: number) => ({ text: `every request p95 ≤ ${GOAL_MS} ms`, met: v <= GOAL_MS });
  return [
    {
      name: `language requests on a ${LINES}-line file (${program.name}), each on a new version: the slowest request's p95, CPU time`,
      ratio: cpuP95,
      unit: 'ms (p95)',
      goal: goal(cpuP95),
      detail:
        `${COLD} edits per request, each request on a new version (its syntax tree and symbols built first), the CPU time this process spent: ` +
        `slowest ${cpuName}; p95 of each: ${list(r.coldCpu)}. Side by side, the parse of the same versions (validateAvap): p95 ${ms(parseCpu)}; ` +
        `the slowest request is ${(cpuP95 / Math.max(parseCpu, 0.001)).toFixed(2)} × the parse`,
    },
    {
      name: `… the same, wall time (the machine's 1-minute load average was ${load.toFixed(1)} on ${os.cpus().length} cores)`,
      ratio: wallP95,
      unit: 'ms (p95)',
      goal: goal(wallP95),
      detail:
        `slowest ${wallName}; p95 of each: ${list(r.cold)}. Side by side, the same file: validateAvap p95 ${ms(parseWall)} ` +
        `(median ${ms(median(r.validate))}), the syntax tree alone p95 ${ms(p95(r.syntax))} (median ${ms(median(r.syntax))}; ` +
        `read from scratch, nothing reused, as a file just opened: p95 ${ms(p95(r.fresh))}, median ${ms(median(r.fresh))}; ` +
        `the tree and its symbol index from scratch: CPU p95 ${ms(p95(r.freshIndexCpu))}), ` +
        `the server's diagnostics (validate + conversion) p95 ${ms(p95(r.diagnostics))}; the slowest request is ${(wallP95 / Math.max(parseWall, 0.001)).toFixed(2)} × the parse`,
    },
    {
      name: `… the requests after the first on a version (its analysis done), wall time: the slowest p95`,
      ratio: slowest(r.warm)[1],
      unit: 'ms (p95)',
      goal: goal(slowest(r.warm)[1]),
      detail: `${WARM} rounds: ${list(r.warm)}`,
    },
    {
      name: `avap lsp --stdio on the ${LINES}-line file (${program.name}): each request right after an edit, over JSON-RPC, the slowest p95 (wall)`,
      ratio: stdioP95,
      unit: 'ms (p95)',
      goal: goal(stdioP95),
      detail:
        `${OVER_STDIO} rounds, didChange (the full text) then the request, both ways over the child's stdio: slowest ${stdioName}; ${list(s.requests)}; ` +
        `edit → published diagnostics p95 ${ms(p95(s.diagnostics))} (median ${ms(median(s.diagnostics))}); ` +
        `spawn → initialize answered: median ${ms(median(s.initializeMs))} of ${s.initializeMs.length} starts (${s.initializeMs.map((v) => v.toFixed(0)).join(', ')} ms)`,
    },
    {
      name: `… the fix-all code action right after an edit (it needs the parser's verdict on that version), the p95 (wall)`,
      ratio: p95(s.fixAll),
      unit: 'ms (p95)',
      goal: goal(p95(s.fixAll)),
      detail:
        `${OVER_STDIO} rounds: p95 ${ms(p95(s.fixAll))} (median ${ms(median(s.fixAll))}); it validates the new version before it answers, ` +
        `so its floor is the parse: validateAvap in-process p95 ${ms(parseWall)} (median ${ms(median(r.validate))}), ` +
        `${(p95(s.fixAll) / Math.max(parseWall, 0.001)).toFixed(2)} × the parse`,
    },
  ];
}

export const languageSuite: BenchSuite = {
  name: 'language',
  async run(): Promise<BenchResult[]> {
    const { language, cleanup } = await loadBundle();
    try {
      const out: BenchResult[] = [];
      for (const program of benchPrograms()) {
        const lines = program.text.split('\n').length - 1;
        if (lines !== LINES) throw new Error(`${program.name} has ${lines} lines, not ${LINES}`);
        out.push(...report(program, measureInProcess(language, program), await measureOverStdio(language, program)));
      }
      return out;
    } finally {
      cleanup();
    }
  },
};

/**
 * Editor benchmarks, measured inside the real VS Code (code-server) by
 * test/e2e/bench/editor.bench.ts on the extension as the .vsix ships it (the
 * files vsce packs, with the production bundles): activation, and edit →
 * updated diagnostics on a 1 000-line document against the bare gRPC round
 * trip. Beside them, the bundle sizes and what loading each costs against the
 * parser bundle, in fresh Node processes. Installs the VS Code host when it is
 * missing (scripts/install-vscode-host.sh).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listFiles, PackageManager } from '@vscode/vsce';
import { median, type BenchResult, type BenchSuite } from '../types';

const ROOT = path.join(__dirname, '..', '..');
/** Fresh Node processes per bundle for the load cost (alternating, so drift hits every bundle alike). */
const LOAD_RUNS = 15;
/**
 * Fresh editors per bench run: activation happens once per editor, so one editor gives one sample. The figures
 * are medians over the editors (each value listed); the edit samples of every editor are pooled.
 */
const EDITOR_RUNS = Math.max(1, Number(process.env.AVAP_BENCH_EDITOR_RUNS ?? 3) || 3);

interface EditorRun {
  activateMs: number;
  readyMs: number;
  editSamplesMs: number[];
  directSamplesMs: number[];
  lines: number;
  activation?: { start: number; codeLoading: number; contextWait: number; activateCall: number };
  workbench?: { waitedMs: number; signal: string };
  warmupEdits?: number;
  wasActive?: boolean;
  /** The same document served by the language server through vscode-languageclient. */
  lspStartMs?: number;
  lspFirstDiagnosticsMs?: number;
  lspEditSamplesMs?: number[];
}

const list = (values: number[], digits = 0) => values.map((v) => v.toFixed(digits)).join(', ');

function p90(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))] ?? 0;
}

function run(command: string, args: string[], what: string): string {
  const result = spawnSync(command, args, {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 900_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.status !== 0)
    throw new Error(
      `${what} failed (exit ${result.status ?? result.signal}):\n${result.stdout ?? ''}\n${result.stderr ?? result.error?.message ?? ''}`,
    );
  return result.stdout;
}

/** The VS Code host, installed when missing (idempotent; progress goes to this terminal). */
function installVsCodeHost(): void {
  const result = spawnSync('bash', [path.join(ROOT, 'scripts', 'install-vscode-host.sh')], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 1_800_000,
  });
  if (result.status !== 0)
    throw new Error(
      `installing the VS Code host failed (exit ${result.status ?? result.signal}); see its message above, or run bash scripts/install-vscode-host.sh`,
    );
}

/** A copy of the extension as the .vsix ships it: what vsce packs, with the production bundles in its dist/. */
async function stageProductionExtension(dir: string): Promise<void> {
  for (const file of await listFiles({ cwd: ROOT, packageManager: PackageManager.None })) {
    if (file.startsWith('dist/') || file.startsWith(`dist${path.sep}`)) continue;
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    cpSync(path.join(ROOT, file), path.join(dir, file));
  }
  run(
    process.execPath,
    [path.join(ROOT, 'esbuild.config.mjs'), '--production', '--outdir', path.join(dir, 'dist')],
    'the production build',
  );
}

/** Milliseconds to require() each bundle in fresh Node processes, `runs` times each, interleaved. */
function loadCosts(files: Record<string, string>, runs: number): Record<string, number[]> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(files).map((name) => [name, []]));
  for (let i = 0; i < runs; i++) {
    for (const [name, file] of Object.entries(files)) {
      const ms = Number(
        run(process.execPath, [path.join(__dirname, 'loadBundle.mjs'), file], `loading ${name}`).trim(),
      );
      samples[name]?.push(ms);
    }
  }
  return samples;
}

const kb = (file: string) => `${(statSync(file).size / 1024).toFixed(0)} KB`;

export const editorSuite: BenchSuite = {
  name: 'editor',
  async run(): Promise<BenchResult[]> {
    installVsCodeHost();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'avap-bench-editor-'));
    const out = path.join(dir, 'bench.json');
    const extension = path.join(dir, 'extension');
    try {
      await stageProductionExtension(extension);
      const dist = (name: string) => path.join(extension, 'dist', `${name}.js`);
      const runs: EditorRun[] = [];
      for (let i = 0; i < EDITOR_RUNS; i++) {
        run(
          process.execPath,
          [
            path.join(ROOT, 'scripts', 'run-vscode-tests.mjs'),
            '--suite',
            'bench',
            '--bench-out',
            out,
            '--extension-path',
            extension,
          ],
          'the editor bench run',
        );
        runs.push(JSON.parse(readFileSync(out, 'utf8')) as EditorRun);
      }
      const of = <K extends keyof EditorRun>(key: K) => runs.map((r) => r[key]);
      const activateMs = median(of('activateMs'));
      const readyMs = median(of('readyMs'));
      const marks = runs.flatMap((r) => (r.activation ? [r.activation] : []));
      const a =
        marks.length > 0
          ? {
              start: median(marks.map((m) => m.start)),
              codeLoading: median(marks.map((m) => m.codeLoading)),
              contextWait: median(marks.map((m) => m.contextWait)),
              activateCall: median(marks.map((m) => m.activateCall)),
            }
          : undefined;
      const alreadyActive = runs.filter((r) => r.wasActive).length;
      const editors =
        `median of ${runs.length} fresh editor(s) (${list(of('activateMs'))} ms)` +
        (alreadyActive > 0
          ? ` — in ${alreadyActive} of them the extension was already active, so that figure measures nothing`
          : '');
      const workbenches = runs.flatMap((r) => (r.workbench ? [r.workbench] : []));
      const started =
        workbenches.length > 0
          ? `measured once the workbench had finished starting (${workbenches[0]?.signal ?? ''}, ${list(
              workbenches.map((w) => w.waitedMs / 1000),
              1,
            )} s after the suite began); `
          : '';
      const breakdown = a
        ? `the editor's marks (medians): started ${a.start} ms after the call, loading the code ${a.codeLoading} ms, waiting for the extension context ${a.contextWait} ms (its storage: a round trip to the workbench, which VS Code sends once the code has loaded), activate() ${a.activateCall} ms; `
        : '';
      const loads = loadCosts(
        {
          entry: dist('extension'),
          parser: dist('parser'),
          features: dist('editor-features'),
          connection: dist('parser-connection'),
          assistant: dist('assistant'),
        },
        LOAD_RUNS,
      );
      const load = (name: string) => median(loads[name] ?? []);
      const ratio = (name: string) => load(name) / Math.max(load('parser'), 0.001);
      const editSamples = runs.flatMap((r) => r.editSamplesMs);
      const directSamples = runs.flatMap((r) => r.directSamplesMs);
      const edit = { median: median(editSamples), p90: p90(editSamples) };
      const direct = { median: median(directSamples), p90: p90(directSamples) };
      const sizes =
        `production bundles (minified, no source maps): dist/extension.js ${kb(dist('extension'))}, ` +
        `dist/editor-features.js ${kb(dist('editor-features'))} (started right after activate() returns), ` +
        `dist/parser-connection.js ${kb(dist('parser-connection'))} (loaded by the features' first connect), ` +
        `dist/assistant.js ${kb(dist('assistant'))} (on first use); the parser bundle dist/parser.js ${kb(dist('parser'))}`;
      const lspRuns = runs.filter((r) => r.lspStartMs !== undefined);
      const lspEdits = lspRuns.flatMap((r) => r.lspEditSamplesMs ?? []);
      const lspStart = median(lspRuns.map((r) => r.lspStartMs ?? 0));
      const lspFirst = median(lspRuns.map((r) => r.lspFirstDiagnosticsMs ?? 0));
      const lsp =
        lspRuns.length === 0
          ? []
          : [
              {
                name: 'language features: in-process (as shipped) vs over the language server — what LSP would add to activation',
                ratio: lspStart,
                unit: 'ms (client start)',
                detail:
                  `vscode-languageclient starting dist/cli.js lsp --stdio (spawn, load, initialize), median of ${lspRuns.length} editor(s) ` +
                  `(${list(lspRuns.map((r) => r.lspStartMs ?? 0))} ms), then ${lspFirst.toFixed(0)} ms from opening the ${runs[0]?.lines ?? 0}-line document to its first published diagnostics; ` +
                  `in-process the features are registered by the editor features bundle, already started (services ready ${readyMs.toFixed(0)} ms after activate(), activate() itself ${activateMs.toFixed(1)} ms)`,
              },
              {
                name: `language features: edit → updated diagnostics over the language server vs in-process, ${runs[0]?.lines ?? 0}-line document`,
                ratio: p90(lspEdits) / Math.max(edit.p90, 0.001),
                unit: '× the in-process p90',
                detail:
                  `over LSP (the server validates in its own process; the extension's validation off meanwhile): median ${median(lspEdits).toFixed(1)} ms, p90 ${p90(lspEdits).toFixed(1)} ms over ${lspEdits.length} edits; ` +
                  `in-process path (the extension's parser connection): median ${edit.median.toFixed(1)} ms, p90 ${edit.p90.toFixed(1)} ms, measured in the same editors`,
              },
            ];
      return [
        {
          name: 'activation: activate() returns',
          ratio: activateMs,
          unit: 'ms',
          goal: { text: '≤ 50 ms', met: activateMs <= 50 },
          detail: `extension.activate() from the editor's API until it resolves, ${editors}, ${started}${breakdown}${sizes}`,
        },
        ...(a
          ? [
              {
                name: 'activation as VS Code reports it (loading the code + activate(), the Running Extensions figure)',
                ratio: a.codeLoading + a.activateCall,
                unit: 'ms',
                detail:
                  `from the editor's own marks: loading the code ${a.codeLoading} ms + activate() ${a.activateCall} ms; ` +
                  `not counted here, as VS Code does not count it: its wait for the extension context (${a.contextWait} ms) and before loading (${a.start} ms). ` +
                  'The goal above is held against the whole activate() call, which includes them.',
              },
            ]
          : []),
        {
          name: 'activation: services ready (the editor features started, the parser connection set up; the assistant loads on first use)',
          ratio: readyMs,
          unit: 'ms',
          goal: { text: '≤ 150 ms', met: readyMs <= 150 },
          detail: `from the activate() call, median of ${runs.length} fresh editor(s) (${list(of('readyMs'))} ms); activate() itself returned after ${activateMs.toFixed(1)} ms`,
        },
        {
          name: 'load cost: entry bundle vs parser bundle',
          ratio: ratio('entry'),
          unit: '× the parser bundle',
          detail:
            `require() in a fresh Node process, median of ${LOAD_RUNS}: dist/extension.js ${load('entry').toFixed(1)} ms, dist/parser.js ${load('parser').toFixed(1)} ms; ` +
            `after activation: dist/editor-features.js ${load('features').toFixed(1)} ms (${ratio('features').toFixed(1)} ×), dist/parser-connection.js ${load('connection').toFixed(1)} ms (${ratio('connection').toFixed(1)} ×); ` +
            `on first use: dist/assistant.js ${load('assistant').toFixed(1)} ms (${ratio('assistant').toFixed(1)} ×)`,
        },
        {
          name: `edit → updated diagnostics, ${runs[0]?.lines ?? 0}-line document (debounce 0)`,
          ratio: edit.p90,
          unit: 'ms (p90)',
          goal: { text: 'p90 ≤ 100 ms', met: edit.p90 <= 100 },
          detail:
            `${started}after ${list(runs.map((r) => r.warmupEdits ?? Number.NaN))} untimed warm-up edits in the ${runs.length} editor(s) (until the workbench applied 5 edits in a row within 25 ms: it lays out the freshly opened document first); ` +
            `median ${edit.median.toFixed(1)} ms, p90 ${edit.p90.toFixed(1)} ms over ${editSamples.length} edits; ` +
            `bare gRPC Validate of the same text: median ${direct.median.toFixed(1)} ms, p90 ${direct.p90.toFixed(1)} ms ` +
            `(the editor path is ${(edit.median / Math.max(direct.median, 0.001)).toFixed(1)} × the round trip at the median; ` +
            'the editor reports diagnostics changes in batches of up to 50 ms)',
        },
        ...lsp,
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

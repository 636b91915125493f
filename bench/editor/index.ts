/**
 * Editor benchmarks, measured inside the real VS Code (code-server) by
 * test/e2e/bench/editor.bench.ts: activation time, and edit → updated
 * diagnostics on a 1 000-line document against the bare gRPC round trip.
 * Needs `npm run build` (bench does it) and the VS Code host in .tools/
 * (scripts/install-vscode-host.sh).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median, type BenchResult, type BenchSuite } from '../types';

const ROOT = path.join(__dirname, '..', '..');

function p90(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))] ?? 0;
}

export const editorSuite: BenchSuite = {
  name: 'editor',
  async run(): Promise<BenchResult[]> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'avap-bench-editor-'));
    const out = path.join(dir, 'bench.json');
    try {
      const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'run-vscode-tests.mjs'), '--suite', 'bench', '--bench-out', out], {
        cwd: ROOT, encoding: 'utf8', timeout: 600_000,
      });
      if (run.status !== 0) throw new Error(`the editor bench run failed:\n${run.stdout}\n${run.stderr}`);
      const data = JSON.parse(readFileSync(out, 'utf8')) as {
        activateMs: number; readyMs: number; editSamplesMs: number[]; directSamplesMs: number[]; lines: number;
      };
      const edit = median(data.editSamplesMs);
      const direct = median(data.directSamplesMs);
      return [
        {
          name: 'activation (activate() → parser and assistant ready)',
          ratio: data.readyMs,
          unit: 'ms',
          detail: `activate() returned after ${data.activateMs.toFixed(1)} ms; services ready after ${data.readyMs.toFixed(1)} ms`,
        },
        {
          name: `edit → updated diagnostics, ${data.lines}-line document (debounce 0)`,
          ratio: edit,
          unit: 'ms (median)',
          goal: { text: '≤ 100 ms', met: edit <= 100 },
          detail: `p90 ${p90(data.editSamplesMs).toFixed(1)} ms over ${data.editSamplesMs.length} edits; bare gRPC Validate of the same text ${direct.toFixed(1)} ms `
            + `(the editor path is ${(edit / Math.max(direct, 0.001)).toFixed(2)} × the round trip)`,
        },
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

/**
 * `npm run bench`: every benchmark of the project, measured in one run on this
 * machine, printed as ratios (absolute times on shared machines are noise;
 * ratios measured side by side are not). Tests never assert on speed.
 */
import os from 'node:os';
import { BENCH_SUITES } from './suites';
import type { BenchResult } from './types';

function line(result: BenchResult): string {
  const ratio = result.unit.startsWith('%') ? result.ratio.toFixed(1) : result.ratio.toFixed(2);
  const goal = result.goal ? `  [goal ${result.goal.text}: ${result.goal.met ? 'met' : 'NOT met'}]` : '';
  return `${result.name}: ${ratio} ${result.unit}${goal}\n    ${result.detail}`;
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  process.stdout.write(
    `AVAP Assistant benchmarks — node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}\n\n`,
  );
  let failed = false;
  for (const suite of BENCH_SUITES) {
    if (only.length > 0 && !only.includes(suite.name)) continue;
    process.stdout.write(`## ${suite.name}\n`);
    try {
      for (const result of await suite.run()) process.stdout.write(`${line(result)}\n`);
    } catch (err) {
      failed = true;
      process.stdout.write(`  suite failed: ${err instanceof Error ? err.message : String(err)}\n`);
    }
    process.stdout.write('\n');
  }
  process.exitCode = failed ? 1 : 0;
}

void main();

/**
 * The interpreter and the syntax tree, in process — the sandbox's
 * pool, the database and /v1/execute are measured by the runtime suite
 * (bench/runtime/index.ts):
 *  1. runs per second of a 10-line script (compiled once, cached by its text)
 *     on one core, against the 20,000 runs/s the pool must reach on two;
 *  2. what the compile cache saves: a run of a text never seen against a run
 *     of a cached one, measured in the same interleaved rounds;
 *  3. the syntax tree of a 1,000-line file, as an editor asks for it on every
 *     keystroke (a new text each time), against its 10 ms budget (p95).
 * The code is the esbuild bundle of src/runtime and src/syntax (as a host
 * loads it), not the TypeScript sources under tsx.
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type * as RuntimeModule from '../../src/runtime';
import type * as SyntaxModule from '../../src/syntax';
import { bundledModule } from '../bundle';
import { median, sample, type BenchResult, type BenchSuite } from '../types';

const ROOT = path.join(__dirname, '..', '..');

const TEN_LINES = [
  'addParam(limit, n)',
  'addVar(total, 0)',
  'startLoop(i, 1, n)',
  '  total = total + i * 2',
  'endLoop()',
  'if(total, 20, >)',
  '  addVar(size, "big")',
  'end()',
  'label = "total-" + str(total)',
  'addResult(label)',
].join('\n');

function ports(): RuntimeModule.RuntimePorts {
  const refuse = () => Promise.reject(new Error('no I/O in this benchmark'));
  return {
    http: { fetch: refuse },
    db: { query: refuse },
    clock: { now: () => 0 },
    random: { next: () => 0.5 },
  };
}

const REQUEST: RuntimeModule.RunRequest = { method: 'GET', query: { limit: '4' }, headers: {}, body: undefined };
const LIMITS: RuntimeModule.RunLimits = { maxSteps: 10_000 };

async function throughput(runtime: typeof RuntimeModule): Promise<BenchResult[]> {
  const p = ports();
  const check = await runtime.execute(TEN_LINES, REQUEST, p, LIMITS);
  if (check.error || check.result.label !== 'total-20')
    throw new Error(`the benchmark script misbehaves: ${JSON.stringify(check)}`);
  const batch = 2000;
  const perRun: number[] = [];
  for (let round = 0; round < 15; round++) {
    const samples = await sample(
      async () => {
        for (let i = 0; i < batch; i++) await runtime.execute(TEN_LINES, REQUEST, p, LIMITS);
      },
      1,
      round === 0 ? 3 : 0,
    );
    perRun.push((samples[0] as number) / batch);
  }
  const ms = median(perRun);
  const rate = 1000 / ms;
  const cached: number[] = [];
  const fresh: number[] = [];
  let n = 0;
  for (let round = 0; round < 15; round++) {
    cached.push(...(await sample(() => runtime.execute(TEN_LINES, REQUEST, p, LIMITS), 200, round === 0 ? 50 : 0)));
    fresh.push(...(await sample(() => runtime.execute(`${TEN_LINES}\n// ${n++}`, REQUEST, p, LIMITS), 200, 0)));
  }
  const cachedMs = median(cached);
  const freshMs = median(fresh);
  return [
    {
      name: 'runtime: a 10-line script, in process on one core',
      ratio: rate / 20_000,
      unit: '× the 20,000 runs/s the pool needs on two cores',
      goal: { text: '≥ 1× on one core (the pool adds messaging and the second core)', met: rate >= 20_000 },
      detail: `${Math.round(rate).toLocaleString('en')} runs/s, ${(ms * 1000).toFixed(1)} µs per run (median of 15 batches of ${batch})`,
    },
    {
      name: 'runtime: what the compile cache saves',
      ratio: freshMs / cachedMs,
      unit: '× faster with the program cached',
      detail: `new text ${(freshMs * 1000).toFixed(1)} µs, cached ${(cachedMs * 1000).toFixed(1)} µs per run (medians)`,
    },
  ];
}

function thousandLines(): string {
  const dir = path.join(ROOT, 'test', 'corpus', 'valid');
  const corpus = readdirSync(dir)
    .filter((f) => f.endsWith('.avap'))
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .join('\n');
  let text = corpus;
  while (text.split('\n').length < 1000) text += `\n${corpus}`;
  return text.split('\n').slice(0, 1000).join('\n');
}

async function syntaxTree(syntax: typeof SyntaxModule): Promise<BenchResult[]> {
  const text = thousandLines();
  let n = 0;
  // Each keystroke is a new text: the cache cannot help, the tree is built.
  const times = await sample(() => syntax.parseSyntax(`${text}\n// keystroke ${n++}`), 400, 100);
  const sorted = [...times].sort((a, b) => a - b);
  const p95 = sorted[Math.floor(sorted.length * 0.95)] as number;
  const p50 = median(times);
  return [
    {
      name: 'syntax tree: a 1,000-line file per keystroke',
      ratio: 10 / p95,
      unit: '× inside the 10 ms p95 budget',
      goal: { text: 'p95 ≤ 10 ms', met: p95 <= 10 },
      detail:
        `p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms over 400 new texts of ${text.length.toLocaleString('en')} characters ` +
        `(load average ${os.loadavg()[0]?.toFixed(1) ?? '?'} on ${os.cpus().length} cores: the tail is garbage collection, which a loaded machine stretches)`,
    },
  ];
}

export const interpreterSuite: BenchSuite = {
  name: 'interpreter',
  run: async () => {
    const runtime = bundledModule<typeof RuntimeModule>('src/runtime/index.ts');
    const syntax = bundledModule<typeof SyntaxModule>('src/syntax/index.ts');
    return [...(await throughput(runtime)), ...(await syntaxTree(syntax))];
  },
};

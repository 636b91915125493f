/**
 * The adversarial shapes (shapes.ts) measured in a process of its own, started by the parser suite (index.ts),
 * which reads the figures as JSON from its stdout. Alone, for the reason unseenMain.ts gives: in the suite's process
 * the earlier benchmarks leave a large heap (the 515 KiB program's createSourceFile trees), and the collector's work
 * through it — a fifth of F5's time there, against a twentieth alone — was counted to whichever validation ran then.
 * Each shape and a plain valid program of the same size are timed side by side (rounds.ts: CPU time, shuffled
 * rounds, an untimed call before each timed one), as the service meets them: one validation after another.
 */
import path from 'node:path';
import type * as ParserModule from '../../src/parser';
import { REPO_ROOT } from '../../test/support/parserProcess';
import { plainProgram } from './programs';
import { interleavedCpu } from './rounds';
import { adversarialShapes, type Shape } from './shapes';

// The parser as shipped (dist/parser.js), as the rest of the suite measures it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { validateAvap } = require(path.join(REPO_ROOT, 'dist', 'parser.js')) as typeof ParserModule;

/** One shape at one size against a plain program of the same length: milliseconds per validation of each. */
export interface ShapeFigure {
  name: string;
  /** F5, the shape whose ratio has a goal at every size. */
  f5: boolean;
  heldOut: boolean;
  /** The size asked for, in bytes (F5's reported sizes; 24 KB for the others). */
  size: number;
  bytes: number;
  plainBytes: number;
  shapeMs: number;
  plainMs: number;
  findings: number;
  provenFixes: number;
}

/** `shape` built to about `bytes`, and a plain valid program of the same length. */
function sameSize(shape: Shape, bytes: number): { adversarial: string; plain: string } {
  const unit = shape.build(1).length;
  const adversarial = shape.build(Math.max(1, Math.round(bytes / unit)));
  const plain = plainProgram(adversarial.length);
  if (!validateAvap(plain).valid) throw new Error('the plain program is not valid AVAP');
  return { adversarial, plain };
}

async function measure(shape: Shape, size: number, f5: boolean): Promise<ShapeFigure> {
  const { adversarial, plain } = sameSize(shape, size);
  const findings = validateAvap(adversarial).trace;
  // Enough validations per timed call that a call takes a few milliseconds (CPU time is counted in microseconds).
  const calls = Math.max(3, Math.min(40, Math.round(400_000 / adversarial.length)));
  const times = await interleavedCpu(
    {
      shape: () => {
        for (let i = 0; i < calls; i++) validateAvap(adversarial);
      },
      plain: () => {
        for (let i = 0; i < calls; i++) validateAvap(plain);
      },
    },
    { rounds: 15 },
  );
  return {
    name: shape.name,
    f5,
    heldOut: shape.heldOut === true,
    size,
    bytes: Buffer.byteLength(adversarial),
    plainBytes: Buffer.byteLength(plain),
    shapeMs: times.shape / calls,
    plainMs: times.plain / calls,
    findings: findings.length,
    provenFixes: findings.filter((e) => e.fix).length,
  };
}

async function main(): Promise<ShapeFigure[]> {
  const [f5, ...others] = adversarialShapes();
  if (!f5) return [];
  const figures: ShapeFigure[] = [];
  // The reported sizes: 9.4 KB took 1.9 s, 23.8 KB 7.1 s, 242 KB 24.7 s.
  for (const size of [9.4 * 1000, 23.8 * 1000, 242 * 1000]) figures.push(await measure(f5, size, true));
  for (const shape of others) figures.push(await measure(shape, 24 * 1000, false));
  return figures;
}

void main().then(
  (figures) => process.stdout.write(`${JSON.stringify(figures)}\n`),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);

/**
 * The 1,000-line programs the language benchmark measures, and the places in
 * them each request is asked about. Two programs: `tuned`, from the valid
 * corpus (the one looked at while making the features fast), and `held-out`,
 * from the invalid and failure corpora (never looked at while tuning: invalid
 * code, foreign syntax, unclosed blocks), so a figure that holds on one only
 * is seen.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const CORPUS = path.join(__dirname, '..', '..', 'test', 'corpus');
export const LINES = 1000;

function files(dirs: readonly string[]): string[] {
  return dirs.flatMap((dir) =>
    readdirSync(path.join(CORPUS, dir))
      .filter((f) => f.endsWith('.avap'))
      .sort()
      .map((f) => readFileSync(path.join(CORPUS, dir, f), 'utf8').replace(/\n+$/, '')),
  );
}

/** Whole files, repeated, up to LINES − 1 lines; padding; and a last line the benchmark edits (`// edit N`). */
function build(dirs: readonly string[]): string {
  const units = files(dirs);
  const lines: string[] = [];
  for (let i = 0; ; i++) {
    const unit = (units[i % units.length] as string).split('\n');
    if (lines.length + unit.length > LINES - 1) break;
    lines.push(...unit);
  }
  for (let n = 0; lines.length < LINES - 1; n++) lines.push(`addVar(pad${n}, ${n})`);
  lines.push('// edit 0');
  return `${lines.join('\n')}\n`;
}

export interface BenchProgram {
  readonly name: 'tuned' | 'held-out';
  readonly text: string;
  /** The same program after edit number `n` (a new text, so nothing cached by text is reused). */
  readonly edited: (n: number) => string;
}

export function benchPrograms(): BenchProgram[] {
  const make = (name: BenchProgram['name'], dirs: readonly string[]): BenchProgram => {
    const text = build(dirs);
    return { name, text, edited: (n) => text.replace(/\/\/ edit 0\n$/, `// edit ${n}\n`) };
  };
  return [make('tuned', ['valid']), make('held-out', ['invalid', 'failures'])];
}

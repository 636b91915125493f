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

/** The line the benchmark edits, at edit number `n`: its length changes from one edit to the next. */
const editLine = (n: number) => `// edit ${n}${' +'.repeat(n % 5)}`;

/**
 * Whole files, repeated, up to LINES − 1 lines; padding; and, between two whole files near the middle, the line
 * the benchmark edits — as a person types in the middle of a file: the lines before the edit stand where they
 * stood, the ones after it move (the syntax tree reuses both, src/syntax/reuse.ts; the symbols are read again).
 */
function build(dirs: readonly string[]): { before: string; after: string } {
  const units = files(dirs);
  const lines: string[] = [];
  let middle = -1;
  for (let i = 0; ; i++) {
    const unit = (units[i % units.length] as string).split('\n');
    if (lines.length + unit.length > LINES - 1) break;
    if (middle < 0 && lines.length + unit.length > LINES / 2) middle = lines.length;
    lines.push(...unit);
  }
  for (let n = 0; lines.length < LINES - 1; n++) lines.push(`addVar(pad${n}, ${n})`);
  if (middle < 0) middle = lines.length;
  return { before: lines.slice(0, middle).join('\n'), after: `${lines.slice(middle).join('\n')}\n` };
}

export interface BenchProgram {
  readonly name: 'tuned' | 'held-out';
  readonly text: string;
  /**
   * The same program after edit number `n`: a new text (nothing cached by text is reused), the edited line near
   * the middle a different length each time, so every line after it moves.
   */
  readonly edited: (n: number) => string;
  /** The 0-based line that is edited. */
  readonly editedLine: number;
}

export function benchPrograms(): BenchProgram[] {
  const make = (name: BenchProgram['name'], dirs: readonly string[]): BenchProgram => {
    const { before, after } = build(dirs);
    const edited = (n: number) => `${before}\n${editLine(n)}\n${after}`;
    return { name, text: edited(0), edited, editedLine: before.split('\n').length };
  };
  return [make('tuned', ['valid']), make('held-out', ['invalid', 'failures'])];
}

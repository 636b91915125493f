/**
 * The throughput corpus the parser was not tuned on (issue 30): the knowledge
 * base's programs — the few-shot pool's examples, the golden set's reference
 * answers, every ```avap block of the documentation — and seeded generated
 * endpoints of realistic shape (bench/parser/generated.ts). Only valid
 * programs are kept (the docs show some invalid code on purpose); the make-up
 * is printed with the figures.
 */
import { avapCodeBlocks, knowledgeDirectory, loadDocs, loadExamplePool, loadGoldenSet } from '../../src/knowledge';
import type * as ParserModule from '../../src/parser';
import { generatedEndpoints } from './generated';

interface CorpusPart {
  label: string;
  programs: string[];
  /** Programs of the source left out because they are not valid AVAP. */
  leftOut: number;
}

interface UnseenCorpus {
  parts: CorpusPart[];
  programs: string[];
  bytes: number;
}

/** Seed and size of the generated part: about as many bytes as the knowledge base's programs together, twice. */
const GENERATED_SEED = 30;
const GENERATED_COUNT = 80;

function loaded<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

function unseenCorpus(validateAvap: typeof ParserModule.validateAvap): UnseenCorpus {
  const dir = loaded(knowledgeDirectory());
  const sources: { label: string; programs: string[] }[] = [
    { label: 'pool examples', programs: loaded(loadExamplePool(dir)).examples.map((e) => e.code) },
    {
      label: 'golden reference answers',
      programs: loaded(loadGoldenSet(dir)).entries.flatMap((e) => (e.referenceCode ? [e.referenceCode] : [])),
    },
    {
      label: 'documentation code blocks',
      programs: loaded(loadDocs(dir)).flatMap((d) => avapCodeBlocks(d.body).map((b) => b.code)),
    },
    {
      label: `generated endpoints (seed ${GENERATED_SEED})`,
      programs: generatedEndpoints(GENERATED_SEED, GENERATED_COUNT),
    },
  ];
  const parts = sources.map(({ label, programs }) => {
    const valid = programs.filter((p) => p.trim() !== '' && validateAvap(p).valid);
    return { label, programs: valid, leftOut: programs.length - valid.length };
  });
  const programs = parts.flatMap((p) => p.programs);
  return { parts, programs, bytes: programs.reduce((n, p) => n + Buffer.byteLength(p), 0) };
}

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

function makeUp(corpus: UnseenCorpus): string {
  const parts = corpus.parts.map((p) => {
    const bytes = p.programs.reduce((n, x) => n + Buffer.byteLength(x), 0);
    const lines = p.programs.reduce((n, x) => n + x.split('\n').length, 0);
    const left = p.leftOut > 0 ? `, ${p.leftOut} invalid left out` : '';
    return `${p.programs.length} ${p.label} (${kib(bytes)}, ${lines} lines${left})`;
  });
  return `${corpus.programs.length} programs, ${kib(corpus.bytes)}: ${parts.join('; ')}`;
}

/**
 * The corpus as one file: its programs one after another, each program's
 * functions renamed with the program's number so that no name is defined twice.
 */
function oneFile(corpus: UnseenCorpus): string {
  return corpus.programs
    .map((program, i) => {
      let text = program;
      for (const m of program.matchAll(/^\s*function\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(/gm)) {
        const name = m[1] as string;
        text = text.replace(new RegExp(`\\b${name}\\b`, 'g'), `${name}_${i}`);
      }
      return text.endsWith('\n') ? text : `${text}\n`;
    })
    .join('');
}

export interface Contenders {
  validateAvap: typeof ParserModule.validateAvap;
  createSourceFile: (text: string) => unknown;
  floor: (text: string) => number;
}

/** Median milliseconds per pass of each contender over `inputs`, in interleaved rounds. */
async function passes(
  inputs: readonly string[],
  c: Contenders,
  rounds: number,
): Promise<{ ours: number; ts: number; floor: number }> {
  const ours: number[] = [];
  const ts: number[] = [];
  const floor: number[] = [];
  const time = (fn: () => void): number => {
    const start = process.hrtime.bigint();
    fn();
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  let sink = 0;
  for (let round = 0; round < rounds; round++) {
    const repeat = round === 0 ? 2 : 1; // the first round warms every side up, untimed
    for (let r = 0; r < repeat; r++) {
      const a = time(() => {
        for (const text of inputs) sink += c.validateAvap(text).trace.length;
      });
      const b = time(() => {
        for (const text of inputs) c.createSourceFile(text);
      });
      const f = time(() => {
        for (const text of inputs) sink += c.floor(text);
      });
      if (round > 0 || r > 0) {
        ours.push(a);
        ts.push(b);
        floor.push(f);
      }
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (sink < 0) throw new Error('unreachable');
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? 0;
  return { ours: median(ours), ts: median(ts), floor: median(floor) };
}

export interface UnseenFigures {
  makeUp: string;
  /** Each program validated on its own, as the service sees answers. */
  byProgram: { ours: number; ts: number; floor: number; bytes: number };
  /** The corpus as one file. */
  oneFile: { ours: number; ts: number; floor: number; bytes: number };
}

export async function measureUnseen(c: Contenders): Promise<UnseenFigures> {
  const corpus = unseenCorpus(c.validateAvap);
  const file = oneFile(corpus);
  const check = c.validateAvap(file);
  if (!check.valid) throw new Error('the unseen corpus as one file is not valid AVAP');
  const byProgram = await passes(corpus.programs, c, 15);
  const whole = await passes([file], c, 15);
  return {
    makeUp: makeUp(corpus),
    byProgram: { ...byProgram, bytes: corpus.bytes },
    oneFile: { ...whole, bytes: Buffer.byteLength(file) },
  };
}

/**
 * The throughput corpus the parser was not tuned on: the knowledge
 * base's programs — the few-shot pool's examples, the golden set's reference
 * answers, every ```avap block of the documentation — and seeded generated
 * endpoints of realistic shape (bench/parser/generated.ts). Only valid
 * programs are kept (the docs show some invalid code on purpose); the make-up
 * is printed with the figures.
 *
 * Held out: a second corpus the parser's speed work never profiled or tuned
 * on — the repository's own programs outside the knowledge base (the shipped
 * examples, the reference-fact programs, the intended programs of the fix-its'
 * held-out set) and generated endpoints of another seed — measured the same
 * way and reported beside it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { avapCodeBlocks, knowledgeDirectory, loadDocs, loadExamplePool, loadGoldenSet } from '../../src/knowledge';
import type * as ParserModule from '../../src/parser';
import { interleavedCpu } from './rounds';
import { generatedEndpoints } from './generated';

interface CorpusPart {
  label: string;
  programs: string[];
  /** Programs of the source left out because they are not valid AVAP. */
  leftOut: number;
}

export interface UnseenCorpus {
  parts: CorpusPart[];
  programs: string[];
  bytes: number;
}

/** Seed and size of the generated part: about as many bytes as the knowledge base's programs together, twice. */
const GENERATED_SEED = 30;
const GENERATED_COUNT = 80;
/** The held-out corpus' generated part: another seed, never profiled on. */
const HELD_OUT_SEED = 31;

function loaded<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

const REPO = path.join(__dirname, '..', '..');

/** The .avap files of a folder of the repository, in name order. */
function avapFiles(folder: string): string[] {
  const dir = path.join(REPO, folder);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.avap'))
    .sort()
    .map((f) => readFileSync(path.join(dir, f), 'utf8'));
}

/** The valid programs of each source, the invalid ones counted. */
function corpusOf(
  validateAvap: typeof ParserModule.validateAvap,
  sources: { label: string; programs: string[] }[],
): UnseenCorpus {
  const parts = sources.map(({ label, programs }) => {
    const valid = programs.filter((p) => p.trim() !== '' && validateAvap(p).valid);
    return { label, programs: valid, leftOut: programs.length - valid.length };
  });
  const programs = parts.flatMap((p) => p.programs);
  return { parts, programs, bytes: programs.reduce((n, p) => n + Buffer.byteLength(p), 0) };
}

/** The corpus never profiled on: the repository's programs outside the knowledge base, and another seed's endpoints. */
function heldOutCorpus(validateAvap: typeof ParserModule.validateAvap): UnseenCorpus {
  return corpusOf(validateAvap, [
    { label: 'shipped examples', programs: avapFiles('examples') },
    { label: 'reference-fact programs', programs: avapFiles(path.join('docs', 'facts', 'reference')) },
    {
      label: "intended programs of the fix-its' held-out set",
      programs: avapFiles(path.join('test', 'corpus', 'held-out', 'intended')),
    },
    {
      label: `generated endpoints (seed ${HELD_OUT_SEED})`,
      programs: generatedEndpoints(HELD_OUT_SEED, GENERATED_COUNT),
    },
  ]);
}

export function unseenCorpus(validateAvap: typeof ParserModule.validateAvap): UnseenCorpus {
  const dir = loaded(knowledgeDirectory());
  return corpusOf(validateAvap, [
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
  ]);
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
  /**
   * The parser's scanner alone over every line, as the analysis reads them (no statement analysis, no guard):
   * where the time of a validation goes — what is left is the checking itself. Returns a count of tokens.
   */
  scanOnly: (text: string) => number;
  /** The plain reader's tokenizer alone over every line, as shipped (analysis/plainTokens.ts): the bound of its design. */
  readOnly: (text: string) => number;
}

/** Milliseconds per pass of each contender: the validation as shipped, the same without fix proofs (parsing and
 * analysis only, what createSourceFile's side does), TypeScript, the floor and the parser's scanner alone. */
interface Pass {
  ours: number;
  parseOnly: number;
  ts: number;
  floor: number;
  scanOnly: number;
  readOnly: number;
}

/** Milliseconds per pass of each contender over `inputs` (rounds.ts says how they are measured side by side). */
/**
 * Untimed calls of each contender before the rounds: the held-out corpus' few programs with a warning run the fix
 * proofs, whose code the engine compiles only after some hundred calls — with 25 rounds and no warm-up the
 * validation's median there measured that warm-up (2.7–3.5 ms where a warm pass takes 2.1).
 */
const WARMUP = 40;

async function passes(inputs: readonly string[], c: Contenders, rounds: number): Promise<Pass> {
  let sink = 0;
  const figures = await interleavedCpu<keyof Pass>(
    {
      ours: () => {
        for (const text of inputs) sink += c.validateAvap(text).trace.length;
      },
      parseOnly: () => {
        for (const text of inputs) sink += c.validateAvap(text, { maxFixProofs: 0 }).trace.length;
      },
      ts: () => {
        for (const text of inputs) c.createSourceFile(text);
      },
      floor: () => {
        for (const text of inputs) sink += c.floor(text);
      },
      scanOnly: () => {
        for (const text of inputs) sink += c.scanOnly(text);
      },
      readOnly: () => {
        for (const text of inputs) sink += c.readOnly(text);
      },
    },
    { rounds, warmup: WARMUP },
  );
  if (sink < 0) throw new Error('unreachable');
  return figures;
}

interface CorpusFigures {
  makeUp: string;
  /** Each program validated on its own, as the service sees answers. */
  byProgram: Pass & { bytes: number };
  /** The corpus as one file. */
  oneFile: Pass & { bytes: number; findings: number };
}

export interface UnseenFigures {
  /** The unseen corpus (the one the speed work profiled). */
  tuned: CorpusFigures;
  /** The corpus it never profiled on. */
  heldOut: CorpusFigures;
}

async function measureCorpus(corpus: UnseenCorpus, c: Contenders, label: string): Promise<CorpusFigures> {
  const file = oneFile(corpus);
  const check = c.validateAvap(file);
  if (!check.valid) throw new Error(`the ${label} corpus as one file is not valid AVAP`);
  const byProgram = await passes(corpus.programs, c, 25);
  const whole = await passes([file], c, 25);
  return {
    makeUp: makeUp(corpus),
    byProgram: { ...byProgram, bytes: corpus.bytes },
    oneFile: { ...whole, bytes: Buffer.byteLength(file), findings: check.trace.length },
  };
}

export async function measureUnseen(c: Contenders): Promise<UnseenFigures> {
  return {
    tuned: await measureCorpus(unseenCorpus(c.validateAvap), c, 'unseen'),
    heldOut: await measureCorpus(heldOutCorpus(c.validateAvap), c, 'held-out'),
  };
}

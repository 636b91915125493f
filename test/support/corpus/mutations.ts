/**
 * Mutations of valid AVAP programs: the slips models make, applied
 * to programs that are known to be right, so the intended program of every
 * mutant is known — it is the program before the slip — and, where the seed
 * came with run cases, so is the answer its repair must give.
 *
 * Deterministic: a mutant depends only on the seed program, the kind and the
 * generator's seed (a PRNG per program and kind picks the site). The generator
 * reads lines with its own small patterns and knows nothing of the parser's
 * fix code, so the fixes cannot be shaped by it beyond what a kind says.
 *
 * Kinds — each returns undefined when the program has no site for it:
 *   drop-closer      an end() / endLoop() left out
 *   stray-closer     an end() / endLoop() written twice
 *   python-loop      startLoop(i, a, b) … endLoop() as `for i in range(a, b + 1):` with an indented body
 *   js-loop          … as `for (let i = a; i <= b; i++) {` … `}`
 *   go-loop          … as `for i := a; i <= b; i++ {` … `}`
 *   list-walk        getListLen + startLoop + itemFromList as a loop over the list: Python `for x in xs:`,
 *                    `foreach (x in xs) {`, `for (const x of xs) {`, `for x in xs` … endLoop(), `startLoop(x, xs)`
 *   print-form       addResult(x) as print(x), console.log(x) or fmt.Println(x)
 *   arity-empties    RequestGet(u, , , t) / RequestPost(u, "", "", b, t) without the empty arguments
 *   arity-target     addParam("k", k) / variableFromJSON(o, "k", k) without the target named like the key
 *   arity-drop       one argument of a command left out (often no repair keeps the meaning: none may be offered)
 *   unclosed-string  the closing quote of the last string on a line left out
 *   unclosed-call    the closing parenthesis of a statement's call left out
 *   case-change      a command name in the wrong case (addvar, AddResult)
 *   hash-comment     a // comment written with #
 *   semicolons       a ; after every statement
 *   js-if            if(a, b, op) … else() … end() as `if (a op b) {` … `} else {` … `}`
 *   declaration      an assignment declared with let / const / var
 */

import { prng, type Rng } from '../random';
export type MutationKind =
  | 'drop-closer'
  | 'stray-closer'
  | 'python-loop'
  | 'js-loop'
  | 'go-loop'
  | 'list-walk'
  | 'print-form'
  | 'arity-empties'
  | 'arity-target'
  | 'arity-drop'
  | 'unclosed-string'
  | 'unclosed-call'
  | 'case-change'
  | 'hash-comment'
  | 'semicolons'
  | 'js-if'
  | 'declaration';

export const MUTATION_KINDS: readonly MutationKind[] = [
  'drop-closer',
  'stray-closer',
  'python-loop',
  'js-loop',
  'go-loop',
  'list-walk',
  'print-form',
  'arity-empties',
  'arity-target',
  'arity-drop',
  'unclosed-string',
  'unclosed-call',
  'case-change',
  'hash-comment',
  'semicolons',
  'js-if',
  'declaration',
];

/** A valid program to mutate, with the run cases it came with (its answers are the intended ones). */
export interface MutationSeed<C = unknown> {
  id: string;
  source: string;
  cases?: readonly C[];
}

export interface Mutant<C = unknown> {
  /** `<seed id>~<kind>`. */
  id: string;
  kind: MutationKind;
  seed: MutationSeed<C>;
  source: string;
}

/** FNV-1a of a text: a stable number per program and kind. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const pick = <T>(rng: Rng, items: readonly T[]): T | undefined =>
  items.length === 0 ? undefined : items[Math.floor(rng() * items.length)];

const IDENT = '[A-Za-z_][A-Za-z0-9_]*';
const PLAIN = `(?:${IDENT}|-?\\d+)`;
const indentOf = (line: string) => /^[ \t]*/.exec(line)?.[0] ?? '';
const trimmed = (line: string) => line.trim();

/** A program's lines, with the block structure read from its openers and closers. */
class Lines {
  readonly lines: string[];
  readonly eol: string;

  constructor(source: string) {
    this.eol = source.includes('\r\n') ? '\r\n' : '\n';
    this.lines = source.split(/\r?\n/);
  }

  text(lines: readonly string[] = this.lines): string {
    return lines.join(this.eol);
  }

  /** Index of the closer that ends the block opened on line `open`, or -1. */
  closerOf(open: number): number {
    let depth = 0;
    for (let i = open; i < this.lines.length; i++) {
      const t = trimmed(this.lines[i] as string);
      if (/^(?:if|startLoop|try|go_async)\s*\(/.test(t)) depth++;
      else if (/^(?:end|endLoop)\s*\(\s*\)\s*$/.test(t)) {
        depth--;
        if (depth === 0) return i;
      }
    }
    return -1;
  }

  /** Indices of the lines matching `re` (on their trimmed text). */
  where(re: RegExp): number[] {
    const out: number[] = [];
    this.lines.forEach((line, i) => {
      if (re.test(trimmed(line))) out.push(i);
    });
    return out;
  }
}

/** The body lines (open, close) exclusive, indented one level deeper when they are not already. */
function indentedBody(lines: readonly string[], open: number, close: number, unit = '    '): string[] {
  const header = indentOf(lines[open] as string);
  const body = lines.slice(open + 1, close);
  const deeper = body.every((l) => l.trim() === '' || indentOf(l).length > header.length);
  return deeper ? body : body.map((l) => (l.trim() === '' ? l : `${unit}${l}`));
}

const CALL_LINE = new RegExp(`^(\\s*)(${IDENT})\\((.*)\\)(\\s*)$`);

/** Top-level commas of an argument list (quotes and brackets protect theirs). */
function splitArgs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      out.push(text.slice(from, i));
      from = i + 1;
    }
  }
  out.push(text.slice(from));
  return out.map((a) => a.trim());
}

const COMMANDS = [
  'addVar',
  'addResult',
  'addParam',
  'getListLen',
  'itemFromList',
  'variableToList',
  'variableFromJSON',
  'AddvariableToJSON',
  'encodeSHA256',
  'encodeMD5',
  'getDateTime',
  'RequestGet',
  'RequestPost',
  'replace',
  'getRegex',
  'randomString',
  'getQueryParamList',
];

type Mutator = (l: Lines, rng: Rng) => string[] | undefined;

const COMPARATORS: Record<string, string> = {
  '=': '==',
  '==': '==',
  '!=': '!=',
  '<': '<',
  '>': '>',
  '<=': '<=',
  '>=': '>=',
};

const MUTATORS: Record<MutationKind, Mutator> = {
  'drop-closer': (l, rng) => {
    const at = pick(rng, l.where(/^(?:end|endLoop)\(\)$/));
    return at === undefined ? undefined : l.lines.filter((_, i) => i !== at);
  },
  'stray-closer': (l, rng) => {
    const at = pick(rng, l.where(/^(?:end|endLoop)\(\)$/));
    if (at === undefined) return undefined;
    const out = [...l.lines];
    out.splice(at + 1, 0, l.lines[at] as string);
    return out;
  },
  'python-loop': (l, rng) => loopAs(l, rng, 'python'),
  'js-loop': (l, rng) => loopAs(l, rng, 'js'),
  'go-loop': (l, rng) => loopAs(l, rng, 'go'),
  'list-walk': (l, rng) => {
    const sites = l
      .where(new RegExp(`^startLoop\\(\\s*${IDENT}\\s*,\\s*0\\s*,\\s*${PLAIN}\\s*\\)$`))
      .flatMap((open) => {
        const close = l.closerOf(open);
        const counter = new RegExp(`^startLoop\\(\\s*(${IDENT})`).exec(trimmed(l.lines[open] as string))?.[1];
        let first = open + 1;
        while (first < close && trimmed(l.lines[first] as string) === '') first++;
        const m = new RegExp(`^itemFromList\\(\\s*(${IDENT})\\s*,\\s*(${IDENT})\\s*,\\s*(${IDENT})\\s*\\)$`).exec(
          trimmed(l.lines[first] as string),
        );
        if (close === -1 || !counter || !m || m[2] !== counter) return [];
        const uses = new RegExp(`\\b${counter}\\b`);
        const rest = [...l.lines.slice(first + 1, close), ...l.lines.slice(close + 1)];
        if (rest.some((line) => uses.test(line.replace(/\/\/.*$/, '')))) return [];
        return [{ open, first, close, list: m[1] as string, item: m[3] as string }];
      });
    const site = pick(rng, sites);
    if (!site) return undefined;
    const { open, first, close, list, item } = site;
    const indent = indentOf(l.lines[open] as string);
    const body = l.lines.slice(first + 1, close);
    const before = l.lines.slice(0, open);
    const after = l.lines.slice(close + 1);
    const shape = Math.floor(rng() * 5);
    if (shape === 0) {
      const py = indentedBody([l.lines[open] as string, ...body, ''], 0, body.length + 1);
      return [...before, `${indent}for ${item} in ${list}:`, ...py, ...after];
    }
    if (shape === 1) return [...before, `${indent}foreach (${item} in ${list}) {`, ...body, `${indent}}`, ...after];
    if (shape === 2) return [...before, `${indent}for (const ${item} of ${list}) {`, ...body, `${indent}}`, ...after];
    if (shape === 3) return [...before, `${indent}for ${item} in ${list}`, ...body, `${indent}endLoop()`, ...after];
    return [...before, `${indent}startLoop(${item}, ${list})`, ...body, `${indent}endLoop()`, ...after];
  },
  'print-form': (l, rng) => {
    const at = pick(rng, l.where(new RegExp(`^addResult\\(\\s*${IDENT}\\s*\\)$`)));
    if (at === undefined) return undefined;
    const line = l.lines[at] as string;
    const name = /addResult\(\s*([^)\s]+)\s*\)/.exec(line)?.[1] as string;
    const form = pick(rng, ['print', 'console.log', 'fmt.Println']) as string;
    const out = [...l.lines];
    out[at] = `${indentOf(line)}${form}(${name})`;
    return out;
  },
  'arity-empties': (l, rng) => {
    const at = pick(rng, l.where(/^Request(?:Get|Post)\(/));
    if (at === undefined) return undefined;
    const line = l.lines[at] as string;
    const m = CALL_LINE.exec(line);
    if (!m) return undefined;
    const args = splitArgs(m[3] as string);
    const blank = (a: string | undefined) => a === '' || a === '""' || a === "''";
    if (!blank(args[1]) || !blank(args[2])) return undefined;
    const out = [...l.lines];
    out[at] = `${m[1]}${m[2]}(${[args[0], ...args.slice(3)].join(', ')})${m[4]}`;
    return out;
  },
  'arity-target': (l, rng) => {
    const sites = l.where(/^(?:addParam|variableFromJSON)\(/).filter((i) => {
      const m = CALL_LINE.exec(l.lines[i] as string);
      if (!m) return false;
      const args = splitArgs(m[3] as string);
      const key = args[args.length - 2]?.replace(/^["']|["']$/g, '');
      return key !== undefined && key === args[args.length - 1];
    });
    const at = pick(rng, sites);
    if (at === undefined) return undefined;
    const m = CALL_LINE.exec(l.lines[at] as string) as RegExpExecArray;
    const args = splitArgs(m[3] as string);
    const out = [...l.lines];
    out[at] = `${m[1]}${m[2]}(${args.slice(0, -1).join(', ')})${m[4]}`;
    return out;
  },
  'arity-drop': (l, rng) => {
    const sites = l.lines.flatMap((line, i) => {
      const m = CALL_LINE.exec(line);
      if (!m || !COMMANDS.includes(m[2] as string)) return [];
      const args = splitArgs(m[3] as string);
      return args.length >= 2 ? [i] : [];
    });
    const at = pick(rng, sites);
    if (at === undefined) return undefined;
    const m = CALL_LINE.exec(l.lines[at] as string) as RegExpExecArray;
    const args = splitArgs(m[3] as string);
    const drop = Math.floor(rng() * args.length);
    const out = [...l.lines];
    out[at] = `${m[1]}${m[2]}(${args.filter((_, i) => i !== drop).join(', ')})${m[4]}`;
    return out;
  },
  'unclosed-string': (l, rng) => {
    // The last string of a line that ends with it or with the call it is in: `"…")` or `"…"`.
    const sites = l.where(/"[^"]*"\)?$/).filter((i) => !trimmed(l.lines[i] as string).startsWith('//'));
    const at = pick(rng, sites);
    if (at === undefined) return undefined;
    const line = l.lines[at] as string;
    const q = line.lastIndexOf('"');
    const out = [...l.lines];
    out[at] = line.slice(0, q) + line.slice(q + 1);
    return out;
  },
  'unclosed-call': (l, rng) => {
    const at = pick(
      rng,
      l
        .where(new RegExp(`^${IDENT}\\(.*\\)$`))
        .filter((i) => !/^(?:end|endLoop|else|try)\(\)$/.test(trimmed(l.lines[i] as string))),
    );
    if (at === undefined) return undefined;
    const line = l.lines[at] as string;
    const out = [...l.lines];
    out[at] = line.replace(/\)\s*$/, '');
    return out;
  },
  'case-change': (l, rng) => {
    const at = pick(rng, l.where(new RegExp(`^(?:${COMMANDS.join('|')})\\(`)));
    if (at === undefined) return undefined;
    const line = l.lines[at] as string;
    const name = new RegExp(`^\\s*(${IDENT})`).exec(line)?.[1] as string;
    const wrong = rng() < 0.5 ? name.toLowerCase() : name[0]?.toUpperCase() + name.slice(1);
    if (wrong === name) return undefined;
    const out = [...l.lines];
    out[at] = line.replace(name, wrong);
    return out;
  },
  'hash-comment': (l, rng) => {
    const at = pick(rng, l.where(/^\/\/(?!\/)/));
    if (at === undefined) return undefined;
    const out = [...l.lines];
    out[at] = (l.lines[at] as string).replace('//', '#');
    return out;
  },
  semicolons: (l) => {
    let changed = false;
    const out = l.lines.map((line) => {
      const t = trimmed(line);
      if (t === '' || t.startsWith('//') || t.startsWith('/*') || t.startsWith('*') || /[{}]$/.test(t)) return line;
      changed = true;
      return `${line.replace(/\s+$/, '')};`;
    });
    return changed ? out : undefined;
  },
  'js-if': (l, rng) => {
    const sites = l.where(
      new RegExp(`^if\\(\\s*${PLAIN}\\s*,\\s*(?:${PLAIN}|"[^"]*")\\s*,\\s*"?(?:=|==|!=|<|>|<=|>=)"?\\s*\\)$`),
    );
    const open = pick(rng, sites);
    if (open === undefined) return undefined;
    const close = l.closerOf(open);
    if (close === -1 || trimmed(l.lines[close] as string) !== 'end()') return undefined;
    const m = /^if\(\s*(.+?)\s*,\s*(.+?)\s*,\s*"?([=!<>]+)"?\s*\)$/.exec(trimmed(l.lines[open] as string));
    if (!m) return undefined;
    const indent = indentOf(l.lines[open] as string);
    const out = [...l.lines];
    out[open] = `${indent}if (${m[1]} ${COMPARATORS[m[3] as string] ?? m[3]} ${m[2]}) {`;
    // The else() of this if (depth 1 between open and close) becomes `} else {`.
    let depth = 0;
    for (let i = open; i < close; i++) {
      const t = trimmed(l.lines[i] as string);
      if (/^(?:if|startLoop|try|go_async)\s*\(/.test(t)) depth++;
      else if (/^(?:end|endLoop)\(\)$/.test(t)) depth--;
      else if (depth === 1 && t === 'else()') out[i] = `${indentOf(l.lines[i] as string)}} else {`;
    }
    out[close] = `${indentOf(l.lines[close] as string)}}`;
    return out;
  },
  declaration: (l, rng) => {
    const at = pick(rng, l.where(new RegExp(`^${IDENT}\\s*=\\s*[^=]`)));
    if (at === undefined) return undefined;
    const out = [...l.lines];
    const keyword = pick(rng, ['let', 'const', 'var']) as string;
    out[at] = (l.lines[at] as string).replace(/^(\s*)/, `$1${keyword} `);
    return out;
  },
};

function loopAs(l: Lines, rng: Rng, style: 'python' | 'js' | 'go'): string[] | undefined {
  const header = new RegExp(`^startLoop\\(\\s*(${IDENT})\\s*,\\s*(${PLAIN})\\s*,\\s*(${PLAIN})\\s*\\)$`);
  const sites = l.where(header).filter((open) => {
    const close = l.closerOf(open);
    return close !== -1 && trimmed(l.lines[close] as string) === 'endLoop()';
  });
  const open = pick(rng, sites);
  if (open === undefined) return undefined;
  const close = l.closerOf(open);
  const [, v, a, b] = header.exec(trimmed(l.lines[open] as string)) as RegExpExecArray;
  const indent = indentOf(l.lines[open] as string);
  const before = l.lines.slice(0, open);
  const after = l.lines.slice(close + 1);
  const body = l.lines.slice(open + 1, close);
  if (style === 'python') {
    const end = /^-?\d+$/.test(b as string) ? String(Number(b) + 1) : `${b} + 1`;
    return [...before, `${indent}for ${v} in range(${a}, ${end}):`, ...indentedBody(l.lines, open, close), ...after];
  }
  const head =
    style === 'js' ? `for (let ${v} = ${a}; ${v} <= ${b}; ${v}++) {` : `for ${v} := ${a}; ${v} <= ${b}; ${v}++ {`;
  return [...before, `${indent}${head}`, ...body, `${indent}}`, ...after];
}

/** One mutant of `seed` of `kind`, or undefined when the program has no site for it. */
function mutate<C>(seed: MutationSeed<C>, kind: MutationKind, generatorSeed: number): Mutant<C> | undefined {
  const lines = new Lines(seed.source);
  const rng = prng(hash(`${generatorSeed}|${seed.id}|${kind}`));
  const out = MUTATORS[kind](lines, rng);
  if (!out) return undefined;
  const source = lines.text(out);
  if (source === seed.source) return undefined;
  return { id: `${seed.id}~${kind}`, kind, seed, source };
}

export interface MutationOptions {
  /** The generator's seed: the same seed, the same mutants. */
  seed: number;
  /** At most this many mutants per kind, chosen by the seeded PRNG among all the programs that have a site. */
  perKind: number;
  kinds?: readonly MutationKind[];
}

/** Mutants of the seed programs: for each kind, up to `perKind` of them, drawn deterministically. */
export function mutations<C>(seeds: readonly MutationSeed<C>[], options: MutationOptions): Mutant<C>[] {
  const out: Mutant<C>[] = [];
  for (const kind of options.kinds ?? MUTATION_KINDS) {
    const all = seeds.flatMap((s) => mutate(s, kind, options.seed) ?? []);
    const rng = prng(hash(`${options.seed}|draw|${kind}`));
    // A seeded shuffle, then the first perKind in seed order (stable output).
    const order = all.map((m) => ({ m, key: rng() })).sort((x, y) => x.key - y.key);
    out.push(
      ...order
        .slice(0, options.perKind)
        .map((x) => x.m)
        .sort((x, y) => x.id.localeCompare(y.id)),
    );
  }
  return out;
}

/**
 * Generated endpoint programs of realistic shape: the bench's
 * throughput corpus must not be the programs the parser was tuned on, so part
 * of it is drawn here, from a seeded generator that writes what endpoints do —
 * read and check parameters, compute with expressions, build text with
 * concatenation and templates, walk lists, build and read JSON, call HTTP
 * services under try(), hash, date, define and call functions, run work in
 * go_async, answer with _status and addResult — with names, nesting and
 * lengths that vary. Every program is valid AVAP (the bench checks it).
 */

import { prng, type Rng } from '../../test/support/random';

const NOUNS = [
  'order',
  'customer',
  'invoice',
  'product',
  'ticket',
  'account',
  'payment',
  'shipment',
  'booking',
  'session',
  'report',
  'coupon',
  'review',
  'device',
  'tenant',
  'member',
];
const QUALIFIERS = [
  'total',
  'count',
  'id',
  'name',
  'status',
  'price',
  'code',
  'date',
  'limit',
  'score',
  'rate',
  'label',
];
const KEYS = ['amount', 'state', 'kind', 'owner', 'region', 'currency', 'channel', 'level', 'summary', 'detail', 'tag'];
const HOSTS = ['api.example.com', 'billing.example.net', 'crm.example.org', 'inventory.example.io'];

class Writer {
  readonly lines: string[] = [];
  private depth = 0;
  private readonly names = new Set<string>();
  private counter = 0;

  constructor(
    readonly rng: Rng,
    readonly unit: string,
  ) {}

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rng() * items.length)] as T;
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.rng() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.rng() < p;
  }

  /** A fresh camelCase variable name. */
  name(hint?: string): string {
    for (;;) {
      const noun = hint ?? this.pick(NOUNS);
      const q = this.pick(QUALIFIERS);
      let base = `${noun}${q[0]?.toUpperCase()}${q.slice(1)}`;
      if (this.names.has(base)) base = `${base}${++this.counter}`;
      if (!this.names.has(base)) {
        this.names.add(base);
        return base;
      }
    }
  }

  /** A variable defined earlier, or a number literal when there is none. */
  known(): string {
    const all = [...this.names];
    return all.length === 0 ? String(this.int(1, 99)) : this.pick(all);
  }

  line(text: string): void {
    this.lines.push(`${this.unit.repeat(this.depth)}${text}`);
  }

  open(text: string): void {
    this.line(text);
    this.depth++;
  }

  /** One level deeper after a line written with line() (a branch: else(), exception(e)). */
  deeper(): void {
    this.depth++;
  }

  close(text: string): void {
    this.depth--;
    this.line(text);
  }
}

function arithmetic(w: Writer): string {
  const terms = w.int(2, 5);
  let out = w.known();
  for (let i = 1; i < terms; i++) {
    const op = w.pick(['+', '-', '*', '/', '%']);
    const operand = w.chance(0.5) ? w.known() : String(w.int(1, 500));
    out += w.chance(0.2) ? ` ${op} (${operand} + ${w.int(1, 9)})` : ` ${op} ${operand}`;
  }
  return out;
}

function params(w: Writer): string[] {
  const out: string[] = [];
  for (let i = w.int(1, 4); i > 0; i--) {
    const v = w.name();
    const key = v.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    w.line(w.chance(0.6) ? `addParam("${key}", ${v})` : `addParam(${key}, ${v})`);
    out.push(v);
  }
  return out;
}

function validation(w: Writer, p: string): void {
  w.open(`if(${p}, None, ==)`);
  w.line(`_status = ${w.pick([400, 404, 422])}`);
  const err = w.name('error');
  w.line(`addVar(${err}, "${p} is required")`);
  w.line(`addResult(${err})`);
  w.close('end()');
}

function computations(w: Writer): void {
  for (let i = w.int(2, 8); i > 0; i--) {
    const target = w.name();
    const kind = w.int(0, 5);
    if (kind === 0) w.line(`${target} = ${arithmetic(w)}`);
    else if (kind === 1) w.line(`${target} = "${w.pick(NOUNS)}-" + str(${w.known()}) + "-${w.int(1, 9)}"`);
    else if (kind === 2) w.line(`${target} = \`${w.pick(NOUNS)} \${${w.known()}} of \${${w.known()}}\``);
    else if (kind === 3) w.line(`${target} = int(${w.known()}) + len(str(${w.known()}))`);
    else if (kind === 4) w.line(`addVar(${target}, ${w.chance(0.5) ? w.int(0, 1000) : `"${w.pick(KEYS)}"`})`);
    else w.line(`${target} = ${w.known()} if ${w.known()} > ${w.int(1, 50)} else ${w.int(0, 9)}`);
  }
}

function branches(w: Writer, depth = 0): void {
  const op = w.pick(['=', '==', '!=', '<', '>', '<=', '>=']);
  if (w.chance(0.25)) w.open(`if(None, None, "${w.known()} > ${w.int(1, 9)} and ${w.known()} != ${w.int(0, 5)}")`);
  else w.open(`if(${w.known()}, ${w.chance(0.5) ? w.known() : w.int(0, 100)}, ${op})`);
  computations(w);
  if (depth < 2 && w.chance(0.3)) branches(w, depth + 1);
  if (w.chance(0.6)) {
    w.close('else()');
    w.deeper();
    computations(w);
  }
  w.close('end()');
}

function listWalk(w: Writer): void {
  const list = w.name('list');
  const values = Array.from({ length: w.int(2, 6) }, () =>
    w.chance(0.5) ? String(w.int(1, 99)) : `"${w.pick(KEYS)}"`,
  );
  w.line(`${list} = [${values.join(', ')}]`);
  const len = w.name('list');
  const lastIndex = w.name('list');
  w.line(`getListLen(${list}, ${len})`);
  w.line(`${lastIndex} = ${len} - 1`);
  const i = w.name('loop');
  w.open(`startLoop(${i}, 0, ${lastIndex})`);
  const item = w.name('item');
  w.line(`itemFromList(${list}, ${i}, ${item})`);
  if (w.chance(0.6)) {
    const out = w.name('list');
    w.line(`variableToList(${item}, ${out})`);
  }
  if (w.chance(0.5)) {
    w.open(`if(${item}, ${w.int(0, 50)}, >)`);
    w.line(`${w.name()} = ${item} * ${w.int(2, 9)}`);
    w.close('end()');
  }
  w.close('endLoop()');
}

function json(w: Writer): void {
  const obj = w.name('report');
  w.line(`${obj} = {}`);
  const keys = [...KEYS].sort(() => w.rng() - 0.5).slice(0, w.int(2, 5));
  for (const key of keys) w.line(`AddvariableToJSON("${key}", ${w.known()}, ${obj})`);
  if (w.chance(0.5)) w.line(`variableFromJSON(${obj}, "${keys[0] ?? 'state'}", ${w.name()})`);
  w.line(`addResult(${obj})`);
}

function http(w: Writer): void {
  const url = w.name('session');
  w.line(`${url} = "https://${w.pick(HOSTS)}/v${w.int(1, 3)}/${w.pick(NOUNS)}s/" + str(${w.known()})`);
  const reply = w.name('session');
  w.open('try()');
  if (w.chance(0.5)) w.line(`RequestGet(${url}, , , ${reply})`);
  else {
    const body = w.name('session');
    w.line(`${body} = {"${w.pick(KEYS)}": ${w.known()}, "${w.pick(QUALIFIERS)}x": ${w.int(1, 9)}}`);
    w.line(`RequestPost(${url}, , , ${body}, ${reply})`);
  }
  const err = w.name('error');
  w.close(`exception(${err})`);
  w.deeper();
  w.line(`_status = ${w.pick([502, 503, 504])}`);
  w.line(`addVar(${reply}, "upstream unavailable")`);
  w.close('end()');
  w.line(`addResult(${reply})`);
}

function misc(w: Writer): void {
  const kind = w.int(0, 4);
  if (kind === 0) w.line(`encodeSHA256(${w.known()}, ${w.name('account')})`);
  else if (kind === 1) w.line(`getDateTime("%Y-%m-%d %H:%M", ${w.int(0, 86400)}, "UTC", ${w.name('booking')})`);
  else if (kind === 2) w.line(`replace(${w.known()}, "[^a-z0-9]", "-", ${w.name('ticket')})`);
  else if (kind === 3) w.line(`randomString("[A-Z0-9]", ${w.int(6, 16)}, ${w.name('coupon')})`);
  else w.line(`ormAccessSelect("*", "${w.pick(NOUNS)}s", ${w.name('report')}, "id = ${w.int(1, 999)}")`);
}

function asyncWork(w: Writer): void {
  const id = `job${w.int(1, 99)}`;
  w.open(`go_async("${id}")`);
  w.line(`${w.name('session')} = ${arithmetic(w)}`);
  w.close('end()');
  w.line(`gather("${id}", ${w.int(1, 10)})`);
}

function functionDef(w: Writer, index: number): string {
  const fn = `compute${w.pick(NOUNS)[0]?.toUpperCase()}${w.pick(QUALIFIERS)}${index}`;
  w.line(`function ${fn}(first, second) {`);
  w.deeper();
  w.line(`partial = first * ${w.int(2, 9)} + second`);
  if (w.chance(0.5)) {
    w.open('if(partial, 100, >)');
    w.line('partial = partial - 100');
    w.close('end()');
  }
  w.line('return(partial)');
  w.close('}');
  return fn;
}

/** One endpoint program, `index` giving its function names their own suffix. */
function generatedEndpoint(seed: number, index: number): string {
  const w = new Writer(prng(seed * 7919 + index), prng(seed + index)() < 0.7 ? '  ' : '    ');
  w.line(`// ${w.pick(['Return', 'Create', 'Update', 'Check', 'List'])} the ${w.pick(NOUNS)} ${w.pick(QUALIFIERS)}`);
  const fns = w.chance(0.35) ? [functionDef(w, index)] : [];
  const ps = params(w);
  if (ps[0] && w.chance(0.7)) validation(w, ps[0]);
  const parts = w.int(3, 8);
  for (let i = 0; i < parts; i++) {
    const kind = w.int(0, 6);
    if (kind === 0) computations(w);
    else if (kind === 1) branches(w);
    else if (kind === 2) listWalk(w);
    else if (kind === 3) json(w);
    else if (kind === 4) http(w);
    else if (kind === 5) misc(w);
    else if (w.chance(0.5)) asyncWork(w);
    else computations(w);
  }
  for (const fn of fns) w.line(`${w.name()} = ${fn}(${w.known()}, ${w.int(1, 9)})`);
  w.line(`addResult(${w.known()})`);
  return `${w.lines.join('\n')}\n`;
}

/** `count` generated endpoints. */
export function generatedEndpoints(seed: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => generatedEndpoint(seed, i));
}

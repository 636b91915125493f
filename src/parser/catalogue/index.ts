/**
 * Typed access to the versioned command catalogue (avap-catalogue.json).
 * The JSON is the single source of truth for command names, arities and
 * argument kinds; the parser, hover and completion all read it from here.
 */
import data from './avap-catalogue.json';

type ParamKind = 'target' | 'name' | 'value' | 'number' | 'comparator';

export type BlockRole = 'open-if' | 'else' | 'end' | 'open-loop' | 'end-loop' | 'open-try' | 'exception' | 'open-async';

export interface ParamSpec {
  readonly name: string;
  readonly kind: ParamKind;
  /** May be left empty (`f(a, , c)`), e.g. the optional argument of exception(). */
  readonly optional?: boolean;
  /** Must not be empty even though its kind would allow it. */
  readonly required?: boolean;
  /**
   * May be left out of a call: an empty argument means what leaving it out
   * means (RequestGet's query string and headers: none; a date's delta and
   * zone: the defaults), so a fix that completes the call writes it empty.
   */
  readonly omittable?: boolean;
  /**
   * A key the command looks something up by or stores something under (a JSON
   * key, a request parameter's name). The reference resolves it at run time:
   * bare text that names a variable stands for that variable's value, so a
   * literal key is quoted (the semantic warnings in semantics.ts).
   */
  readonly key?: boolean;
}

export interface CommandSpec {
  readonly name: string;
  readonly category: string;
  readonly origin: 'isa' | 'docs';
  readonly summary: string;
  readonly params: readonly ParamSpec[];
  /** A second accepted signature (e.g. randomString(length, target)). */
  readonly altParams?: readonly ParamSpec[];
  readonly block?: BlockRole;
  readonly example: string;
  /** Its result is only reachable as `x = cmd(...)`; a bare call discards it. */
  readonly resultOnlyByAssignment?: boolean;
  /**
   * The parameter whose value names the target when a call leaves the target
   * out (`addParam("page")` reads into `page`): what a fix completes it with.
   */
  readonly targetFrom?: string;
}

export interface Hallucination {
  readonly name: string;
  readonly equivalent: string | null;
  readonly note?: string;
  /** The block role the name stands for, so structure recovery can go on. */
  readonly structuralAs?: string;
  /**
   * The parameters of the equivalent that the invented call's arguments stand
   * for, in order (`httpGet(url)` → RequestGet's `url`): what makes a rewrite
   * of the call (fixes/commands.ts), or the rename when they are the
   * equivalent's own parameters in its own order, a proven fix. Absent: what
   * the arguments stand for is a guess (`generateToken(user)` is not
   * `randomString`'s length), so the equivalent is named as advice only.
   */
  readonly args?: readonly string[];
  /** The argument whose name becomes the target when the call has none (`readParam("name")` → `addParam("name", name)`). */
  readonly targetFrom?: string;
  readonly source: string;
}

export interface ForeignStatement {
  readonly keyword: string;
  readonly language: string;
  readonly shape: 'any' | 'word' | 'declaration' | 'from-import' | 'python-except' | 'js-catch';
  readonly hint: string;
}

export interface ForeignCall {
  readonly callee: string;
  readonly language: string;
  readonly hint: string;
}

export interface ForeignMethod {
  readonly method: string;
  readonly language: string;
  readonly hint: string;
}

export interface ForeignOperator {
  readonly op: string;
  readonly language: string;
  readonly suggestion?: string;
  readonly hint: string;
}

export interface ForeignWord {
  readonly word: string;
  readonly language: string;
  readonly suggestion?: string;
}

interface CatalogueData {
  catalogueVersion: string;
  comparators: string[];
  comparatorFixes: Record<string, string>;
  expressionBuiltins: string[];
  commands: CommandSpec[];
  hallucinations: Hallucination[];
  foreignStatements: ForeignStatement[];
  foreignCalls: ForeignCall[];
  foreignMethods: ForeignMethod[];
  foreignOperators: ForeignOperator[];
  foreignWords: ForeignWord[];
}

const catalogue = data as unknown as CatalogueData;

export const CATALOGUE_VERSION: string = catalogue.catalogueVersion;
/**
 * The catalogue's commands and parameters, each field present in one order (undefined where the JSON leaves it
 * out): the JSON's objects come in five shapes each, so every read of `param.kind`, `param.key` or `spec.block` on
 * a command's call — several per argument — was a megamorphic property look-up; objects of one shape are read
 * directly (about 4 % of a validation of the unseen corpus). Every field reads as in the JSON.
 */
function uniformParam(p: ParamSpec): ParamSpec {
  return { name: p.name, kind: p.kind, optional: p.optional, required: p.required, omittable: p.omittable, key: p.key };
}

export const COMMANDS: readonly CommandSpec[] = catalogue.commands.map((c) => ({
  name: c.name,
  category: c.category,
  origin: c.origin,
  summary: c.summary,
  params: c.params.map(uniformParam),
  altParams: c.altParams?.map(uniformParam),
  block: c.block,
  example: c.example,
  resultOnlyByAssignment: c.resultOnlyByAssignment,
  targetFrom: c.targetFrom,
}));
export const COMPARATORS: ReadonlySet<string> = new Set(catalogue.comparators);
export const COMPARATOR_FIXES: ReadonlyMap<string, string> = new Map(Object.entries(catalogue.comparatorFixes));
export const EXPRESSION_BUILTINS: ReadonlySet<string> = new Set(catalogue.expressionBuiltins);
export const HALLUCINATIONS: readonly Hallucination[] = catalogue.hallucinations;

/**
 * Exact-name look-up for names read on most lines (a command, a foreign
 * keyword): the few keys of the same length and first character are compared
 * directly, which costs less than hashing a freshly scanned name for a Map.
 * It answers as a Map of the same entries would (for a repeated name, the last entry).
 */
export class NameTable<T> {
  /** One slot per shape; filled by a built-in rather than a loop, as the table is built while the module loads. */
  private readonly buckets: ([string, T][] | undefined)[] = new Array<[string, T][] | undefined>(32 * 128).fill(
    undefined,
  );

  constructor(entries: readonly (readonly [string, T])[]) {
    for (const [name, value] of entries) {
      const shape = NameTable.shape(name);
      const bucket = (this.buckets[shape] ??= []);
      const at = bucket.findIndex(([known]) => known === name);
      if (at >= 0)
        bucket[at] = [name, value]; // like Map: the last entry of a name wins
      else bucket.push([name, value]);
    }
  }

  private static shape(name: string): number {
    const first = name.charCodeAt(0);
    return Math.min(name.length, 31) * 128 + (first < 128 ? first : 0);
  }

  /** The entry of the name src[start, end), read in place (no string made for it). */
  getAt(src: string, start: number, end: number): T | undefined {
    const length = end - start;
    if (length <= 0) return undefined;
    const first = src.charCodeAt(start);
    const bucket = this.buckets[Math.min(length, 31) * 128 + (first < 128 ? first : 0)];
    if (bucket === undefined) return undefined;
    for (let i = 0; i < bucket.length; i++) {
      const entry = bucket[i] as readonly [string, T];
      const name = entry[0];
      if (name.length !== length) continue;
      // Compared here: a call of startsWith costs more than the few characters that tell two names apart.
      let k = 1;
      while (k < length && name.charCodeAt(k) === src.charCodeAt(start + k)) k++;
      if (k === length) return entry[1];
    }
    return undefined;
  }

  get(name: string): T | undefined {
    if (name.length === 0) return undefined;
    const bucket = this.buckets[NameTable.shape(name)];
    if (bucket === undefined) return undefined;
    for (let i = 0; i < bucket.length; i++) {
      const entry = bucket[i] as readonly [string, T];
      if (entry[0] === name) return entry[1];
    }
    return undefined;
  }
}

const byName = new NameTable(COMMANDS.map((c) => [c.name, c] as const));
const byLowerName = new Map(COMMANDS.map((c) => [c.name.toLowerCase(), c]));
const hallucinationByName = new Map(HALLUCINATIONS.map((h) => [h.name, h]));
const hallucinationByLowerName = new Map(HALLUCINATIONS.map((h) => [h.name.toLowerCase(), h]));
const foreignStatementByKeyword = new NameTable(catalogue.foreignStatements.map((f) => [f.keyword, f] as const));
const foreignCallByCallee = new Map(catalogue.foreignCalls.map((f) => [f.callee, f]));
const foreignMethodByName = new Map(catalogue.foreignMethods.map((f) => [f.method, f]));
const foreignOperatorByOp = new NameTable(catalogue.foreignOperators.map((f) => [f.op, f] as const));
const foreignWordByWord = new NameTable(catalogue.foreignWords.map((f) => [f.word, f] as const));

/** The keywords of other languages' statements (`print`, `while`, …), for a table of words read in place. */
export const FOREIGN_STATEMENT_KEYWORDS: readonly string[] = catalogue.foreignStatements.map((f) => f.keyword);

/** The foreign words of expressions (`null`, `this`, …), for a table of words read in place. */
export const FOREIGN_WORDS: readonly string[] = catalogue.foreignWords.map((f) => f.word);

export function findCommand(name: string): CommandSpec | undefined {
  return byName.get(name);
}

/** A command whose name differs only in letter case (`addvar` → `addVar`). */
export function findCommandIgnoringCase(name: string): CommandSpec | undefined {
  return byLowerName.get(name.toLowerCase());
}

/**
 * findCommandIgnoringCase for a name its caller has lower-cased: one that
 * looks a name up several ways lower-cases it once (a name cut out of the
 * program costs more to lower-case than to look up).
 */
export function findCommandByLowerName(lower: string): CommandSpec | undefined {
  return byLowerName.get(lower);
}

export function findHallucination(name: string): Hallucination | undefined {
  return hallucinationByName.get(name);
}

/** A known invented name in any letter case (`endif`, `ReadParam`); the exact spelling first. */
export function findHallucinationIgnoringCase(name: string): Hallucination | undefined {
  return hallucinationByName.get(name) ?? hallucinationByLowerName.get(name.toLowerCase());
}

/** A known invented name by its lower-cased form only (see findCommandByLowerName). */
export function findHallucinationByLowerName(lower: string): Hallucination | undefined {
  return hallucinationByLowerName.get(lower);
}

export function findForeignStatement(keyword: string): ForeignStatement | undefined {
  return foreignStatementByKeyword.get(keyword);
}

export function findForeignCall(callee: string): ForeignCall | undefined {
  return foreignCallByCallee.get(callee);
}

export function findForeignMethod(method: string): ForeignMethod | undefined {
  return foreignMethodByName.get(method);
}

export function findForeignOperator(op: string): ForeignOperator | undefined {
  return foreignOperatorByOp.get(op);
}

export function findForeignWord(word: string): ForeignWord | undefined {
  return foreignWordByWord.get(word);
}

/** Human signature, e.g. `encodeSHA256(SourceVariable, TargetVariable)`. */
export function signatureOf(spec: CommandSpec, params: readonly ParamSpec[] = spec.params): string {
  return `${spec.name}(${params.map((p) => p.name).join(', ')})`;
}

/** Every accepted parameter list of a command. */
export function signaturesOf(spec: CommandSpec): readonly (readonly ParamSpec[])[] {
  return spec.altParams ? [spec.params, spec.altParams] : [spec.params];
}

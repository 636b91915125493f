/**
 * "Did you mean" for unknown names: first the known hallucinations (a curated
 * table of names models invent, with their real equivalent), then a case-only
 * mismatch, then the closest catalogue name or user function by edit distance.
 */
import {
  COMMANDS,
  findCommand,
  findCommandByLowerName,
  findHallucination,
  findHallucinationByLowerName,
  type Hallucination,
} from './catalogue';
import { NearNames } from './nearNames';

export interface NameSuggestion {
  /** Replacement name, or undefined when there is no equivalent. */
  name?: string;
  /** Extra words for the message (e.g. "AVAP is case-sensitive"). */
  note?: string;
  /** The name stands for this block keyword, for structure recovery. */
  structuralAs?: string;
  /**
   * True when putting `name` in place of the unknown one is the repair: a
   * case or spelling slip of a real name, or an invented name whose arguments
   * the catalogue maps one-to-one onto its equivalent's. False: `name` is
   * advice (its arguments differ, or what they stand for is a guess).
   */
  exact?: boolean;
}

/** Identifiers longer than this are not compared (keeps the cost linear). */
export const MAX_COMPARED_LENGTH = 48;

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transposition),
 * stopping early once the distance exceeds `limit`.
 */
function editDistance(a: string, b: string, limit = Number.MAX_SAFE_INTEGER): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows = a.length + 1;
  const cols = b.length + 1;
  let prevPrev = new Array<number>(cols).fill(0);
  let prev = Array.from({ length: cols }, (_, j) => j);
  let cur = new Array<number>(cols).fill(0);
  for (let i = 1; i < rows; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j < cols; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      ) {
        value = Math.min(value, (prevPrev[j - 2] as number) + 1);
      }
      cur[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    [prevPrev, prev, cur] = [prev, cur, prevPrev];
  }
  return prev[cols - 1] as number;
}

/** Largest distance any search allows (threshold's largest value): a name farther off in length never matches. */
export const MAX_THRESHOLD = 3;

/** Largest distance still worth suggesting for a name of this length. */
function threshold(length: number): number {
  if (length <= 3) return 1;
  if (length <= 8) return 2;
  return MAX_THRESHOLD;
}

/** The running best of a closest-name search: `closestName`'s loop state, so an index can continue it. */
interface Closest {
  best: string | undefined;
  bestDistance: number;
}

/** Whether `candidate` may be suggested at distance `d` at all: short names only for a very near miss. */
function acceptable(candidate: string, d: number): boolean {
  return d < Math.max(2, Math.ceil(candidate.length / 2));
}

/** One step of the scan: `candidate` at distance `d` (exact when below bestDistance) replaces the best when closer. */
function consider(state: Closest, candidate: string, d: number): void {
  if (d < state.bestDistance && acceptable(candidate, d)) {
    state.best = candidate;
    state.bestDistance = d;
  }
}

function scan(state: Closest, lower: string, candidates: Iterable<string>): void {
  for (const candidate of candidates) {
    if (candidate.length > MAX_COMPARED_LENGTH) continue;
    consider(state, candidate, editDistance(lower, candidate.toLowerCase(), state.bestDistance - 1));
  }
}

/** Closest of `candidates` within the threshold; ties go to the first. */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  if (name.length > MAX_COMPARED_LENGTH) return undefined;
  const state: Closest = { best: undefined, bestDistance: threshold(name.length) + 1 };
  scan(state, name.toLowerCase(), candidates);
  return state.best;
}

/** The scan's next step over every name of `index`, in its order: only those still worth taking are compared. */
function scanIndex(state: Closest, lower: string, index: NearNames): void {
  for (const hit of index.closest(lower, state.bestDistance - 1, acceptable)) {
    consider(state, index.names[hit.index] as string, hit.distance);
  }
}

/** A name of a fixed list with what the character filter needs: its lower-cased form and character counts. */
interface Listed {
  name: string;
  lower: string;
  /** Which of 32 classes (code unit mod 32) its characters fall in: a quick bound before the counts. */
  mask: number;
  /** Its distinct characters (UTF-16 code units) and how often each occurs. */
  chars: Int32Array;
  counts: Int32Array;
}

const maskOf = (text: string): number => {
  let mask = 0;
  for (let i = 0; i < text.length; i++) mask |= 1 << (text.charCodeAt(i) & 31);
  return mask;
};

/** Set bits of a 32-bit mask (a population count without a loop: it runs twice per command per unknown name). */
function bits(mask: number): number {
  let n = mask - ((mask >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

const listed = (name: string): Listed => {
  const lower = name.toLowerCase();
  const counts = new Map<number, number>();
  for (let i = 0; i < lower.length; i++) counts.set(lower.charCodeAt(i), (counts.get(lower.charCodeAt(i)) ?? 0) + 1);
  return {
    name,
    lower,
    mask: maskOf(lower),
    chars: Int32Array.from(counts.keys()),
    counts: Int32Array.from(counts.values()),
  };
};

/**
 * The catalogue's command names, prepared on first use and shared (they never change): for each length a name
 * may have, the commands whose length is within MAX_THRESHOLD of it, in catalogue order — the only ones the
 * scan's length test could let through, so most unknown names compare with a third of the catalogue or less.
 */
let commandsByLength: Listed[][] | undefined;

function commandsNear(length: number): readonly Listed[] {
  if (!commandsByLength) {
    const all = COMMAND_NAMES.map(listed);
    commandsByLength = Array.from({ length: MAX_COMPARED_LENGTH + 1 }, (_, m) =>
      all.filter((entry) => Math.abs(entry.lower.length - m) <= MAX_THRESHOLD),
    );
  }
  return commandsByLength[length] ?? [];
}

/** Character counts of the name being looked up (UTF-16 code units), cleared after each look-up. */
const queryCounts = new Int32Array(65536);

/**
 * The scan over a fixed list, skipping the names that cannot be closer than
 * the best so far: a length farther off, or a character content that differs
 * by more (each edit changes one character of the multiset, a transposition
 * none, so the distance is at least max(m, n) minus the characters in common).
 * The same answer as the plain scan, without most edit distances.
 */
function scanListed(state: Closest, lower: string, list: readonly Listed[]): void {
  const m = lower.length;
  const mask = maskOf(lower);
  let counted = false;
  for (const entry of list) {
    if (entry.name.length > MAX_COMPARED_LENGTH) continue;
    const limit = state.bestDistance - 1;
    const n = entry.lower.length;
    if (Math.abs(n - m) > limit) continue;
    // Each character class one side has and the other lacks needs an edit of its own.
    if (bits(entry.mask & ~mask) > limit || bits(mask & ~entry.mask) > limit) continue;
    if (!counted) {
      for (let i = 0; i < m; i++) queryCounts[lower.charCodeAt(i)] = (queryCounts[lower.charCodeAt(i)] as number) + 1;
      counted = true;
    }
    let common = 0;
    const { chars, counts } = entry;
    for (let k = 0; k < chars.length; k++)
      common += Math.min(counts[k] as number, queryCounts[chars[k] as number] as number);
    if (Math.max(m, n) - common > limit) continue;
    consider(state, entry.name, editDistance(lower, entry.lower, limit));
  }
  if (counted) for (let i = 0; i < m; i++) queryCounts[lower.charCodeAt(i)] = 0;
}

/**
 * The same as `closestName(name, [...commands, ...index.names])` (`lower`: the name lower-cased): the
 * commands with a character filter, then the functions through their trie
 * (nearNames.ts).
 */
function closestWithIndex(name: string, lower: string, index: NearNames): string | undefined {
  if (name.length > MAX_COMPARED_LENGTH) return undefined;
  const state: Closest = { best: undefined, bestDistance: threshold(name.length) + 1 };
  scanListed(state, lower, commandsNear(lower.length));
  scanIndex(state, lower, index);
  return state.best;
}

/**
 * The invented call's `argCount` arguments stand for the equivalent's first
 * `argCount` parameters, in its order (see Hallucination.args), or are
 * exactly its parameters: then the rename keeps every argument's meaning.
 * Only for a name the catalogue maps at all. Unknown count: all of them.
 */
function renameIsExact(known: Hallucination, argCount: number | undefined): boolean {
  const spec = known.equivalent ? findCommand(known.equivalent) : undefined;
  if (!spec || !known.args) return false;
  const params = spec.params.map((p) => p.name);
  // A call with exactly the equivalent's own parameters is that command under another name (`httpGet(url, , , r)`).
  if (argCount === params.length) return true;
  const n = argCount ?? known.args.length;
  if (n > known.args.length || (argCount === undefined && known.args.length !== params.length)) return false;
  return known.args.slice(0, n).every((name, i) => name === params[i]);
}

function fromHallucination(known: Hallucination, argCount: number | undefined): NameSuggestion {
  const suggestion: NameSuggestion = {};
  if (known.equivalent) {
    suggestion.name = known.equivalent;
    suggestion.exact = renameIsExact(known, argCount);
  }
  if (known.note) suggestion.note = known.note;
  if (known.structuralAs) suggestion.structuralAs = known.structuralAs;
  return suggestion;
}

const COMMAND_NAMES = COMMANDS.map((c) => c.name);

/**
 * Suggestion for an unknown command or function name. `userFunctions` are the
 * file's functions in definition order, or an index of them (nearNames.ts)
 * when many names are looked up against many functions; `argCount`, the
 * call's arguments, decides whether renaming an invented name keeps them
 * meaning what they meant (NameSuggestion.exact).
 */
export function suggestName(
  name: string,
  userFunctions: Iterable<string> | NearNames = [],
  argCount?: number,
): NameSuggestion {
  const known = findHallucination(name);
  if (known) return fromHallucination(known, argCount);
  // Lower-cased once for the look-ups below: a name cut out of the program costs more to lower-case than to look
  // up, and every unknown name of a file comes here.
  const lower = name.toLowerCase();
  const sameLetters = findCommandByLowerName(lower);
  if (sameLetters) {
    return { name: sameLetters.name, note: 'AVAP is case-sensitive', structuralAs: sameLetters.name, exact: true };
  }
  // The exact spelling was looked up first (findHallucinationIgnoringCase's order).
  const knownOtherCase = findHallucinationByLowerName(lower);
  if (knownOtherCase) return fromHallucination(knownOtherCase, argCount);
  const closest =
    userFunctions instanceof NearNames
      ? closestWithIndex(name, lower, userFunctions)
      : closestName(name, [...COMMAND_NAMES, ...userFunctions]);
  return closest ? { name: closest, exact: true } : {};
}

/**
 * "Did you mean" among the user's own functions, in time linear in the input.
 * Comparing every unknown name with every function by edit
 * distance costs (unknown names × functions): 200 one-line functions and 200
 * calls to invented names took seconds. Here the functions go into a trie of
 * their lower-cased names once, and each unknown name walks it with one row
 * of the edit-distance table per trie node, dropping a branch as soon as no
 * extension of it can come within the distance a suggestion allows (at most
 * 3). Names that share a prefix share its rows, and branches far from the
 * name are never entered.
 *
 * The answer is the one a full scan gives (suggest.ts, closestName): the same
 * distance (optimal string alignment, lower-cased), the same threshold, the
 * same tie rule (the function defined first). A walk computes exact distances
 * for every function within the limit — narrowing it to the distance of the
 * closest acceptable function found so far, closest branches first — and the
 * caller applies the scan's own update rule to them in definition order.
 *
 * Bounded: a walk visits only nodes whose prefix is within the limit of some
 * prefix of the name, which an input can still make many (thousands of
 * functions with distinct short prefixes). So the table cells computed for
 * one validation are budgeted in proportion to the input; past the budget,
 * the remaining unknown names get no suggestion from user functions (a
 * catalogue command, a known invented name or a case mismatch still is
 * suggested). No ordinary program comes near the budget.
 */

/** Table cells a validation may compute per character of input, and a floor for small inputs. */
export const NEAR_NAME_CELLS_PER_CHAR = 64;
export const NEAR_NAME_CELLS_FLOOR = 1 << 20;

interface TrieNode {
  /** Child characters and the nodes they lead to (same order). */
  chars: number[];
  kids: TrieNode[];
  /** Definition-order indices of the functions whose lower-cased name ends here. */
  ends: number[] | undefined;
  /** Shortest and longest lower-cased name below (or at) this node. */
  minLength: number;
  maxLength: number;
}

/**
 * A node's lists are made with their first item (`[c]`), never empty and then pushed to: the engine gives an
 * empty array's first push room for 17 items, and most nodes of a trie of names have one child (a name's own
 * suffix), so the trie of a validation was mostly empty slots, a tenth of what validating F5 allocated.
 */
const NO_CHILDREN: number[] & TrieNode[] = [];

const newNode = (): TrieNode => ({
  chars: NO_CHILDREN,
  kids: NO_CHILDREN,
  ends: undefined,
  minLength: Number.MAX_SAFE_INTEGER,
  maxLength: 0,
});

/** A function within the limit: its index in definition order and its exact distance. */
export interface NearHit {
  index: number;
  distance: number;
}

/** Work counters (table cells, trie nodes visited), for tests that guard linearity without timing. */
export interface NearNameWork {
  cells: number;
  nodes: number;
  /** Walks cut short because the budget ran out. */
  exhausted: number;
}

/**
 * Counts every walk of every index, process-wide: tests read the difference around one call.
 * @internal
 */
export const nearNameWork: NearNameWork = { cells: 0, nodes: 0, exhausted: 0 };

/** The tables of an index that has not walked yet (shared: a walk replaces them before writing). */
const NO_CELLS = new Int32Array(0);
const acceptsNone = (): boolean => false;

export class NearNames {
  /** Built by the first walk (build). */
  private trie: TrieNode | undefined;
  /** The longest name in the trie. */
  private depth = 0;
  /** Nodes of the trie below its root: the most one walk enters. */
  private nodes = 0;
  private budget: number;
  /**
   * Answers by limit, then name, for an index that lives as long as one validation (none for a shared one). A
   * map per limit, keyed by the name itself: a key joining the two was a new string to hash on every look-up.
   */
  private memo: Map<string, NearHit[]>[] | undefined;

  // The walk in progress (one at a time): the name's characters, the limit (narrowing), the table rows of
  // the current path (row d at rows[d * width …]), the path's characters, what it found.
  private q = NO_CELLS;
  private m = 0;
  private width = 0;
  private limit = 0;
  private far = 0;
  private rows = NO_CELLS;
  private path = NO_CELLS;
  private hits: NearHit[] = [];
  private accepts: (name: string, distance: number) => boolean = acceptsNone;
  private exhausted = false;

  /**
   * @param names the user's functions in definition order (longer names than
   *   `maxLength` are never suggested, as in the full scan)
   * @param budget table cells this index may compute in all its walks
   * @param memo remember answers (an index per validation; a shared one must not grow)
   */
  constructor(
    readonly names: readonly string[],
    private readonly maxLength: number,
    budget: number,
    private readonly useMemo = true,
  ) {
    this.budget = budget;
  }

  /**
   * The trie, built on the first walk: most validations have no unknown name, so an index built at the end of
   * every one (and its tables) would be work for nothing.
   */
  private build(): TrieNode {
    const root = newNode();
    // The nodes of the previous name's path (path[d] at depth d): a name sharing its first characters with the
    // previous one (helper00001, helper00002 …) starts from there instead of looking its way down again.
    const path: TrieNode[] = [root];
    let previous = '';
    this.names.forEach((name, index) => {
      if (name.length > this.maxLength) return;
      const lower = name.toLowerCase();
      const length = lower.length;
      this.depth = Math.max(this.depth, length);
      let shared = 0;
      const most = Math.min(length, previous.length);
      while (shared < most && lower.charCodeAt(shared) === previous.charCodeAt(shared)) shared++;
      // The shared nodes already span the previous name's length: a name as long (numbered names) changes none.
      if (length !== previous.length) {
        for (let i = 0; i < shared; i++) {
          const node = path[i] as TrieNode;
          node.minLength = Math.min(node.minLength, length);
          node.maxLength = Math.max(node.maxLength, length);
        }
      }
      previous = lower;
      let node = path[shared] as TrieNode;
      for (let i = shared; ; i++) {
        path[i] = node;
        node.minLength = Math.min(node.minLength, length);
        node.maxLength = Math.max(node.maxLength, length);
        if (i === length) break;
        const c = lower.charCodeAt(i);
        const at = node.chars.indexOf(c);
        let next = at === -1 ? undefined : node.kids[at];
        if (!next) {
          next = newNode();
          this.nodes++;
          if (node.chars === NO_CHILDREN) {
            node.chars = [c];
            node.kids = [next];
          } else {
            node.chars.push(c);
            node.kids.push(next);
          }
        }
        node = next;
      }
      if (node.ends) node.ends.push(index);
      else node.ends = [index];
    });
    this.trie = root;
    return root;
  }

  /**
   * Whether `walks` walks with limits up to `maxLimit` can never run out of what is left of the budget, whatever
   * names they are for: a walk enters each node at most once and computes at most 2 × limit + 4 cells there
   * (enter). Skipping some walks then changes no other walk's answer.
   */
  covers(walks: number, maxLimit: number): boolean {
    // The walks of the names shown build the trie anyway.
    if (!this.trie) this.build();
    return walks * (2 * Math.max(0, maxLimit) + 4) * this.nodes <= this.budget;
  }

  /**
   * The functions a closest-name scan over them could pick for `lower` (a
   * lower-cased name) with `limit` as its largest useful distance, with their
   * exact distances, in definition order: every function within the smallest
   * distance that one of them takes (`accepts` says which distances a
   * function of that name may be suggested at). Empty when the budget ran out
   * during this walk or before it.
   */
  closest(lower: string, limit: number, accepts: (name: string, distance: number) => boolean): NearHit[] {
    if (limit < 0) return [];
    let memo: Map<string, NearHit[]> | undefined;
    if (this.useMemo) {
      this.memo ??= [];
      memo = this.memo[limit] ??= new Map();
    }
    const known = memo?.get(lower);
    if (known) return known;
    const result = this.walk(lower, limit, accepts) ? this.hits.sort((a, b) => a.index - b.index) : [];
    this.hits = [];
    memo?.set(lower, result);
    return result;
  }

  /** Depth-first over the trie; false when the budget ran out. */
  private walk(query: string, limit: number, accepts: (name: string, distance: number) => boolean): boolean {
    const root = this.trie ?? this.build();
    const m = query.length;
    const width = m + 1;
    if (this.q.length < m) this.q = new Int32Array(m);
    for (let j = 0; j < m; j++) this.q[j] = query.charCodeAt(j);
    this.m = m;
    this.width = width;
    this.limit = limit;
    this.far = limit + 1;
    this.accepts = accepts;
    this.exhausted = false;
    // Row d of the table (d characters of the candidate against the name): a walk keeps only the rows of the
    // path it is on. Cells farther than the limit from the diagonal are never within it, so only the band is
    // computed (with a `far` guard on each side).
    const size = (this.depth + 2) * width;
    if (this.rows.length < size) this.rows = new Int32Array(size);
    if (this.path.length < this.depth + 1) this.path = new Int32Array(this.depth + 1);
    for (let j = 0; j < width; j++) this.rows[j] = j <= limit ? j : this.far;
    if (root.maxLength + limit >= m && root.minLength - limit <= m) this.visit(root, 0);
    return !this.exhausted;
  }

  private visit(node: TrieNode, depth: number): void {
    const { m, width, rows } = this;
    if (node.ends && Math.abs(depth - m) <= this.limit) {
      const d = rows[depth * width + m] as number;
      if (d <= this.limit) {
        for (const index of node.ends) {
          this.hits.push({ index, distance: d });
          // A function this close is taken: farther ones can no longer win, so the walk narrows.
          if (d < this.limit && this.accepts(this.names[index] as string, d)) this.limit = d;
        }
      }
    }
    const { chars, kids } = node;
    if (kids.length === 0) return;
    // The branch that follows the best alignment so far first (the name's next character after the cell
    // where this row is smallest): a match found early narrows the rest of the walk.
    const at = depth * width;
    let best = -1;
    for (let j = Math.max(0, depth - this.limit); j < Math.min(m, depth + this.limit + 1); j++) {
      if (best === -1 || (rows[at + j] as number) < (rows[at + best] as number)) best = j;
    }
    const first = best === -1 ? -1 : chars.indexOf(this.q[best] as number);
    if (first !== -1) this.enter(chars[first] as number, kids[first] as TrieNode, depth + 1);
    for (let k = 0; k < kids.length && !this.exhausted; k++) {
      if (k !== first) this.enter(chars[k] as number, kids[k] as TrieNode, depth + 1);
    }
  }

  private enter(c: number, child: TrieNode, i: number): void {
    if (this.exhausted) return;
    const { m, width, rows, q, far } = this;
    const limit = this.limit;
    // Names below are too short or too long to come within the limit.
    if (child.maxLength + limit < m || child.minLength - limit > m) return;
    const from = Math.max(1, i - limit);
    const to = Math.min(m, i + limit);
    const cells = Math.max(0, to - from + 1) + 3;
    if (this.budget < cells) {
      this.exhausted = true;
      nearNameWork.exhausted++;
      return;
    }
    this.budget -= cells;
    nearNameWork.cells += cells;
    nearNameWork.nodes++;
    const at = i * width;
    const up = at - width;
    const upUp = up - width;
    const before = i > 1 ? (this.path[i - 2] as number) : -1;
    rows[at] = i <= limit ? i : far;
    if (from - 1 >= 1) rows[at + from - 1] = far;
    if (to + 1 <= m) rows[at + to + 1] = far;
    // The smallest distance any name below can still reach: a cell plus what the remaining lengths differ by.
    const remainingMin = child.minLength - i;
    const remainingMax = child.maxLength - i;
    let rest = m;
    let lowest = rows[at] + (rest < remainingMin ? remainingMin - rest : rest > remainingMax ? rest - remainingMax : 0);
    for (let j = from; j <= to; j++) {
      const cost = c === q[j - 1] ? 0 : 1;
      let value = Math.min(
        (rows[up + j] as number) + 1,
        (rows[at + j - 1] as number) + 1,
        (rows[up + j - 1] as number) + cost,
      );
      // Optimal string alignment: an adjacent transposition costs one.
      if (i > 1 && j > 1 && c === q[j - 2] && before === q[j - 1]) {
        value = Math.min(value, (rows[upUp + j - 2] as number) + 1);
      }
      if (value > far) value = far;
      rows[at + j] = value;
      rest = m - j;
      const reach = value + (rest < remainingMin ? remainingMin - rest : rest > remainingMax ? rest - remainingMax : 0);
      if (reach < lowest) lowest = reach;
    }
    // No name below can come back within the limit (see suggest.ts, editDistance).
    if (lowest > limit) return;
    this.path[i - 1] = c;
    this.visit(child, i);
  }
}

/**
 * "Did you mean" among the user's own functions, in time linear in the input
 * (issue 24, F5). Comparing every unknown name with every function by edit
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
  children?: Map<number, TrieNode>;
  /** Definition-order indices of the functions whose lower-cased name ends here. */
  ends?: number[];
}

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

/** Counts every walk of every index, process-wide: tests read the difference around one call. */
export const nearNameWork: NearNameWork = { cells: 0, nodes: 0, exhausted: 0 };

export class NearNames {
  private readonly root: TrieNode = {};
  private budget: number;
  private readonly memo = new Map<string, NearHit[]>();

  /**
   * @param names the user's functions in definition order (longer names than
   *   `maxLength` are never suggested, as in the full scan)
   * @param budget table cells this index may compute in all its walks
   */
  constructor(
    readonly names: readonly string[],
    maxLength: number,
    budget: number,
  ) {
    this.budget = budget;
    names.forEach((name, index) => {
      if (name.length > maxLength) return;
      const lower = name.toLowerCase();
      let node = this.root;
      for (let i = 0; i < lower.length; i++) {
        const c = lower.charCodeAt(i);
        node.children ??= new Map();
        let next = node.children.get(c);
        if (!next) {
          next = {};
          node.children.set(c, next);
        }
        node = next;
      }
      (node.ends ??= []).push(index);
    });
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
    const key = `${limit}\u0000${lower}`;
    const known = this.memo.get(key);
    if (known) return known;
    const hits: NearHit[] = [];
    const complete = this.walk(lower, limit, accepts, hits);
    const result = complete ? hits.sort((a, b) => a.index - b.index) : [];
    this.memo.set(key, result);
    return result;
  }

  /** Depth-first over the trie; false when the budget ran out. */
  private walk(
    query: string,
    start: number,
    accepts: (name: string, distance: number) => boolean,
    hits: NearHit[],
  ): boolean {
    const m = query.length;
    const q = new Array<number>(m);
    for (let j = 0; j < m; j++) q[j] = query.charCodeAt(j);
    // Cells farther than the limit from the diagonal are never within it: only the band is computed.
    let limit = start;
    const far = start + 1;
    const first = new Array<number>(m + 1);
    for (let j = 0; j <= m; j++) first[j] = j <= limit ? j : far;
    interface Frame {
      node: TrieNode;
      /** Row `depth` of the table (depth characters of the candidate against the query). */
      row: number[];
      /** The row above it (for transpositions), or undefined at the root. */
      above: number[] | undefined;
      /** The last character of the path (-1 at the root). */
      char: number;
      depth: number;
      /** The smallest value in `row`: no name below this node is closer. */
      min: number;
    }
    const stack: Frame[] = [{ node: this.root, row: first, above: undefined, char: -1, depth: 0, min: 0 }];
    while (stack.length > 0) {
      const frame = stack.pop() as Frame;
      const { node, row } = frame;
      // The walk may have narrowed since this branch was queued.
      if (frame.min > limit) continue;
      if (node.ends && frame.depth + limit >= m) {
        const d = row[m] as number;
        if (d <= limit) {
          for (const index of node.ends) {
            hits.push({ index, distance: d });
            // A function this close is taken: farther ones can no longer win, so the walk narrows.
            if (d < limit && accepts(this.names[index] as string, d)) limit = d;
          }
        }
      }
      if (!node.children) continue;
      const i = frame.depth + 1;
      const from = Math.max(1, i - limit);
      const to = Math.min(m, i + limit);
      if (from > to + 1) continue;
      const children: Frame[] = [];
      for (const [c, child] of node.children) {
        const cells = to - from + 2;
        if (this.budget < cells) {
          nearNameWork.exhausted++;
          return false;
        }
        this.budget -= cells;
        nearNameWork.cells += cells;
        nearNameWork.nodes++;
        const next = new Array<number>(m + 1).fill(far);
        next[0] = i <= limit ? i : far;
        let rowMin = next[0];
        for (let j = from; j <= to; j++) {
          const cost = c === q[j - 1] ? 0 : 1;
          let value = Math.min((row[j] as number) + 1, (next[j - 1] as number) + 1, (row[j - 1] as number) + cost);
          // Optimal string alignment: an adjacent transposition costs one.
          if (i > 1 && j > 1 && c === q[j - 2] && frame.char === q[j - 1]) {
            value = Math.min(value, ((frame.above as number[])[j - 2] as number) + 1);
          }
          next[j] = value > far ? far : value;
          if (value < rowMin) rowMin = value;
        }
        // No extension of this prefix can come back within the limit (see suggest.ts, editDistance).
        if (rowMin > limit) continue;
        children.push({ node: child, row: next, above: row, char: c, depth: i, min: rowMin });
      }
      // The closest branches are walked first (popped last pushed): a near match found early narrows the rest.
      children.sort((a, b) => b.min - a.min);
      for (const child of children) stack.push(child);
    }
    // Hits found before the walk narrowed may be farther than where it ended; the scan drops them itself.
    return true;
  }
}

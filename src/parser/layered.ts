/**
 * A map over a frozen base: reads see the base and what was added since,
 * writes go to its own layer. An analysis forked from a snapshot that is never
 * read on (fixes/resync.ts) shares the snapshot's tables this way instead of
 * copying them for every proof. Only what the analysis does with its tables
 * is supported: get, has, set (a key of the base is shadowed), size and
 * iteration in insertion order (the base first; a shadowed key is listed
 * twice, which an analysis that only adds names never causes). Deleting
 * removes from its own layer only.
 */
class LayeredMap<K, V> extends Map<K, V> {
  /** Layers below this one's own (a chain of forks of forks). */
  readonly depth: number;

  constructor(readonly base: ReadonlyMap<K, V>) {
    super();
    this.depth = base instanceof LayeredMap ? (base as LayeredMap<K, V>).depth + 1 : 1;
  }

  /** What was added over the base, in insertion order. */
  own(): MapIterator<[K, V]> {
    return super.entries();
  }

  get ownSize(): number {
    return super.size;
  }

  override get(key: K): V | undefined {
    return super.has(key) ? super.get(key) : this.base.get(key);
  }

  override has(key: K): boolean {
    return super.has(key) || this.base.has(key);
  }

  override get size(): number {
    return this.base.size + super.size;
  }

  override *keys(): MapIterator<K> {
    yield* this.base.keys();
    yield* super.keys();
  }

  override *values(): MapIterator<V> {
    yield* this.base.values();
    yield* super.values();
  }

  override *entries(): MapIterator<[K, V]> {
    yield* this.base.entries();
    yield* super.entries();
  }

  override [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  override forEach(callback: (value: V, key: K, map: Map<K, V>) => void): void {
    for (const [key, value] of this.entries()) callback(value, key, this);
  }
}

/**
 * The maps a map's entries come from, the bottom one first (read each with
 * ownEntries). Iterating a layered map through its generators (entries,
 * above) cost a proof more than the look-ups it saved; the order is the same
 * (the base first).
 */
function chainOf<K, V>(map: ReadonlyMap<K, V>): ReadonlyMap<K, V>[] {
  const chain: ReadonlyMap<K, V>[] = [];
  let at: ReadonlyMap<K, V> = map;
  while (at instanceof LayeredMap) {
    chain.push(at);
    at = (at as LayeredMap<K, V>).base;
  }
  chain.push(at);
  return chain.reverse();
}

/** What a map of a chain adds: a layer's own entries, or all of the plain map at the bottom. */
const ownEntries = <K, V>(map: ReadonlyMap<K, V>): MapIterator<[K, V]> =>
  map instanceof LayeredMap ? (map as LayeredMap<K, V>).own() : map.entries();

/**
 * True when two maps hold the same keys with `same` values. Two layers over
 * one base compare only what each added (a forked analysis and the original
 * it is compared with both layer over the same snapshot).
 */
function sameEntries<K, V>(a: ReadonlyMap<K, V>, b: ReadonlyMap<K, V>, same: (x: V, y: V) => boolean): boolean {
  if (a.size !== b.size) return false;
  // One map (the shared empty table of a scope without names), or two empty ones.
  if (a === b || a.size === 0) return true;
  const layerA = a instanceof LayeredMap ? (a as LayeredMap<K, V>) : undefined;
  const layerB = b instanceof LayeredMap ? (b as LayeredMap<K, V>) : undefined;
  if (layerA && layerB && layerA.base === layerB.base) {
    for (const [key, value] of layerA.own()) {
      const other = layerB.get(key);
      if (other === undefined || !same(value, other)) return false;
    }
    return true;
  }
  for (const layer of chainOf(a)) {
    for (const [key, value] of ownEntries(layer)) {
      const other = b.get(key);
      if (other === undefined || !same(value, other)) return false;
    }
  }
  return true;
}

/**
 * The entries a map held when the view was made, while the map grows on: an analysis that reads on shows a
 * snapshot of its tables this way (fixes/resync.ts) instead of going on in a layer over them (a chain that had to
 * be merged every few snapshots, copying every name so far). The map must only gain keys (never change or delete
 * one), and `held` must tell from a value whether its key was there: the analysis' tables hold the line a name was
 * defined or first assigned on, and a snapshot at the start of a line holds those of the lines before it. A view
 * is read only (a fork of the snapshot writes to a layer over it).
 */
class PrefixMap<K, V> extends Map<K, V> {
  private readonly count: number;

  constructor(
    private readonly full: ReadonlyMap<K, V>,
    private readonly held: (value: V) => boolean,
  ) {
    super();
    this.count = full.size;
  }

  override get(key: K): V | undefined {
    const value = this.full.get(key);
    return value !== undefined && this.held(value) ? value : undefined;
  }

  override has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  override get size(): number {
    return this.count;
  }

  override set(): this {
    throw new Error('a snapshot of an analysis is never written');
  }

  override delete(): boolean {
    throw new Error('a snapshot of an analysis is never written');
  }

  override *entries(): MapIterator<[K, V]> {
    let left = this.count;
    if (left === 0) return;
    for (const entry of this.full) {
      yield entry;
      if (--left === 0) return;
    }
  }

  override *keys(): MapIterator<K> {
    for (const [key] of this.entries()) yield key;
  }

  override *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  override [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  override forEach(callback: (value: V, key: K, map: Map<K, V>) => void): void {
    for (const [key, value] of this.entries()) callback(value, key, this);
  }
}

/** A read-only view of the entries `map` holds now, however it grows (see PrefixMap). */
export function prefixOf<K, V>(map: ReadonlyMap<K, V>, held: (value: V) => boolean): Map<K, V> {
  return new PrefixMap(map, held);
}

/**
 * sameEntries for a map `a` that is a layer over a map whose every entry `b` holds too (both grew from it by adding
 * keys it lacked, never changing one): only what `a` added over it is compared. An analysis forked from a snapshot
 * and the original read on from there (fixes/resync.ts) are such a pair, also where the original's table was merged
 * (layerOver) and no longer layers over the snapshot's: comparing those went through every name of the program so far.
 */
export function sameGrowth<K, V>(a: ReadonlyMap<K, V>, b: ReadonlyMap<K, V>, same: (x: V, y: V) => boolean): boolean {
  if (!(a instanceof LayeredMap)) return sameEntries(a, b, same);
  if (a.size !== b.size) return false;
  for (const [key, value] of (a as LayeredMap<K, V>).own()) {
    const other = b.get(key);
    if (other === undefined || !same(value, other)) return false;
  }
  return true;
}

/** A plain map with `map`'s entries in its order (a key set again keeps its place and takes the later value). */
function flatCopy<K, V>(map: ReadonlyMap<K, V>): Map<K, V> {
  const chain = chainOf(map);
  const out = new Map(chain[0]);
  for (let i = 1; i < chain.length; i++)
    for (const [key, value] of ownEntries(chain[i] as ReadonlyMap<K, V>)) out.set(key, value);
  return out;
}

/**
 * Chains of layers are kept short: a look-up walks them all. A layer over a
 * map that is already this deep gets a flat copy instead (see layerOver).
 */
export const MAX_LAYERS = 4;

/**
 * A new map that reads `base` (frozen from now on) and writes its own
 * entries: a layer, or a flat copy when `base` is already `maxDepth` layers
 * deep.
 */
export function layerOver<K, V>(base: ReadonlyMap<K, V>, maxDepth = MAX_LAYERS): Map<K, V> {
  const depth = base instanceof LayeredMap ? (base as LayeredMap<K, V>).depth : 0;
  return depth >= maxDepth ? (mergedLayer(base) ?? flatCopy(base)) : new LayeredMap(base);
}

/**
 * One layer over the bottom of `map`'s chain holding what the layers above it added, in order: it reads as
 * flatCopy's map does, and copies only the layers (the bottom is the largest map of a chain of snapshots: copying
 * it every few snapshots made taking them quadratic in the program's names). Undefined when a layer sets a key of
 * the bottom again, which a layer lists a second time where a flat copy keeps one place.
 */
function mergedLayer<K, V>(map: ReadonlyMap<K, V>): Map<K, V> | undefined {
  const chain = chainOf(map);
  const bottom = chain[0] as ReadonlyMap<K, V>;
  const merged = new LayeredMap(bottom);
  for (let i = 1; i < chain.length; i++) {
    for (const [key, value] of ownEntries(chain[i] as ReadonlyMap<K, V>)) {
      if (bottom.has(key)) return undefined;
      merged.set(key, value);
    }
  }
  return merged;
}

/**
 * A list that is only appended to, over a frozen base list (the pending calls
 * of an analysis forked from a snapshot): push, length, at and iteration, the
 * base's items first.
 */
export class AppendList<T> implements Iterable<T> {
  private readonly own: T[] = [];
  private readonly baseLength: number;
  readonly depth: number;

  constructor(private readonly base?: AppendList<T>) {
    this.baseLength = base?.length ?? 0;
    this.depth = base ? base.depth + 1 : 0;
  }

  push(item: T): void {
    this.own.push(item);
  }

  get length(): number {
    return this.baseLength + this.own.length;
  }

  at(index: number): T | undefined {
    return index < this.baseLength ? this.base?.at(index) : this.own[index - this.baseLength];
  }

  [Symbol.iterator](): Iterator<T> {
    // A list with no base (every analysis but a proof's fork) is its own array.
    return this.baseLength === 0 ? this.own[Symbol.iterator]() : this.layered();
  }

  private *layered(): Generator<T> {
    for (let i = 0; i < this.baseLength; i++) yield this.base?.at(i) as T;
    yield* this.own;
  }

  /**
   * A list that reads this one (frozen from now on) and appends its own items; of a deep chain, a list over its
   * bottom holding the items of the layers above (the bottom is not copied: see layerOver).
   */
  layer(maxDepth = MAX_LAYERS): AppendList<T> {
    if (this.depth < maxDepth) return new AppendList(this);
    const bottom = this.bottom();
    const merged = new AppendList<T>(bottom);
    for (let i = bottom.length; i < this.length; i++) merged.push(this.at(i) as T);
    return merged;
  }

  /** The list at the bottom of this one's chain (itself when it has no base). */
  private bottom(): AppendList<T> {
    return this.base ? this.base.bottom() : this;
  }

  /** An independent copy. */
  copy(): AppendList<T> {
    const flat = new AppendList<T>();
    for (const item of this) flat.push(item);
    return flat;
  }
}

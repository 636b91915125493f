/**
 * AVAP's run-time values (the specification's type table): null, bool, int
 * (64-bit; here exact up to 2^53, beyond is refused), float, string, list and
 * dict. An int is a JS number; a float is boxed in PyFloat so that `5.0` stays
 * a float (str() gives "5.0", `/` always gives one). A dict is a Map (insertion
 * order, non-string keys). Values from outside (JSON, database rows) come in
 * through fromPlain and go out through toPlain.
 */
import { RunFailure } from './failure';

export class PyFloat {
  constructor(readonly v: number) {}
}

export type DictKey = string | number | boolean | null;
export type Dict = Map<DictKey, Value>;
export type Value = null | boolean | number | PyFloat | string | Value[] | Dict;

/** Arrays made by a tuple literal `(a, b)`: Python prints them with parentheses and `%` formats with them. */
export const TUPLES = new WeakSet<Value[]>();

export type TypeName = 'NoneType' | 'bool' | 'int' | 'float' | 'str' | 'list' | 'dict';

export function isDict(v: Value): v is Dict {
  return v instanceof Map;
}

export function typeName(v: Value): TypeName {
  if (v === null) return 'NoneType';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'number':
      return 'int';
    case 'string':
      return 'str';
    default:
      if (v instanceof PyFloat) return 'float';
      if (Array.isArray(v)) return 'list';
      return 'dict';
  }
}

/** An int, checked to be exact: beyond 2^53 a JS number cannot hold AVAP's 64-bit ints, so the run refuses. */
export function int(n: number): number {
  if (!Number.isSafeInteger(n)) {
    if (!Number.isFinite(n)) throw RunFailure.py('OverflowError', 'value-error', 'integer value out of range');
    throw RunFailure.unsupported(
      `the integer ${n.toExponential(3)}`,
      'integers beyond 2^53 cannot be represented exactly by this runtime',
    );
  }
  return n === 0 ? 0 : n; // no -0 for an int
}

export function float(n: number): PyFloat {
  return new PyFloat(n);
}

/** The numeric value of an int, float or bool (Python treats bools as 0 and 1); undefined for anything else. */
export function numeric(v: Value): number | undefined {
  if (typeof v === 'number') return v;
  if (v instanceof PyFloat) return v.v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return undefined;
}

/** Python's truth value. */
export function truthy(v: Value): boolean {
  if (v === null) return false;
  switch (typeof v) {
    case 'boolean':
      return v;
    case 'number':
      return v !== 0;
    case 'string':
      return v.length > 0;
    default:
      if (v instanceof PyFloat) return v.v !== 0;
      if (Array.isArray(v)) return v.length > 0;
      return v.size > 0;
  }
}

/** A dict key from a value (floats by their number, as Python hashes 1.0 like 1). */
export function dictKey(v: Value): DictKey {
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (v instanceof PyFloat) return v.v;
  throw RunFailure.py('TypeError', 'type-error', `unhashable type: '${typeName(v)}'`);
}

/** A value from JSON-like data: integral numbers become ints, others floats; objects become dicts. */
export function fromPlain(x: unknown, depth = 0): Value {
  if (x === null || x === undefined) return null;
  switch (typeof x) {
    case 'boolean':
    case 'string':
      return x;
    case 'number':
      return Number.isSafeInteger(x) ? (x === 0 ? 0 : x) : new PyFloat(x);
    case 'bigint':
      return Number.isSafeInteger(Number(x)) ? Number(x) : x.toString();
    case 'object': {
      if (depth > 200) throw RunFailure.unsupported('data nested more than 200 levels deep', 'too deep to convert');
      if (x instanceof PyFloat) return x;
      if (Array.isArray(x)) return x.map((e) => fromPlain(e, depth + 1));
      if (x instanceof Date) return Number.isNaN(x.getTime()) ? null : x.toISOString();
      if (x instanceof Uint8Array) return Buffer.from(x).toString('hex');
      if (x instanceof Map) {
        const m: Dict = new Map();
        for (const [k, v] of x) m.set(dictKey(fromPlain(k, depth + 1)), fromPlain(v, depth + 1));
        return m;
      }
      const m: Dict = new Map();
      for (const [k, v] of Object.entries(x as Record<string, unknown>)) m.set(k, fromPlain(v, depth + 1));
      return m;
    }
    default:
      return typeof x === 'symbol' ? x.toString() : null;
  }
}

/** The JSON form of a dict key, as Python's json module writes it. */
function jsonKey(k: DictKey): string {
  if (typeof k === 'string') return k;
  if (k === null) return 'null';
  if (typeof k === 'boolean') return k ? 'true' : 'false';
  return Number.isInteger(k) ? String(k) : String(k);
}

/**
 * Sets `o[key]` as an own property for every key. A name of the program is any key: `o.__proto__ = v` would
 * set the object's prototype instead (and drop the name), so that one key is defined, as JSON.parse defines it.
 */
export function setPlain(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
  else o[key] = value;
}

/** Plain JSON-like data for the caller: floats unboxed, dicts as objects. */
export function toPlain(v: Value): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof PyFloat) return v.v;
  if (Array.isArray(v)) return v.map(toPlain);
  const o: Record<string, unknown> = {};
  for (const [k, e] of v) setPlain(o, jsonKey(k), toPlain(e));
  return o;
}

/** A copy that shares nothing mutable with `v` (a snapshot for addResult and go_async). */
export function deepCopy(v: Value): Value {
  if (v === null || typeof v !== 'object' || v instanceof PyFloat) return v;
  if (Array.isArray(v)) return v.map(deepCopy);
  const m: Dict = new Map();
  for (const [k, e] of v) m.set(k, deepCopy(e));
  return m;
}

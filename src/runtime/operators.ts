/**
 * Python's operators on AVAP values, with Python's results and errors: the
 * reference evaluates expressions with Python, so `"T-" + str(i)` concatenates,
 * `"T-" + 1` is a TypeError, `7 / 2` is 3.5, `-7 % 3` is 2 and `1 == 1.0`.
 */
import { RunFailure } from './failure';
import { pyRepr, pyStr } from './pytext';
import { dictKey, float, int, numeric, PyFloat, TUPLES, typeName, type Value } from './values';

function typeError(message: string): RunFailure {
  return RunFailure.py('TypeError', 'type-error', message);
}

function operandError(op: string, a: Value, b: Value): RunFailure {
  return typeError(`unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

const isNum = (v: Value): boolean => typeof v === 'number' || v instanceof PyFloat || typeof v === 'boolean';
const isFloat = (a: Value, b: Value): boolean => a instanceof PyFloat || b instanceof PyFloat;

function arith(a: Value, b: Value, n: number): Value {
  return isFloat(a, b) ? float(n) : int(n);
}

export function add(a: Value, b: Value): Value {
  if (typeof a === 'string') {
    if (typeof b === 'string') return a + b;
    throw typeError(`can only concatenate str (not "${typeName(b)}") to str`);
  }
  if (isNum(a) && isNum(b)) return arith(a, b, (numeric(a) as number) + (numeric(b) as number));
  if (Array.isArray(a)) {
    if (Array.isArray(b)) return [...a, ...b];
    throw typeError(`can only concatenate list (not "${typeName(b)}") to list`);
  }
  throw operandError('+', a, b);
}

export function subtract(a: Value, b: Value): Value {
  if (isNum(a) && isNum(b)) return arith(a, b, (numeric(a) as number) - (numeric(b) as number));
  throw operandError('-', a, b);
}

function repeat(seq: string | Value[], times: number): Value {
  const n = Math.max(0, times);
  if (typeof seq === 'string') {
    if (seq.length * n > 10_000_000) throw RunFailure.unsupported('a text longer than 10,000,000 characters', 'memory');
    return seq.repeat(n);
  }
  if (seq.length * n > 1_000_000) throw RunFailure.unsupported('a list longer than 1,000,000 items', 'memory');
  const out: Value[] = [];
  for (let i = 0; i < n; i++) out.push(...seq);
  return out;
}

export function multiply(a: Value, b: Value): Value {
  if (isNum(a) && isNum(b)) return arith(a, b, (numeric(a) as number) * (numeric(b) as number));
  const intLike = (v: Value): v is number | boolean => typeof v === 'number' || typeof v === 'boolean';
  if ((typeof a === 'string' || Array.isArray(a)) && intLike(b)) return repeat(a, numeric(b) as number);
  if ((typeof b === 'string' || Array.isArray(b)) && intLike(a)) return repeat(b, numeric(a) as number);
  if (typeof a === 'string' || Array.isArray(a) || typeof b === 'string' || Array.isArray(b)) {
    const seq = typeof a === 'string' || Array.isArray(a) ? b : a;
    throw typeError(`can't multiply sequence by non-int of type '${typeName(seq)}'`);
  }
  throw operandError('*', a, b);
}

export function divide(a: Value, b: Value): Value {
  if (!(isNum(a) && isNum(b))) throw operandError('/', a, b);
  const d = numeric(b) as number;
  if (d === 0) throw RunFailure.py('ZeroDivisionError', 'zero-division', 'division by zero');
  return float((numeric(a) as number) / d);
}

export function modulo(a: Value, b: Value): Value {
  if (typeof a === 'string') return formatPercent(a, b);
  if (!(isNum(a) && isNum(b))) throw operandError('%', a, b);
  const x = numeric(a) as number;
  const y = numeric(b) as number;
  if (y === 0) {
    throw RunFailure.py(
      'ZeroDivisionError',
      'zero-division',
      isFloat(a, b) ? 'float modulo' : 'integer modulo by zero',
    );
  }
  // Python's modulo takes the sign of the divisor.
  const r = x - y * Math.floor(x / y);
  return arith(a, b, r);
}

export function power(a: Value, b: Value): Value {
  if (!(isNum(a) && isNum(b))) throw operandError('** or pow()', a, b);
  const x = numeric(a) as number;
  const y = numeric(b) as number;
  if (isFloat(a, b) || y < 0) {
    if (x === 0 && y < 0) {
      throw RunFailure.py('ZeroDivisionError', 'zero-division', '0.0 cannot be raised to a negative power');
    }
    return float(x ** y);
  }
  return int(x ** y);
}

export function negate(a: Value): Value {
  if (typeof a === 'number' || typeof a === 'boolean') return int(-(numeric(a) as number));
  if (a instanceof PyFloat) return float(-a.v);
  throw typeError(`bad operand type for unary -: '${typeName(a)}'`);
}

export function plus(a: Value): Value {
  if (typeof a === 'number' || typeof a === 'boolean') return int(numeric(a) as number);
  if (a instanceof PyFloat) return a;
  throw typeError(`bad operand type for unary +: '${typeName(a)}'`);
}

/** Python's ==. */
export function equals(a: Value, b: Value, depth = 0): boolean {
  if (a === b) return true;
  if (isNum(a) && isNum(b)) return numeric(a) === numeric(b);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (depth > 100) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((e, i) => equals(e, b[i] as Value, depth + 1));
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    for (const [k, e] of a) {
      if (!b.has(k) || !equals(e, b.get(k) as Value, depth + 1)) return false;
    }
    return true;
  }
  return false;
}

export type Ordering = '<' | '>' | '<=' | '>=';

function order(a: Value, b: Value, op: Ordering, depth: number): number {
  if (isNum(a) && isNum(b)) {
    const x = numeric(a) as number;
    const y = numeric(b) as number;
    return x < y ? -1 : x > y ? 1 : x === y ? 0 : NaN;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (Array.isArray(a) && Array.isArray(b) && depth < 100) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      if (!equals(a[i] as Value, b[i] as Value)) return order(a[i] as Value, b[i] as Value, op, depth + 1);
    }
    return a.length - b.length;
  }
  throw typeError(`'${op}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
}

/** Python's < > <= >=, with its TypeError for values of different kinds. */
export function compare(op: Ordering, a: Value, b: Value): boolean {
  const c = order(a, b, op, 0);
  switch (op) {
    case '<':
      return c < 0;
    case '>':
      return c > 0;
    case '<=':
      return c <= 0;
    case '>=':
      return c >= 0;
  }
}

/** Python's `item in container`. */
export function contains(container: Value, item: Value): boolean {
  if (typeof container === 'string') {
    if (typeof item !== 'string') {
      throw typeError(`'in <string>' requires string as left operand, not ${typeName(item)}`);
    }
    return container.includes(item);
  }
  if (Array.isArray(container)) return container.some((e) => equals(e, item));
  if (container instanceof Map) return container.has(dictKey(item));
  throw typeError(`argument of type '${typeName(container)}' is not iterable`);
}

function indexInt(v: Value, what: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  throw typeError(`${what} indices must be integers or slices, not ${typeName(v)}`);
}

/** Python's code points of a text (a string index counts characters, not UTF-16 units). */
function chars(s: string): string[] {
  return Array.from(s);
}

/** Python's `obj[key]`. */
export function index(obj: Value, key: Value): Value {
  if (Array.isArray(obj) || typeof obj === 'string') {
    const what = typeof obj === 'string' ? 'string' : TUPLES.has(obj) ? 'tuple' : 'list';
    const seq: readonly Value[] = typeof obj === 'string' ? chars(obj) : obj;
    let i = indexInt(key, what);
    if (i < 0) i += seq.length;
    if (i < 0 || i >= seq.length) throw RunFailure.py('IndexError', 'index-error', `${what} index out of range`);
    return seq[i] as Value;
  }
  if (obj instanceof Map) {
    const k = dictKey(key);
    if (!obj.has(k)) throw RunFailure.py('KeyError', 'key-error', pyRepr(key));
    return obj.get(k) as Value;
  }
  throw typeError(`'${typeName(obj)}' object is not subscriptable`);
}

/** Python's `obj[lo:hi]` (step 1). */
export function slice(obj: Value, lo: Value, hi: Value): Value {
  if (!(Array.isArray(obj) || typeof obj === 'string')) {
    throw typeError(`'${typeName(obj)}' object is not subscriptable`);
  }
  const seq: readonly Value[] = typeof obj === 'string' ? chars(obj) : obj;
  const n = seq.length;
  const bound = (v: Value, fallback: number): number => {
    if (v === null) return fallback;
    let i = indexInt(v, 'slice');
    if (i < 0) i += n;
    return Math.max(0, Math.min(n, i));
  };
  const part = seq.slice(bound(lo, 0), bound(hi, n));
  return typeof obj === 'string' ? (part as string[]).join('') : part;
}

/** Python's len(). */
export function length(v: Value): number {
  if (typeof v === 'string') return chars(v).length;
  if (Array.isArray(v)) return v.length;
  if (v instanceof Map) return v.size;
  throw typeError(`object of type '${typeName(v)}' has no len()`);
}

/** Python's `text % args` for %s %r %d %i %f %% (what AVAP documentation uses to build SQL). */
function formatPercent(format: string, args: Value): string {
  const list = Array.isArray(args) && TUPLES.has(args) ? args : [args];
  let next = 0;
  const take = (): Value => {
    if (next >= list.length) throw typeError('not enough arguments for format string');
    return list[next++] as Value;
  };
  // eslint-disable-next-line max-params -- String.replace hands a replacer the match and its groups in a row
  const out = format.replace(/%([-+ 0#]*)(\d+)?(?:\.(\d+))?([sdifr%])/g, (_m, _flags, width, precision, conv) => {
    let text: string;
    switch (conv as string) {
      case '%':
        return '%';
      case 's':
        text = pyStr(take());
        break;
      case 'r':
        text = pyRepr(take());
        break;
      case 'd':
      case 'i': {
        const v = take();
        const n = numeric(v);
        if (n === undefined)
          throw typeError(`%${conv as string} format: a real number is required, not ${typeName(v)}`);
        text = String(Math.trunc(n));
        break;
      }
      default: {
        const v = take();
        const n = numeric(v);
        if (n === undefined) throw typeError(`must be real number, not ${typeName(v)}`);
        text = n.toFixed(precision === undefined ? 6 : Number(precision));
      }
    }
    return width ? text.padStart(Number(width)) : text;
  });
  if (next < list.length) throw typeError('not all arguments converted during string formatting');
  return out;
}

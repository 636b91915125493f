/**
 * Values as text, the way the reference implementation (Python) writes them:
 * str() for concatenation, templates and hashing, repr() inside lists and
 * dicts, and json.dumps() for request bodies. AVAP programs see these texts
 * (`"T-" + str(i)`, `${price}` in a template), so they follow Python exactly.
 */
import { PyFloat, TUPLES, type DictKey, type Value } from './values';

/**
 * Python's repr() of a float: the shortest text that reads back, fixed between 1e-4 and 1e16, else scientific.
 * @internal
 */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mantissa = '0', expText = '0'] = Math.abs(x).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exp = Number(expText);
  if (exp < -4 || exp >= 16) {
    const rest = digits.slice(1);
    const e = Math.abs(exp);
    return `${sign}${digits[0] ?? '0'}${rest ? `.${rest}` : ''}e${exp < 0 ? '-' : '+'}${e < 10 ? `0${e}` : e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${whole}.${frac || '0'}`;
}

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}

/**
 * Python's repr() of a string.
 * @internal
 */
export function stringRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f || (c >= 0x80 && c <= 0xa0) || c === 0xad) out += `\\x${hex(c, 2)}`;
    else if (c >= 0xd800 && c <= 0xdfff) out += `\\u${hex(c, 4)}`;
    else out += ch;
  }
  return out + quote;
}

function keyRepr(k: DictKey): string {
  if (k === null) return 'None';
  if (typeof k === 'boolean') return k ? 'True' : 'False';
  if (typeof k === 'string') return stringRepr(k);
  return Number.isInteger(k) ? String(k) : floatRepr(k);
}

/** Python's repr(). */
export function pyRepr(v: Value, depth = 0): string {
  if (typeof v === 'string') return stringRepr(v);
  if (depth > 100) return '...';
  if (Array.isArray(v)) {
    const items = v.map((e) => pyRepr(e, depth + 1));
    if (!TUPLES.has(v)) return `[${items.join(', ')}]`;
    return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
  }
  if (v instanceof Map) {
    const parts: string[] = [];
    for (const [k, e] of v) parts.push(`${keyRepr(k)}: ${pyRepr(e, depth + 1)}`);
    return `{${parts.join(', ')}}`;
  }
  return pyStr(v);
}

/** Python's str(). */
export function pyStr(v: Value): string {
  if (v === null) return 'None';
  switch (typeof v) {
    case 'string':
      return v;
    case 'boolean':
      return v ? 'True' : 'False';
    case 'number':
      return String(v);
    default:
      if (v instanceof PyFloat) return floatRepr(v.v);
      return pyRepr(v);
  }
}

function jsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x08) out += '\\b';
    else if (c === 0x0c) out += '\\f';
    else if (c < 0x20 || c > 0x7e) out += `\\u${hex(c, 4)}`;
    else out += s[i];
  }
  return `${out}"`;
}

function jsonFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return floatRepr(x);
}

function jsonKey(k: DictKey): string {
  if (typeof k === 'string') return jsonString(k);
  if (k === null) return '"null"';
  if (typeof k === 'boolean') return k ? '"true"' : '"false"';
  return `"${Number.isInteger(k) ? String(k) : jsonFloat(k)}"`;
}

/** Python's json.dumps() with its defaults: ", " and ": " separators, non-ASCII escaped. */
export function pyJsonDumps(v: Value, depth = 0): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return jsonString(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      return String(v);
    default:
      if (v instanceof PyFloat) return jsonFloat(v.v);
      if (depth > 100) return 'null';
      if (Array.isArray(v)) return `[${v.map((e) => pyJsonDumps(e, depth + 1)).join(', ')}]`;
      {
        const parts: string[] = [];
        for (const [k, e] of v) parts.push(`${jsonKey(k)}: ${pyJsonDumps(e, depth + 1)}`);
        return `{${parts.join(', ')}}`;
      }
  }
}

/**
 * Compiles a parsed expression into a closure, once per program: evaluating it
 * on a run is then a walk of plain function calls, with no parsing and no
 * JavaScript eval anywhere. Errors are Python's (TypeError, NameError, …) as
 * RunFailures carrying the Python type, so the statement that evaluates can
 * apply the reference's fallback.
 */
import { RunFailure } from '../failure';
import {
  add,
  compare,
  contains,
  divide,
  equals,
  index,
  length,
  modulo,
  multiply,
  negate,
  plus,
  power,
  slice,
  subtract,
} from '../operators';
import { pyStr } from '../pytext';
import { dictKey, float, int, PyFloat, truthy, TUPLES, typeName, type Dict, type Value } from '../values';
import type { BinOp, CompareOp, ConstValue, Node } from './parse';

/** What an expression reads from the run. */
export interface Env {
  /** The value of a variable, or undefined when it is not set. */
  read(name: string): Value | undefined;
  /** `$name`: the variable of the top-level namespace. */
  readGlobal(name: string): Value | undefined;
  /** A backtick template's text with its placeholders filled. */
  template(raw: string): string;
}

export type Compiled = (env: Env) => Value;

function constant(value: ConstValue): Value {
  if (value !== null && typeof value === 'object') return float(value.float);
  return value;
}

const BIN: Readonly<Record<BinOp, (a: Value, b: Value) => Value>> = {
  '+': add,
  '-': subtract,
  '*': multiply,
  '/': divide,
  '%': modulo,
  '**': power,
};

function identical(a: Value, b: Value): boolean {
  if (a === null || b === null || typeof a === 'boolean' || typeof b === 'boolean') return a === b;
  if (typeof a !== typeof b) return false;
  if (a instanceof PyFloat || b instanceof PyFloat) return a instanceof PyFloat && b instanceof PyFloat && a.v === b.v;
  return a === b;
}

function compareOne(op: CompareOp, a: Value, b: Value): boolean {
  switch (op) {
    case '==':
      return equals(a, b);
    case '!=':
      return !equals(a, b);
    case 'in':
      return contains(b, a);
    case 'not in':
      return !contains(b, a);
    case 'is':
      return identical(a, b);
    case 'is not':
      return !identical(a, b);
    default:
      return compare(op, a, b);
  }
}

function nameError(name: string): RunFailure {
  return RunFailure.py('NameError', 'value-error', `name '${name}' is not defined`);
}

const INT_TEXT = /^[+-]?(?:\d(?:_?\d)*)$/;
const FLOAT_TEXT =
  /^[+-]?(?:(?:\d(?:_?\d)*)?\.?\d(?:_?\d)*(?:[eE][+-]?\d(?:_?\d)*)?|(?:\d(?:_?\d)*)\.(?:[eE][+-]?\d(?:_?\d)*)?|inf(?:inity)?|nan)$/i;

/** Python's int(): numbers truncate, text must be an integer literal (spaces, sign and `_` allowed). */
export function toInt(v: Value, base?: Value): number {
  if (base !== undefined) {
    if (typeof v !== 'string')
      throw RunFailure.py('TypeError', 'type-error', "int() can't convert non-string with explicit base");
    const b = typeof base === 'number' ? base : NaN;
    const text = v.trim().replace(/_/g, '').toLowerCase();
    const digits = text.replace(/^[+-]/, '').replace(/^0[xob]/, '');
    const n = parseInt(text, b);
    if (
      !(b >= 2 && b <= 36) ||
      Number.isNaN(n) ||
      digits.length === 0 ||
      [...digits].some((d) => !(parseInt(d, b) >= 0))
    ) {
      throw RunFailure.py('ValueError', 'value-error', `invalid literal for int() with base ${pyStr(base)}: '${v}'`);
    }
    return int(n);
  }
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof PyFloat) {
    if (!Number.isFinite(v.v)) {
      throw RunFailure.py('ValueError', 'value-error', `cannot convert float ${pyStr(v)} to integer`);
    }
    return int(Math.trunc(v.v));
  }
  if (typeof v === 'string') {
    const text = v.trim();
    if (!INT_TEXT.test(text))
      throw RunFailure.py('ValueError', 'value-error', `invalid literal for int() with base 10: '${v}'`);
    return int(Number(text.replace(/_/g, '')));
  }
  throw RunFailure.py(
    'TypeError',
    'type-error',
    `int() argument must be a string, a bytes-like object or a real number, not '${typeName(v)}'`,
  );
}

/** Python's float(). */
export function toFloat(v: Value): PyFloat {
  if (typeof v === 'number') return float(v);
  if (typeof v === 'boolean') return float(v ? 1 : 0);
  if (v instanceof PyFloat) return v;
  if (typeof v === 'string') {
    const text = v.trim();
    if (!FLOAT_TEXT.test(text))
      throw RunFailure.py('ValueError', 'value-error', `could not convert string to float: '${v}'`);
    const lower = text.toLowerCase().replace(/_/g, '');
    if (lower.endsWith('inf') || lower.endsWith('infinity')) return float(lower.startsWith('-') ? -Infinity : Infinity);
    if (lower.endsWith('nan')) return float(NaN);
    return float(Number(lower));
  }
  throw RunFailure.py(
    'TypeError',
    'type-error',
    `float() argument must be a string or a real number, not '${typeName(v)}'`,
  );
}

function builtin(callee: string, args: Value[]): Value {
  const arity = (min: number, max: number): void => {
    if (args.length < min || args.length > max) {
      throw RunFailure.py(
        'TypeError',
        'type-error',
        `${callee}() takes ${max === min ? min : `${min} to ${max}`} arguments (${args.length} given)`,
      );
    }
  };
  switch (callee) {
    case 'str':
      arity(0, 1);
      return args.length === 0 ? '' : pyStr(args[0] as Value);
    case 'int':
      arity(0, 2);
      return args.length === 0 ? 0 : toInt(args[0] as Value, args[1]);
    case 'float':
      arity(0, 1);
      return args.length === 0 ? float(0) : toFloat(args[0] as Value);
    case 'len':
      arity(1, 1);
      return length(args[0] as Value);
    default:
      throw nameError(callee);
  }
}

const BUILTINS = new Set(['str', 'int', 'float', 'len']);

/** Compiles a node; `functions` are the program's user functions (a call of one inside an expression is refused). */
export function compile(node: Node, functions: ReadonlySet<string>): Compiled {
  const c = (n: Node): Compiled => compile(n, functions);
  switch (node.t) {
    case 'const': {
      const v = constant(node.value);
      return () => v;
    }
    case 'name': {
      const id = node.id;
      return (env) => {
        const v = env.read(id);
        if (v === undefined) throw nameError(id);
        return v;
      };
    }
    case 'global': {
      const id = node.id;
      return (env) => {
        const v = env.readGlobal(id);
        if (v === undefined) throw nameError(`$${id}`);
        return v;
      };
    }
    case 'template': {
      const raw = node.raw;
      return (env) => env.template(raw);
    }
    case 'list': {
      const items = node.items.map(c);
      return (env) => items.map((f) => f(env));
    }
    case 'tuple': {
      const items = node.items.map(c);
      return (env) => {
        const t = items.map((f) => f(env));
        TUPLES.add(t);
        return t;
      };
    }
    case 'dict': {
      const keys = node.keys.map(c);
      const values = node.values.map(c);
      return (env) => {
        const d: Dict = new Map();
        for (let i = 0; i < keys.length; i++) d.set(dictKey((keys[i] as Compiled)(env)), (values[i] as Compiled)(env));
        return d;
      };
    }
    case 'bin': {
      const f = BIN[node.op];
      const l = c(node.left);
      const r = c(node.right);
      return (env) => f(l(env), r(env));
    }
    case 'unary': {
      const x = c(node.operand);
      if (node.op === 'not') return (env) => !truthy(x(env));
      const f = node.op === '-' ? negate : plus;
      return (env) => f(x(env));
    }
    case 'bool': {
      const l = c(node.left);
      const r = c(node.right);
      return node.op === 'and'
        ? (env) => {
            const a = l(env);
            return truthy(a) ? r(env) : a;
          }
        : (env) => {
            const a = l(env);
            return truthy(a) ? a : r(env);
          };
    }
    case 'compare': {
      const first = c(node.first);
      const ops = node.ops;
      const rest = node.rest.map(c);
      return (env) => {
        let left = first(env);
        for (let i = 0; i < ops.length; i++) {
          const right = (rest[i] as Compiled)(env);
          if (!compareOne(ops[i] as CompareOp, left, right)) return false;
          left = right;
        }
        return true;
      };
    }
    case 'ifexp': {
      const test = c(node.test);
      const body = c(node.body);
      const orelse = c(node.orelse);
      return (env) => (truthy(test(env)) ? body(env) : orelse(env));
    }
    case 'call': {
      const callee = node.callee;
      if (functions.has(callee) && !BUILTINS.has(callee)) {
        return () => {
          throw RunFailure.unsupported(
            `calling the function '${callee}' inside an expression`,
            'a function call must be the whole value: x = name(args)',
          );
        };
      }
      const args = node.args.map(c);
      return (env) => {
        // A variable of that name is not callable (Python would say so); an unknown name is a NameError.
        if (!BUILTINS.has(callee)) {
          const v = env.read(callee);
          if (v !== undefined)
            throw RunFailure.py('TypeError', 'type-error', `'${typeName(v)}' object is not callable`);
        }
        return builtin(
          callee,
          args.map((f) => f(env)),
        );
      };
    }
    case 'index': {
      const obj = c(node.obj);
      const key = c(node.key);
      return (env) => index(obj(env), key(env));
    }
    case 'slice': {
      const obj = c(node.obj);
      const lo = node.lo ? c(node.lo) : () => null;
      const hi = node.hi ? c(node.hi) : () => null;
      return (env) => slice(obj(env), lo(env), hi(env));
    }
    case 'attr': {
      const obj = c(node.obj);
      const name = node.name;
      return (env) => {
        const v = obj(env);
        throw RunFailure.py('AttributeError', 'type-error', `'${typeName(v)}' object has no attribute '${name}'`);
      };
    }
  }
}

/**
 * The conditions of if() and the bounds of startLoop().
 *
 * if(a, b, comparator): both operands resolve from the variables when they
 * name one, else they are their literal (specification). How two values
 * compare the specification does not say, so the reference decides: each side
 * is read as a number when its text is one, `=`/`==`/`!=` compare the texts
 * (so 5 equals "5"), and `<`, `>`, `<=`, `>=` compare numbers or texts —
 * a number against a text is a TypeError. An empty operand tests emptiness:
 * `if(user, , !=)` is true when `user` holds something (the specification's
 * own example).
 *
 * startLoop(i, from, to): each bound is a variable, a number, or — as the
 * reference reads it — an expression; then Python's int() of it.
 */
import type { ArgSpec } from './args';
import { compileExpr, type Expr } from './compile';
import { toInt } from './expressions/evaluate';
import { RunFailure } from './failure';
import { compare, contains, type Ordering } from './operators';
import { pyStr } from './pytext';
import type { Frame } from './scope';
import { PyFloat, truthy, type Value } from './values';

const INT = /^[+-]?\d(?:_?\d)*$/;
const FLOAT = /^[+-]?(?:\d(?:_?\d)*)?\.(?:\d(?:_?\d)*)?(?:[eE][+-]?\d+)?$|^[+-]?\d(?:_?\d)*\.?(?:[eE][+-]?\d+)$/;

/** The reference's reading of an operand: its text without blanks and quotes, as a number when it is one. */
function asNumberOrText(v: Value): Value {
  const s = pyStr(v)
    .trim()
    .replace(/^"+|"+$/g, '')
    .replace(/^'+|'+$/g, '');
  if (s.includes('.')) {
    if (FLOAT.test(s) && /\d/.test(s)) return new PyFloat(Number(s.replace(/_/g, '')));
    return s;
  }
  if (INT.test(s)) {
    const n = Number(s.replace(/_/g, ''));
    return Number.isSafeInteger(n) ? n : s;
  }
  return s;
}

const ORDERINGS = new Set(['<', '>', '<=', '>=']);

/** The outcome of `a comparator b` by the reference's rules. */
function compareOperands(a: Value, b: Value, comparator: string): boolean {
  switch (comparator) {
    case '=':
    case '==':
      return pyStr(asNumberOrText(a)) === pyStr(asNumberOrText(b));
    case '!=':
      return pyStr(asNumberOrText(a)) !== pyStr(asNumberOrText(b));
    case 'in':
      return contains(b, a);
    default:
      if (ORDERINGS.has(comparator)) return compare(comparator as Ordering, asNumberOrText(a), asNumberOrText(b));
      throw RunFailure.of('argument-error', `unknown comparator '${comparator}' — use one of = == != < > <= >= in`);
  }
}

/** None, empty text, an empty list or dict. */
function isEmptyValue(v: Value): boolean {
  return v === null || v === '' || (Array.isArray(v) && v.length === 0) || (v instanceof Map && v.size === 0);
}

/**
 * An empty operand, as the specification's own example uses it (`if(user, , !=)` guards the use of `user`):
 * `=` / `==` test that the other side is empty (None, "", [], {}), `!=` that it is not.
 */
function emptiness(other: Value, bothEmpty: boolean, comparator: string): boolean {
  const empty = bothEmpty || isEmptyValue(other);
  switch (comparator) {
    case '=':
    case '==':
      return empty;
    case '!=':
      return !empty;
    default:
      throw RunFailure.of('argument-error', `if(): '${comparator}' cannot compare with an empty operand — use = or !=`);
  }
}

/** The value of an operand as the reference reads it: its literal, never a variable. */
function referenceOperand(spec: ArgSpec): Value {
  if (spec.empty) return null;
  return spec.number !== undefined ? spec.number : spec.text;
}

export function ifCondition(frame: Frame, args: readonly ArgSpec[], condition: Expr | undefined): boolean {
  if (condition) {
    frame.note('if-expression-form');
    return truthy(frame.evaluateStrict(condition));
  }
  if (args.length !== 3) {
    throw RunFailure.unsupported(
      `if() with ${args.length} arguments`,
      'the specification defines if(variable, variableValue, comparator)',
    );
  }
  const [a, b, c] = args as [ArgSpec, ArgSpec, ArgSpec];
  const left = frame.resolve(a);
  const right = frame.resolve(b);
  const comparator = c.text.trim();
  if (comparator === 'in') frame.note('if-in-comparator');
  if (a.empty || b.empty) return emptiness(a.empty ? right : left, a.empty && b.empty, comparator);
  const outcome = compareOperands(left, right, comparator);
  if (!b.empty && b.template === undefined && b.global === undefined && frame.get(b.text) !== undefined) {
    let reference: boolean | string;
    try {
      reference = comparator === 'in' ? false : compareOperands(left, referenceOperand(b), comparator);
    } catch (e) {
      reference = e instanceof Error ? e.message : String(e);
    }
    if (reference !== outcome) {
      frame.note(
        'if-second-operand',
        typeof reference === 'string'
          ? `it fails: ${reference}`
          : `it compares with the text "${b.text}" and goes the other way`,
      );
    }
  }
  return outcome;
}

const boundExpressions = new WeakMap<ArgSpec, Expr>();
const BUILTIN_CALL = /^(str|int|float|len)\s*\(.*\)$/s;

/** A loop bound: a variable, a number, or an expression (evaluated as the reference does), then int(). */
export function loopBound(frame: Frame, spec: ArgSpec | undefined, which: string): number {
  if (spec === undefined || spec.empty) throw RunFailure.of('argument-error', `startLoop needs its ${which} bound`);
  let value: Value;
  if (spec.template !== undefined || spec.global !== undefined || spec.number !== undefined)
    value = frame.resolve(spec);
  else {
    const named = frame.get(spec.text);
    if (named !== undefined) value = frame.resolve(spec);
    else if (spec.quoted) value = spec.text;
    else {
      let expr = boundExpressions.get(spec);
      if (!expr) {
        expr = compileExpr(spec.text, new Set());
        boundExpressions.set(spec, expr);
      }
      if (BUILTIN_CALL.test(spec.text) && !/[+\-*/%]/.test(spec.text)) frame.note('builtin-call-alone');
      value = frame.evaluate(expr);
    }
  }
  if (value === null) throw RunFailure.py('TypeError', 'type-error', `startLoop: the ${which} bound is None`);
  return toInt(value);
}

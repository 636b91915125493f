/**
 * addVar, addResult, addParam, getQueryParamList: the namespace and the request.
 */
import { RunFailure } from '../failure';
import { pyStr } from '../pytext';
import type { RunRequest } from '../types';
import { deepCopy, fromPlain, int, PyFloat, type Dict, type Value } from '../values';
import { command, type CallContext } from './types';

const DIGITS = /^[0-9]+$/;
const SIGNED_INT = /^[+-][0-9]+$/;

/**
 * addVar(targetVarName, varValue), specification: a variable's value if the
 * argument names one; numeric text → int; a number as it is; anything else
 * text (`[]`, `None`, `true` included).
 */
export const addVar = command({
  name: 'addVar',
  arity: [2, 2],
  target: 0,
  inReference: true,
  run(c) {
    const target = c.targetName(0);
    let value = c.read(1);
    const spec = c.args[1];
    const literal = spec !== undefined && !spec.empty && spec.template === undefined && c.get(spec.text) === undefined;
    if (literal && typeof value === 'string') {
      if ((DIGITS.test(value) || SIGNED_INT.test(value)) && Number.isSafeInteger(Number(value))) {
        value = int(Number(value));
      }
    }
    c.checkReference(1, value);
    c.set(target, value);
  },
});

/** addResult(sourceVariable): the variable's value (null when it is not set) under its own name in the response. */
export const addResult = command({
  name: 'addResult',
  arity: [1, 1],
  inReference: true,
  run(c) {
    const name = c.targetName(0);
    const value = c.get(name);
    c.result(name, value === undefined ? null : deepCopy(value));
  },
});

const INT_TEXT = /^[+-]?\d+$/;
const FLOAT_TEXT = /^[+-]?(?:\d+\.\d*|\.\d+)$/;

/** The specification's coercion of request text: numeric text becomes an int or a float. */
function coerceParameter(v: Value): Value {
  if (typeof v !== 'string') return v;
  const text = v.trim();
  if (INT_TEXT.test(text)) {
    const n = Number(text);
    // Text longer than an exact integer (an account number, a card number) stays text.
    return Number.isSafeInteger(n) ? int(n) : v;
  }
  if (FLOAT_TEXT.test(text)) return new PyFloat(Number(text));
  return v;
}

function last(v: string | string[] | undefined): string | undefined {
  if (Array.isArray(v)) return v[v.length - 1];
  return v;
}

function header(request: RunRequest, name: string): string | undefined {
  for (const [k, v] of Object.entries(request.headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}

/** A request parameter: the query string, then a JSON body, then form data (specification). */
function requestParameter(request: RunRequest, name: string): Value | undefined {
  if (Object.prototype.hasOwnProperty.call(request.query, name)) {
    const q = last(request.query[name]);
    if (q !== undefined) return q;
  }
  const body = request.body;
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    if (Object.prototype.hasOwnProperty.call(body, name)) return fromPlain((body as Record<string, unknown>)[name]);
    return undefined;
  }
  if (typeof body === 'string' && body.length > 0) {
    const type = header(request, 'content-type') ?? '';
    if (type.includes('json')) {
      try {
        const parsed: unknown = JSON.parse(body);
        if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
          const record = parsed as Record<string, unknown>;
          return Object.prototype.hasOwnProperty.call(record, name) ? fromPlain(record[name]) : undefined;
        }
      } catch {
        return undefined;
      }
      return undefined;
    }
    const form = new URLSearchParams(body);
    if (form.has(name)) return form.getAll(name).pop() ?? null;
  }
  return undefined;
}

/**
 * addParam(param, variable): the parameter's value, numeric text converted
 * (specification), null when the request does not have it.
 */
export const addParam = command({
  name: 'addParam',
  arity: [2, 2],
  target: 1,
  inReference: true,
  run(c) {
    const spec = c.args[0];
    if (!spec || spec.empty) throw RunFailure.of('argument-error', 'addParam needs the name of a request parameter');
    const nameValue = c.read(0);
    const name = pyStr(nameValue);
    if (spec.template === undefined && c.get(spec.text) !== undefined && name !== spec.text) {
      c.note('addparam-name-variable', `it reads the parameter "${spec.text}", not "${name}"`);
    }
    const target = c.targetName(1);
    const raw = requestParameter(c.request, name);
    if (raw === undefined) {
      c.set(target, null);
      return;
    }
    const value = coerceParameter(raw);
    if (value !== raw) c.note('addparam-numeric-text', `it stores the text ${JSON.stringify(raw)}`);
    c.set(target, value);
  },
});

/** getQueryParamList(TargetVariable): every query parameter as a one-key dict, in order (a repeated one once per value). */
export const getQueryParamList = command({
  name: 'getQueryParamList',
  arity: [1, 1],
  target: 0,
  inReference: false,
  run(c: CallContext) {
    const list: Value[] = [];
    for (const [key, v] of Object.entries(c.request.query)) {
      for (const one of Array.isArray(v) ? v : [v]) {
        const d: Dict = new Map([[key, one]]);
        list.push(d);
      }
    }
    c.set(c.targetName(0), list);
  },
});

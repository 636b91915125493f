/**
 * Lists and dictionaries: getListLen, itemFromList, variableToList,
 * AddvariableToJSON, variableFromJSON (command reference; AVAP Lite has none).
 */
import { toInt } from '../expressions/evaluate';
import { RunFailure } from '../failure';
import { index, length } from '../operators';
import { pyRepr } from '../pytext';
import { dictKey, isDict, typeName, type Dict, type Value } from '../values';
import { command, type CallContext } from './types';

/** A source argument of a collection command: a bare name that is no variable is refused, not read as its own text. */
function source(c: CallContext, i: number): Value {
  const spec = c.args[i];
  const value = c.read(i);
  if (spec && !spec.quoted && spec.template === undefined && spec.number === undefined && value === spec.text) {
    if (/^[\p{L}_][\p{L}\p{N}_]*$/u.test(spec.text)) {
      throw RunFailure.of('argument-error', `${c.name}: there is no variable '${spec.text}'`);
    }
  }
  return value;
}

export const getListLen = command({
  name: 'getListLen',
  arity: [2, 2],
  target: 1,
  inReference: false,
  run(c) {
    const list = source(c, 0);
    if (!Array.isArray(list)) {
      throw RunFailure.of('type-error', `getListLen: '${c.text(0)}' is not a list (it is ${typeName(list)})`);
    }
    c.set(c.targetName(1), length(list));
  },
});

export const itemFromList = command({
  name: 'itemFromList',
  arity: [3, 3],
  target: 2,
  inReference: false,
  run(c) {
    const list = source(c, 0);
    if (!Array.isArray(list)) {
      throw RunFailure.of('type-error', `itemFromList: '${c.text(0)}' is not a list (it is ${typeName(list)})`);
    }
    if (c.isEmpty(1)) throw RunFailure.of('argument-error', 'itemFromList needs an index');
    const i = toInt(c.read(1));
    c.set(c.targetName(2), index(list, i));
  },
});

export const variableToList = command({
  name: 'variableToList',
  arity: [2, 2],
  target: 1,
  inReference: false,
  run(c) {
    const element = c.read(0);
    const name = c.targetName(1);
    const list = c.get(name);
    if (list === undefined) {
      c.set(name, [element]);
      return;
    }
    if (!Array.isArray(list)) {
      throw RunFailure.of('type-error', `variableToList: '${name}' is not a list (it is ${typeName(list)})`);
    }
    list.push(element);
    c.set(name, list);
  },
});

export const AddvariableToJSON = command({
  name: 'AddvariableToJSON',
  arity: [3, 3],
  target: 2,
  inReference: false,
  run(c) {
    if (c.isEmpty(0)) throw RunFailure.of('argument-error', 'AddvariableToJSON needs a key');
    const key = dictKey(c.read(0));
    const value = c.read(1);
    const name = c.targetName(2);
    const current = c.get(name);
    if (current === undefined) {
      const d: Dict = new Map([[key, value]]);
      c.set(name, d);
      return;
    }
    if (!isDict(current)) {
      const hint =
        typeof current === 'string' && current.trim().startsWith('{')
          ? ` — addVar(${name}, {…}) stores text; make a dictionary with ${name} = {…}`
          : '';
      throw RunFailure.of(
        'type-error',
        `AddvariableToJSON: '${name}' is not a dictionary (it is ${typeName(current)} ${pyRepr(current).slice(0, 40)})${hint}`,
      );
    }
    current.set(key, value);
    c.set(name, current);
  },
});

export const variableFromJSON = command({
  name: 'variableFromJSON',
  arity: [3, 3],
  target: 2,
  inReference: false,
  run(c) {
    const dict = source(c, 0);
    if (!isDict(dict)) {
      throw RunFailure.of(
        'type-error',
        `variableFromJSON: '${c.text(0)}' is not a dictionary (it is ${typeName(dict)})`,
      );
    }
    if (c.isEmpty(1)) throw RunFailure.of('argument-error', 'variableFromJSON needs a key');
    const key = dictKey(c.read(1));
    const value = dict.get(key);
    c.set(c.targetName(2), value === undefined ? null : value);
  },
});

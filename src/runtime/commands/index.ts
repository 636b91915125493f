/** Every command the runtime executes, by name (the command reference's 27 and the documented ones). */
import { AddvariableToJSON, getListLen, itemFromList, variableFromJSON, variableToList } from './collections';
import { getDateTime, getTimeStamp, stampToDatetime } from './dates';
import { ormAccessInsert, ormAccessSelect, ormAccessUpdate, ormCheckTable, ormDirect } from './db';
import { RequestGet, RequestPost } from './http';
import { avapConnector, gather, registerEndpoint } from './platform';
import { encodeMD5, encodeSHA256, getRegex, randomString, replace } from './text';
import type { CommandDef } from './types';
import { addParam, addResult, addVar, getQueryParamList } from './variables';

export type { CallContext, CommandDef } from './types';
const ALL: readonly CommandDef[] = [
  addVar,
  addResult,
  addParam,
  getQueryParamList,
  getListLen,
  itemFromList,
  variableToList,
  AddvariableToJSON,
  variableFromJSON,
  encodeSHA256,
  encodeMD5,
  randomString,
  replace,
  getRegex,
  getDateTime,
  getTimeStamp,
  stampToDatetime,
  RequestGet,
  RequestPost,
  ormDirect,
  ormCheckTable,
  ormAccessSelect,
  ormAccessInsert,
  ormAccessUpdate,
  gather,
  registerEndpoint,
  avapConnector,
];

export const COMMANDS: ReadonlyMap<string, CommandDef> = new Map(ALL.map((c) => [c.name, c]));

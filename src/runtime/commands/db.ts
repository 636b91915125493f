/**
 * The database through its port: ormDirect (command reference: a SELECT gives
 * a list of row dicts, other statements "Success: N"), ormCheckTable (the
 * documentation: the text "True" or "False"), and the ORM helpers
 * ormAccessSelect / ormAccessInsert / ormAccessUpdate (as the platform's
 * designer defines their arguments). Names of tables and fields are checked to
 * be names; values travel as query parameters, never spliced into the SQL.
 */
import { RunFailure } from '../failure';
import type { DbAnswer } from '../ports';
import { pyStr } from '../pytext';
import { fromPlain, toPlain, type Value } from '../values';
import { command, type CallContext } from './types';

async function query(c: CallContext, sql: string, params: readonly unknown[]): Promise<DbAnswer> {
  let answer;
  try {
    answer = await c.ports.db.query(sql, params, c.signal);
  } catch (e) {
    throw RunFailure.of('db-unavailable', `the database failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!answer.ok) {
    if (answer.error.kind === 'unavailable') throw RunFailure.of('db-unavailable', answer.error.message);
    const code = answer.error.code ? ` (SQLSTATE ${answer.error.code})` : '';
    throw RunFailure.of('sql-error', `${answer.error.message}${code}`);
  }
  return answer.value;
}

/** A statement that reads rows, by its first word (the port's command tag may be missing). */
const READS = /^\s*(?:\(\s*)*(?:select|with|values|table|show|explain)\b/i;

/** Rows for a statement that returns them (a SELECT, even with none, or RETURNING), else "Success: N". */
function outcome(answer: DbAnswer, sql: string): Value {
  if (answer.command.toUpperCase() === 'SELECT' || answer.rows.length > 0 || READS.test(sql)) {
    return answer.rows.map((r) => fromPlain(r));
  }
  return `Success: ${answer.affected}`;
}

function sqlText(c: CallContext, i: number, what: string): string {
  if (c.isEmpty(i)) throw RunFailure.of('argument-error', `${c.name} needs ${what}`);
  return pyStr(c.read(i)).trim();
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?$/;

function identifier(c: CallContext, text: string, what: string): string {
  if (!NAME.test(text)) throw RunFailure.of('argument-error', `${c.name}: '${text}' is not a ${what} name`);
  return text;
}

/** `*` or a comma-separated list of field names. */
function fieldList(c: CallContext, text: string): string[] | '*' {
  if (text === '*') return '*';
  const fields = text.split(',').map((f) => f.trim());
  return fields.map((f) => identifier(c, f, 'field'));
}

function selector(text: string): string {
  const t = text.trim().replace(/^where\s+/i, '');
  return t === '' ? '' : ` WHERE ${t}`;
}

/** A variable's value as a query parameter (lists and dicts as JSON text). */
function parameter(v: Value): unknown {
  const plain = toPlain(v);
  return plain !== null && typeof plain === 'object' ? JSON.stringify(plain) : plain;
}

/** The names of the variables to write: the argument's own text (quotes stripped), never resolved. */
function names(c: CallContext, i: number): string {
  if (c.isEmpty(i)) throw RunFailure.of('argument-error', `${c.name} needs the variables to write`);
  return c.text(i);
}

function values(c: CallContext, text: string): unknown[] {
  return text
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '')
    .map((n) => {
      const v = c.get(n);
      if (v === undefined) throw RunFailure.of('argument-error', `${c.name}: there is no variable '${n}'`);
      return parameter(v);
    });
}

export const ormDirect = command({
  name: 'ormDirect',
  arity: [2, 2],
  target: 1,
  inReference: false,
  async run(c) {
    const sql = sqlText(c, 0, 'an SQL statement');
    const target = c.targetName(1);
    c.set(target, outcome(await query(c, sql, []), sql));
  },
});

export const ormCheckTable = command({
  name: 'ormCheckTable',
  arity: [2, 2],
  target: 1,
  inReference: false,
  async run(c) {
    const table = sqlText(c, 0, 'a table name');
    const target = c.targetName(1);
    const [schema, name] = table.includes('.') ? table.split('.', 2) : [undefined, table];
    const answer = await query(
      c,
      // Every use of a parameter is cast to text: PostgreSQL refuses a parameter whose uses deduce two types
      // (SQLSTATE 42P08: table_name is `name`, lower() takes `text`).
      'SELECT EXISTS (SELECT 1 FROM information_schema.tables' +
        ' WHERE table_name::text IN (CAST($1 AS text), lower(CAST($1 AS text)))' +
        ' AND (CAST($2 AS text) IS NULL OR table_schema::text = CAST($2 AS text))' +
        " AND table_schema NOT IN ('pg_catalog', 'information_schema')) AS found",
      [name, schema ?? null],
    );
    const found = answer.rows[0]?.found === true;
    c.set(target, found ? 'True' : 'False');
  },
});

export const ormAccessSelect = command({
  name: 'ormAccessSelect',
  arity: [3, 4],
  target: 2,
  inReference: false,
  async run(c) {
    const fields = fieldList(c, sqlText(c, 0, 'the fields to read'));
    const table = identifier(c, sqlText(c, 1, 'a table'), 'table');
    const target = c.targetName(2);
    const where = c.isEmpty(3) ? '' : selector(pyStr(c.read(3)));
    const sql = `SELECT ${fields === '*' ? '*' : fields.join(', ')} FROM ${table}${where}`;
    c.set(target, outcome(await query(c, sql, []), sql));
  },
});

export const ormAccessInsert = command({
  name: 'ormAccessInsert',
  arity: [4, 4],
  target: 3,
  inReference: false,
  async run(c) {
    const fields = fieldList(c, sqlText(c, 0, 'the fields to write'));
    const params = values(c, names(c, 1));
    const table = identifier(c, sqlText(c, 2, 'a table'), 'table');
    const target = c.targetName(3);
    if (fields !== '*' && fields.length !== params.length) {
      throw RunFailure.of('argument-error', `ormAccessInsert: ${fields.length} fields but ${params.length} variables`);
    }
    const placeholders = params.map((_, i) => `$${i + 1}`).join(', ');
    const columns = fields === '*' ? '' : ` (${fields.join(', ')})`;
    const answer = await query(c, `INSERT INTO ${table}${columns} VALUES (${placeholders})`, params);
    c.set(target, `Success: ${answer.affected}`);
  },
});

export const ormAccessUpdate = command({
  name: 'ormAccessUpdate',
  arity: [4, 5],
  target: 3,
  inReference: false,
  async run(c) {
    const fields = fieldList(c, sqlText(c, 0, 'the fields to write'));
    if (fields === '*') throw RunFailure.of('argument-error', 'ormAccessUpdate needs the field names, not *');
    const params = values(c, names(c, 1));
    const table = identifier(c, sqlText(c, 2, 'a table'), 'table');
    const target = c.targetName(3);
    if (fields.length !== params.length) {
      throw RunFailure.of('argument-error', `ormAccessUpdate: ${fields.length} fields but ${params.length} variables`);
    }
    const set = fields.map((f, i) => `${f} = $${i + 1}`).join(', ');
    const where = c.isEmpty(4) ? '' : selector(pyStr(c.read(4)));
    const answer = await query(c, `UPDATE ${table} SET ${set}${where}`, params);
    c.set(target, `Success: ${answer.affected}`);
  },
});

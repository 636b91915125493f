/**
 * The sandbox database (PGlite): seeded once, fresh for every run (rows, sequences and session state of one run
 * never reach the next), a failed statement does not poison the run, a run that commits by itself costs the
 * instance, and a broken seed is reported to the run's queries.
 */
import assert from 'node:assert/strict';
import { execute } from '../../../../src/runtime';
import { SandboxDatabase } from '../../../../src/runtime/host';
import { LIMITS, ports, request } from '../fakes';

const SEED = `CREATE TABLE users (id serial PRIMARY KEY, name text NOT NULL, born date);
INSERT INTO users (name, born) VALUES ('ana', '1990-04-01'), ('bo', '2001-12-24');`;

const signal = new AbortController().signal;

describe('runtime host: the sandbox database (PGlite)', function () {
  this.timeout(60_000);
  const db = new SandboxDatabase();
  after(() => db.close());

  it('answers a SELECT with row objects (dates as Postgres text) and an INSERT with its count', async () => {
    const run = db.forRun(SEED);
    const select = await run.port.query('SELECT id, name, born FROM users ORDER BY id', [], signal);
    assert.ok(select.ok);
    assert.deepEqual(select.value, {
      command: 'SELECT',
      rows: [
        { id: 1, name: 'ana', born: '1990-04-01' },
        { id: 2, name: 'bo', born: '2001-12-24' },
      ],
      affected: 0,
    });
    const insert = await run.port.query('INSERT INTO users (name) VALUES ($1), ($2)', ['cy', 'di'], signal);
    assert.ok(insert.ok);
    assert.deepEqual(
      { command: insert.value.command, affected: insert.value.affected },
      { command: 'INSERT', affected: 2 },
    );
    assert.equal(run.used, true);
    await run.finish();
  });

  it('each run starts from the seed: rows, tables and sequence values of an earlier run are gone', async () => {
    const first = db.forRun(SEED);
    const id1 = await first.port.query("INSERT INTO users (name) VALUES ('x') RETURNING id", [], signal);
    await first.port.query('CREATE TABLE scratch (a int)', [], signal);
    await first.port.query('SET search_path TO nowhere', [], signal);
    await first.finish();
    const second = db.forRun(SEED);
    const id2 = await second.port.query("INSERT INTO public.users (name) VALUES ('x') RETURNING id", [], signal);
    assert.ok(id1.ok && id2.ok);
    assert.deepEqual(id2.value.rows, id1.value.rows, 'the sequence starts where the seed left it');
    const count = await second.port.query('SELECT count(*)::int AS n FROM users', [], signal);
    assert.ok(count.ok);
    assert.deepEqual(count.value.rows, [{ n: 3 }]);
    const scratch = await second.port.query('SELECT * FROM scratch', [], signal);
    assert.ok(!scratch.ok);
    assert.equal(scratch.error.kind, 'sql-error');
    assert.equal(scratch.error.code, '42P01');
    await second.finish();
    assert.equal(db.builds, 1, 'made fresh without building another instance');
  });

  it('a failed statement is a sql-error with its SQLSTATE, and the run goes on', async () => {
    const run = db.forRun(SEED);
    const bad = await run.port.query('SELEC 1', [], signal);
    assert.ok(!bad.ok);
    assert.deepEqual({ kind: bad.error.kind, code: bad.error.code }, { kind: 'sql-error', code: '42601' });
    assert.match(bad.error.message, /syntax error at or near "SELEC"/);
    const good = await run.port.query('SELECT name FROM users WHERE id = $1', [2], signal);
    assert.ok(good.ok);
    assert.deepEqual(good.value.rows, [{ name: 'bo' }]);
    await run.finish();
  });

  it('a run that commits by itself costs the instance: the next run still sees only the seed', async () => {
    const before = db.builds;
    const run = db.forRun(SEED);
    await run.port.query("COMMIT; INSERT INTO users (name) VALUES ('leak')", [], signal);
    await run.finish();
    const next = db.forRun(SEED);
    const names = await next.port.query("SELECT count(*)::int AS n FROM users WHERE name = 'leak'", [], signal);
    assert.ok(names.ok);
    assert.deepEqual(names.value.rows, [{ n: 0 }]);
    await next.finish();
    assert.equal(db.builds, before + 1);
  });

  it('a run that never queries builds nothing; another seed gets its own database', async () => {
    const idle = db.forRun('CREATE TABLE never (a int);');
    await idle.finish();
    assert.equal(idle.used, false);
    const other = db.forRun("CREATE TABLE t (v text); INSERT INTO t VALUES ('only');");
    const rows = await other.port.query('SELECT v FROM t', [], signal);
    assert.ok(rows.ok);
    assert.deepEqual(rows.value.rows, [{ v: 'only' }]);
    const users = await other.port.query('SELECT 1 FROM users', [], signal);
    assert.ok(!users.ok);
    await other.finish();
  });

  it('a seed that fails is reported to every query of the run as unavailable', async () => {
    const run = db.forRun('CREATE TABLE broken (');
    const answer = await run.port.query('SELECT 1', [], signal);
    assert.ok(!answer.ok);
    assert.equal(answer.error.kind, 'unavailable');
    assert.match(answer.error.message, /^the seed SQL failed: syntax error/);
    await run.finish();
  });

  it('ormCheckTable asks the real PostgreSQL (a parameter used as two types would be refused, 42P08)', async () => {
    const run = db.forRun(SEED);
    const code = [
      'ormCheckTable(users, a)',
      'ormCheckTable(USERS, b)',
      'ormCheckTable(ghosts, c)',
      'ormCheckTable(public.users, d)',
    ];
    const result = await execute(code.join('\n'), request(), ports({ db: run.port }), LIMITS);
    assert.equal(result.error, undefined, result.error?.message);
    assert.deepEqual(
      { a: result.variables.a, b: result.variables.b, c: result.variables.c, d: result.variables.d },
      { a: 'True', b: 'True', c: 'False', d: 'True' },
    );
    await run.finish();
  });
});

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { catalogue } from '../../../src/parser';
// internal-import: the runtime's command table, checked against the parser's catalogue
import { COMMANDS } from '../../../src/runtime/commands';
import { NOW, ports, RecordedHttp, run, ScriptedDb } from './fakes';

describe('runtime commands: variables and the request', () => {
  it('addVar: a variable, numeric text, a number, otherwise text', async () => {
    const r = await run([
      'addVar(a, 5)',
      'addVar(b, a)',
      'addVar(c, "12")',
      'addVar(d, -4)',
      'addVar(e, 2.50)',
      'addVar(f, hello world)',
      'addVar(g, [1, 2])',
      'addVar(h, None)',
      'addVar(i, "")',
      'addVar(j, `id-${a}`)',
    ]);
    assert.deepEqual(r.variables, {
      a: 5,
      b: 5,
      c: 12,
      d: -4,
      e: 2.5,
      f: 'hello world',
      g: '[1, 2]',
      h: 'None',
      i: '',
      j: 'id-5',
    });
  });

  it('addResult copies the value at that moment; an unset name gives null', async () => {
    const r = await run(['items = [1]', 'addResult(items)', 'variableToList(2, items)', 'addResult(nothing)']);
    assert.deepEqual(r.result, { items: [1], nothing: null });
    assert.deepEqual(r.variables.items, [1, 2]);
  });

  it('addParam: query, then JSON body, then form data; numeric text becomes a number; missing is null', async () => {
    const src = ['addParam(q, a)', 'addParam(b, b1)', 'addParam(missing, m)', 'addParam(name, n)'];
    const r1 = await run(src, { request: { query: { q: '08001' }, body: { b: 'x', name: 'Ana' } } });
    assert.deepEqual(r1.variables, { a: 8001, b1: 'x', m: null, n: 'Ana' });
    const r2 = await run(['addParam(price, p)', 'addParam(id, i)'], {
      request: { body: 'price=9.5&id=3', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    });
    assert.deepEqual(r2.variables, { p: 9.5, i: 3 });
    const r3 = await run(['addParam(n, v)'], { request: { query: { n: ['1', '2'] } } });
    assert.equal(r3.variables.v, 2, 'a repeated parameter gives its last value');
    const r4 = await run(['addParam(card, c)'], { request: { query: { card: '4000123412341234123' } } });
    assert.equal(r4.variables.c, '4000123412341234123', 'digits beyond an exact integer stay text');
  });

  it('getQueryParamList lists every parameter as a one-key dict', async () => {
    const r = await run(['getQueryParamList(all)', 'addResult(all)'], {
      request: { query: { a: '1', b: ['x', 'y'] } },
    });
    assert.deepEqual(r.result.all, [{ a: '1' }, { b: 'x' }, { b: 'y' }]);
  });
});

describe('runtime commands: lists and dictionaries', () => {
  it('builds and reads lists', async () => {
    const r = await run([
      'variableToList(first, items)',
      'variableToList(2, items)',
      'getListLen(items, n)',
      'itemFromList(items, 0, a)',
      'itemFromList(items, "1", b)',
      'itemFromList(items, -1, c)',
    ]);
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(r.variables, { items: ['first', 2], n: 2, a: 'first', b: 2, c: 2 });
  });

  it('refuses an index out of range, a source that is not a list, and a name that is no variable', async () => {
    assert.equal((await run(['items = [1]', 'itemFromList(items, 3, x)'])).error?.code, 'index-error');
    assert.equal((await run(['s = "abc"', 'getListLen(s, n)'])).error?.code, 'type-error');
    const missing = await run(['getListLen(nothing, n)']);
    assert.equal(missing.error?.code, 'argument-error');
    assert.match(missing.error?.message ?? '', /no variable 'nothing'/);
  });

  it('builds and reads dictionaries; a bare key that names a variable is its value', async () => {
    const r = await run([
      'AddvariableToJSON("name", "Ana", user)',
      'AddvariableToJSON(age, 30, user)',
      'addVar(field, "name")',
      'variableFromJSON(user, field, who)',
      'variableFromJSON(user, "missing", none)',
      'addResult(user)',
    ]);
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(r.result.user, { name: 'Ana', age: 30 });
    assert.equal(r.variables.who, 'Ana');
    assert.equal(r.variables.none, null);
  });

  it('explains addVar(x, {…}): it stores text, not a dictionary', async () => {
    const r = await run(['addVar(obj, {})', 'AddvariableToJSON(k, v, obj)']);
    assert.equal(r.error?.code, 'type-error');
    assert.match(r.error?.message ?? '', /obj = \{…\}/);
  });
});

describe('runtime commands: hashing, random text, regular expressions', () => {
  it('hashes the text of a value', async () => {
    const r = await run([
      'addVar(p, secret)',
      'encodeSHA256(p, h1)',
      'encodeMD5(`k_${p}`, h2)',
      'encodeSHA256(42, h3)',
    ]);
    assert.equal(r.variables.h1, createHash('sha256').update('secret').digest('hex'));
    assert.equal(r.variables.h2, createHash('md5').update('k_secret').digest('hex'));
    assert.equal(r.variables.h3, createHash('sha256').update('42').digest('hex'));
  });

  it('randomString draws from the characters the pattern allows, repeatably with a fixed seed', async () => {
    const a = await run(['randomString([a-f0-9], 32, t)'], { ports: ports({ seed: 7 }) });
    const b = await run(['randomString([a-f0-9], 32, t)'], { ports: ports({ seed: 7 }) });
    assert.match(String(a.variables.t), /^[a-f0-9]{32}$/);
    assert.equal(a.variables.t, b.variables.t);
    const two = await run(['randomString(8, t)']);
    assert.equal(two.error?.code, 'not-supported', 'the two-argument form has no documented alphabet');
  });

  it('replace substitutes every match, spaces in the pattern match any blank, Python group references work', async () => {
    const r = await run([
      'addVar(s, "a1b22c333")',
      'replace(s, [0-9]+, #, r1)',
      'addVar(t, "hello world")',
      'replace(t, o w, 0_W, r2)',
      'addVar(d, "2026-11-26")',
      'replace(d, (\\d+)-(\\d+)-(\\d+), \\3/\\2/\\1, r3)',
      'replace(d, (?P<y>\\d{4}), [\\g<y>], r4)',
      'replace(s, b, $, r5)',
    ]);
    assert.equal(r.error, undefined, r.error?.message);
    assert.equal(r.variables.r1, 'a#b#c#');
    assert.equal(r.variables.r2, 'hell0_World');
    assert.equal(r.variables.r3, '26/11/2026');
    assert.equal(r.variables.r4, '[2026]-11-26');
    assert.equal(r.variables.r5, 'a1$22c333');
  });

  it('getRegex gives the one match or null, and refuses what the reference leaves open', async () => {
    const r = await run([
      'addVar(mail, "write to ana@example.com today")',
      'getRegex(mail, [a-z]+@[a-z.]+, found)',
      'getRegex(mail, [0-9]+, none)',
    ]);
    assert.equal(r.variables.found, 'ana@example.com');
    assert.equal(r.variables.none, null);
    assert.equal((await run(['addVar(s, "a1b2")', 'getRegex(s, [0-9], x)'])).error?.code, 'not-supported');
    assert.equal((await run(['addVar(s, "a1")', 'getRegex(s, ([0-9]), x)'])).error?.code, 'not-supported');
    assert.equal((await run(['addVar(s, "a1")', 'getRegex(s, [z-a], x)'])).error?.code, 'regex-error');
  });
});

describe('runtime commands: dates', () => {
  it('getDateTime formats the clock port in a zone, shifted by seconds; an empty format gives a timestamp', async () => {
    const r = await run([
      'getDateTime(%Y-%m-%d %H:%M:%S, 0, UTC, utc)',
      'getDateTime(%Y-%m-%dT%H:%M:%S%z, 3600, Europe/Madrid, madrid)',
      'getDateTime(, 86400, , stamp)',
      'getDateTime("", 60, "", quotedEmpty)',
      'getDateTime(%A %d %B %Y %I%p %j, 0, , words)',
    ]);
    assert.equal(r.error, undefined, r.error?.message);
    assert.equal(r.variables.utc, '2026-11-26 22:22:00');
    assert.equal(r.variables.madrid, '2026-11-27T00:22:00+0100');
    assert.equal(r.variables.stamp, NOW / 1000 + 86400);
    assert.equal(r.variables.quotedEmpty, NOW / 1000 + 60, 'the empty text "" is an empty format too');
    assert.equal(r.variables.words, 'Thursday 26 November 2026 10PM 330');
  });

  it('getTimeStamp parses with a format; stampToDatetime formats a timestamp', async () => {
    const r = await run([
      'getTimeStamp(2026-01-01, %Y-%m-%d, 0, ts)',
      'getTimeStamp("01/02/2026 10:30", "%d/%m/%Y %H:%M", 60, ts2)',
      'stampToDatetime(ts, %d/%m/%Y %H:%M, 90, text)',
      'stampToDatetime(1692966600, %Y-%m-%d, 0, t2)',
    ]);
    assert.equal(r.error, undefined, r.error?.message);
    assert.equal(r.variables.ts, Date.UTC(2026, 0, 1) / 1000);
    assert.equal(r.variables.ts2, Date.UTC(2026, 1, 1, 10, 30) / 1000 + 60);
    assert.equal(r.variables.text, '01/01/2026 00:01');
    assert.equal(r.variables.t2, '2023-08-25');
  });

  it('refuses text that does not match its format, an unknown zone, an unknown code', async () => {
    assert.equal((await run(['getTimeStamp(2026/01/01, %Y-%m-%d, 0, ts)'])).error?.code, 'date-error');
    assert.equal((await run(['getDateTime(%Y, 0, Mars/Base, x)'])).error?.code, 'date-error');
    assert.equal((await run(['getDateTime(%Q, 0, UTC, x)'])).error?.code, 'not-supported');
  });
});

describe('runtime commands: HTTP', () => {
  it('RequestGet sends the query string and headers, parses JSON, raises on 4xx', async () => {
    const http = new RecordedHttp([
      { method: 'GET', url: 'https://api.test/users?page=2&q=a%20b', status: 200, body: '{"users": [1, 2]}' },
      { method: 'GET', url: 'https://api.test/text', status: 200, body: 'plain' },
      { method: 'GET', url: 'https://api.test/missing', status: 404, body: '{}' },
    ]);
    const r = await run(
      [
        'addVar(base, https://api.test/users)',
        'q = {"page": 2, "q": "a b"}',
        `h = {"Authorization": "Bearer t"}`,
        'RequestGet(base, q, h, reply)',
        'RequestGet(https://api.test/text, , , t)',
        'try()',
        '  RequestGet(https://api.test/missing, , , m)',
        'exception(e)',
        'end()',
      ],
      { ports: ports({ http }) },
    );
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(r.variables.reply, { users: [1, 2] });
    assert.equal(r.variables.t, 'plain');
    assert.equal(r.variables.e, '404 Client Error: Not Found for url: https://api.test/missing');
    assert.deepEqual(http.calls[0]?.headers, { Authorization: 'Bearer t' });
    assert.equal(http.calls[0]?.timeoutMs, 30_000);
  });

  it('RequestGet sends a header named after an Object.prototype member as any other header', async () => {
    const http = new RecordedHttp([{ method: 'GET', url: 'https://api.test/h', status: 200, body: '{}' }]);
    const r = await run(['h = {"__proto__": "p", "toString": "s"}', 'RequestGet(https://api.test/h, , h, reply)'], {
      ports: ports({ http }),
    });
    assert.equal(r.error, undefined, r.error?.message);
    const sent = http.calls[0]?.headers ?? {};
    assert.deepEqual(Object.entries(sent), [
      ['__proto__', 'p'],
      ['toString', 's'],
    ]);
    assert.equal(Object.getPrototypeOf(sent), Object.prototype);
  });

  it('RequestPost sends a dict as JSON (as Python writes it) and text as it is; a 4xx answer is kept', async () => {
    const http = new RecordedHttp([
      { method: 'POST', url: 'https://api.test/items', status: 201, body: '{"id": 9}' },
      { method: 'POST', url: 'https://api.test/raw', status: 400, body: '{"error": "bad"}' },
    ]);
    const r = await run(
      [
        'AddvariableToJSON(name, "Zoë", body)',
        'AddvariableToJSON(n, 2, body)',
        'RequestPost(https://api.test/items, , , body, created)',
        'RequestPost(https://api.test/raw, , , "a=1", raw)',
      ],
      { ports: ports({ http }) },
    );
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(r.variables.created, { id: 9 });
    assert.deepEqual(r.variables.raw, { error: 'bad' });
    assert.equal(http.calls[0]?.body, '{"name": "Zo\\u00eb", "n": 2}');
    assert.equal(http.calls[0]?.headers['Content-Type'], 'application/json');
    assert.equal(http.calls[1]?.body, 'a=1');
  });

  it('a request the sandbox does not let out is a catchable error naming the URL; a POST network failure is stored', async () => {
    const http = new RecordedHttp([], { 'https://down.test/x': 'network' });
    const r = await run(
      [
        'try()',
        '  RequestGet(https://nowhere.test/a, , , x)',
        'exception(e)',
        'end()',
        'RequestPost(https://down.test/x, , , , y)',
      ],
      { ports: ports({ http }) },
    );
    assert.equal(r.error, undefined, r.error?.message);
    assert.match(String(r.variables.e), /https:\/\/nowhere\.test\/a/);
    assert.deepEqual(r.variables.y, { error: 'POST https://down.test/x: network for https://down.test/x' });
    const uncaught = await run(['RequestGet(https://nowhere.test/a, , , x)']);
    assert.equal(uncaught.error?.code, 'http-not-recorded');
    assert.equal(uncaught.status, 500);
  });

  it('refuses a URL without a scheme', async () => {
    const r = await run(['RequestGet(api.test/x, , , x)']);
    assert.equal(r.error?.code, 'argument-error');
    assert.match(r.error?.message ?? '', /No scheme supplied/);
  });
});

describe('runtime commands: the database', () => {
  it('ormDirect: a SELECT gives row dicts, other statements "Success: N"; templates fill the SQL', async () => {
    const db = new ScriptedDb((sql) =>
      sql.startsWith('SELECT')
        ? { command: 'SELECT', rows: [{ id: 7, name: 'Ana', score: 9.5 }], affected: 1 }
        : { command: 'UPDATE', rows: [], affected: 3 },
    );
    const r = await run(
      [
        'addVar(uid, 7)',
        'ormDirect(`SELECT * FROM users WHERE id = ${uid}`, rows)',
        'ormDirect("UPDATE users SET active = true", changed)',
        'itemFromList(rows, 0, row)',
        'variableFromJSON(row, name, who)',
      ],
      { ports: ports({ db }) },
    );
    assert.equal(r.error, undefined, r.error?.message);
    assert.deepEqual(r.variables.rows, [{ id: 7, name: 'Ana', score: 9.5 }]);
    assert.equal(r.variables.changed, 'Success: 3');
    assert.equal(r.variables.who, 'Ana');
    assert.equal(db.queries[0]?.sql, 'SELECT * FROM users WHERE id = 7');
  });

  it('a SELECT that finds nothing is an empty list, even when the port gives no command tag', async () => {
    const db = new ScriptedDb(() => ({ command: '', rows: [], affected: 0 }));
    const r = await run(['ormDirect(SELECT * FROM users WHERE id = 0, rows)', 'ormDirect(DELETE FROM users, gone)'], {
      ports: ports({ db }),
    });
    assert.deepEqual(r.variables.rows, []);
    assert.equal(r.variables.gone, 'Success: 0');
  });

  it('an SQL error is a catchable error with its SQLSTATE', async () => {
    const db = new ScriptedDb(() => ({ error: 'relation "nope" does not exist', code: '42P01' }));
    const r = await run(['ormDirect(SELECT 1 FROM nope, x)'], { ports: ports({ db }) });
    assert.equal(r.error?.code, 'sql-error');
    assert.match(r.error?.message ?? '', /42P01/);
  });

  it('ormCheckTable answers "True" or "False"; the ORM helpers build parameterised SQL from checked names', async () => {
    const db = new ScriptedDb((sql, params) => {
      if (sql.includes('information_schema'))
        return { command: 'SELECT', rows: [{ found: params[0] === 'users' }], affected: 1 };
      if (sql.startsWith('SELECT')) return { command: 'SELECT', rows: [{ id: 1 }], affected: 1 };
      return { command: sql.split(' ')[0] as string, rows: [], affected: 1 };
    });
    const r = await run(
      [
        'ormCheckTable(users, a)',
        'ormCheckTable(ghosts, b)',
        'ormAccessSelect("id, name", users, rows, "active = true")',
        'addVar(n, "Ana")',
        'addVar(s, 3)',
        'ormAccessInsert("name, score", "n, s", users, ins)',
        'ormAccessUpdate("score", "s", users, upd, "name = \'Ana\'")',
      ],
      { ports: ports({ db }) },
    );
    assert.equal(r.error, undefined, r.error?.message);
    assert.equal(r.variables.a, 'True');
    assert.equal(r.variables.b, 'False');
    assert.deepEqual(r.variables.rows, [{ id: 1 }]);
    assert.equal(r.variables.ins, 'Success: 1');
    assert.equal(r.variables.upd, 'Success: 1');
    const sql = db.queries.map((q) => q.sql);
    assert.ok(sql.includes('SELECT id, name FROM users WHERE active = true'));
    assert.ok(sql.includes('INSERT INTO users (name, score) VALUES ($1, $2)'));
    assert.ok(sql.includes("UPDATE users SET score = $1 WHERE name = 'Ana'"));
    assert.deepEqual(db.queries.find((q) => q.sql.startsWith('INSERT'))?.params, ['Ana', 3]);
    const bad = await run(['ormAccessSelect("id; DROP TABLE x", users, rows)'], { ports: ports({ db }) });
    assert.equal(bad.error?.code, 'argument-error');
  });
});

describe('runtime commands: what the runtime refuses', () => {
  it('refuses registerEndpoint and avapConnector, saying why', async () => {
    for (const line of ['registerEndpoint("/a", "GET", [], "d", h, out)', 'db = avapConnector("TOKEN")']) {
      const r = await run([line]);
      assert.equal(r.error?.code, 'not-supported', line);
      assert.match(r.error?.message ?? '', /^not supported by the runtime: .+ \(.+\)$/);
    }
  });

  it('an unknown command ends the run naming it; the wrong number of arguments is an argument error', async () => {
    const r = await run(['addVar(a, 1)', 'noSuch(a)']);
    assert.deepEqual(r.error, {
      line: 2,
      command: 'noSuch',
      message: 'Command not found: noSuch',
      code: 'unknown-command',
    });
    assert.equal((await run(['addVar(a)'])).error?.code, 'argument-error');
  });
});

describe('runtime commands: coverage of the catalogue', () => {
  it('every command of the parser catalogue is a block the interpreter runs or a command it executes', () => {
    const missing = catalogue.COMMANDS.filter((c) => c.block === undefined && !COMMANDS.has(c.name)).map((c) => c.name);
    assert.deepEqual(missing, []);
    for (const c of catalogue.COMMANDS) {
      const def = COMMANDS.get(c.name);
      if (!def) continue;
      const arities = catalogue.signaturesOf(c).map((p) => p.length);
      for (const n of arities) {
        assert.ok(n >= def.arity[0] && n <= def.arity[1], `${c.name} takes ${n} arguments in the catalogue`);
      }
    }
  });
});

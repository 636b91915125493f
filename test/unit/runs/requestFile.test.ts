/**
 * The request a program runs with in the editor (NAME.avap.request.json) and the cases of its test file, read
 * from their text with the sandbox's own checks; files they name are read through the caller.
 */
import assert from 'node:assert/strict';
import { fail, ok } from '../../../src/result';
import {
  defaultSetup,
  describeRequest,
  loadRunSetup,
  loadTestCases,
  requestParameters,
  requestTemplate,
  type ReadBeside,
} from '../../../src/runs';
import { AGE_CHECK } from './support';

/** Files beside the test or request file, by the name the file gives. */
function beside(files: Record<string, string>): ReadBeside & { asked: string[] } {
  const asked: string[] = [];
  const read = (relative: string) => {
    asked.push(relative);
    const text = files[relative];
    return Promise.resolve(text === undefined ? fail('unreadable', 'ENOENT') : ok(text));
  };
  return Object.assign(read, { asked });
}

describe('runs: the request file and the test cases, from their text', () => {
  it('reads a request file: the request with its defaults, and the sandbox of its fixtures, seed, clock and generator', async () => {
    const setup = await loadRunSetup(
      JSON.stringify({
        request: { query: { age: 30, tags: ['a', 'b'] }, headers: { 'X-Token': 't' }, body: { n: 1 } },
        fixtures: [{ method: 'GET', url: 'https://api.example.com/x', status: 200, body: { up: true } }],
        sql: 'CREATE TABLE t (id int);',
        now: '2030-01-02T03:04:05Z',
        seed: 9,
      }),
      beside({}),
    );
    assert.ok(setup.ok, setup.ok ? '' : setup.error.message);
    assert.deepEqual(setup.value.request, {
      method: 'POST',
      query: { age: '30', tags: ['a', 'b'] },
      headers: { 'x-token': 't' },
      body: { n: 1 },
    });
    assert.equal(setup.value.sandbox.fixtures?.[0]?.body, '{"up":true}');
    assert.equal(setup.value.sandbox.sql, 'CREATE TABLE t (id int);');
    assert.equal(setup.value.sandbox.nowMs, Date.parse('2030-01-02T03:04:05Z'));
    assert.equal(setup.value.sandbox.seed, 9);
  });

  it('reads the fixtures and SQL files a request file names, beside it; an empty seed is no seed', async () => {
    const files = beside({ 'calls.json': '[{"url": "https://a.example/b", "body": "hi"}]', 'seed.sql': 'SELECT 1;' });
    const setup = await loadRunSetup('{"fixtures": "calls.json", "sql": "seed.sql"}', files);
    assert.ok(setup.ok);
    assert.deepEqual(files.asked, ['calls.json', 'seed.sql']);
    assert.equal(setup.value.sandbox.fixtures?.[0]?.url, 'https://a.example/b');
    assert.equal(setup.value.sandbox.sql, 'SELECT 1;');
    const blank = await loadRunSetup('{"request": {}, "fixtures": [], "sql": ""}', beside({}));
    assert.ok(blank.ok);
    assert.equal(blank.value.sandbox.sql, undefined);
    assert.deepEqual(blank.value.request, defaultSetup().request);
  });

  it('refuses a bad request file with a message that names the field (nothing is run)', async () => {
    const cases: [string, RegExp][] = [
      ['{"request": ', /not JSON/],
      ['[]', /expected \{"request"/],
      ['{"query": {"a": "1"}}', /unknown field "query" \(a request file holds request, fixtures, sql, now, seed\)/],
      ['{"request": {"query": [1]}}', /request\.query must be an object/],
      ['{"fixtures": [{"url": "ftp://x"}]}', /fixtures: fixture 0: url must be an absolute http\(s\) URL/],
      ['{"fixtures": "missing.json"}', /fixtures: cannot read missing\.json: ENOENT/],
      ['{"now": "yesterday"}', /now must be an ISO 8601 date-time/],
    ];
    for (const [text, message] of cases) {
      const setup = await loadRunSetup(text, beside({}));
      assert.equal(setup.ok, false, text);
      if (!setup.ok) {
        assert.equal(setup.error.kind, 'bad-request-file');
        assert.match(setup.error.message, message);
      }
    }
  });

  it('reads every case of a test file, with the files a case names read beside it', async () => {
    const files = beside({ 'up.json': '[{"url": "https://s.example/status", "body": {"up": true}}]' });
    const cases = await loadTestCases(
      JSON.stringify({
        cases: [
          { name: 'adult', request: { query: { age: '30' } }, expect: { result: { verdict: 'adult' } } },
          { name: 'upstream', fixtures: 'up.json', expect: { status: 200 } },
        ],
      }),
      files,
    );
    assert.ok(cases.ok, cases.ok ? '' : cases.error.message);
    assert.deepEqual(
      cases.value.map((c) => c.name),
      ['adult', 'upstream'],
    );
    assert.equal(cases.value[1]?.fixtures?.[0]?.url, 'https://s.example/status');
    const bad = await loadTestCases('{"cases": [{"name": "x", "expect": {"status": "200"}}]}', files);
    assert.equal(bad.ok, false);
    if (!bad.ok) assert.match(bad.error.message, /cases\[0\]\.expect\.status must be a number/);
    const empty = await loadTestCases('{"cases": []}', files);
    assert.equal(empty.ok, false);
  });

  it('a new request file asks for each parameter the program reads, once, in order, and reads back as a GET', async () => {
    const source = `${AGE_CHECK}addParam("age", again)\naddParam(token, t)\n// addParam(commented, c)\n`;
    assert.deepEqual(requestParameters(source), ['age', 'token']);
    const template = requestTemplate(source);
    assert.deepEqual(JSON.parse(template), {
      request: { method: 'GET', query: { age: '', token: '' }, headers: {}, body: null },
      fixtures: [],
      sql: '',
    });
    const read = await loadRunSetup(template, beside({}));
    assert.ok(read.ok);
    assert.equal(describeRequest(read.value), 'GET ?age=&token=');
  });

  it('describes a request in one line', () => {
    assert.equal(describeRequest(defaultSetup()), 'GET');
    assert.equal(
      describeRequest({
        request: { method: 'POST', query: { q: 'a b', tag: ['x', 'y'] }, headers: {}, body: { n: 1 } },
        sandbox: {
          fixtures: [{ method: 'GET', url: 'https://a.example', status: 200, headers: {}, body: '' }],
          sql: '',
        },
      }),
      'POST ?q=a%20b&tag=x&tag=y + body + 1 fixture + SQL seed',
    );
  });
});

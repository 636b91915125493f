/**
 * `avap run` and `avap test` as real processes (dist/cli.js): exit codes 0/1/2/3, text and JSON output, the
 * embedded PostgreSQL seeded from --sql (a SELECT and an INSERT), recorded responses, and HTTP through an allowed
 * local host (a real server this test starts); `avap test` on a file with a passing and a failing case, and on the
 * repository's examples.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT, runCliProcess } from '../../support/dist';

interface RunJson {
  status: number;
  result: Record<string, unknown>;
  variables: Record<string, unknown>;
  logs: unknown[];
  error: { line: number; command: string; message: string; code: string } | null;
  portability: { line: number; rule: string }[];
}

describe('cli run and test (the sandboxed runtime)', function () {
  this.timeout(60_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'avap-run-'));
  const file = (name: string, text: string) => {
    const full = path.join(dir, name);
    writeFileSync(full, text);
    return full;
  };
  let server: Server;
  let port: number;
  const seen: string[] = [];

  before(async () => {
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ pong: req.url }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => server.close());

  it('prints the status and the response body, and exits 0 when the run completes', async () => {
    const program = file('greet.avap', 'addParam(name, who)\nmessage = "hello " + who\naddResult(message)\n');
    const run = await runCliProcess(['run', program, '--query', 'name=ana']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'HTTP 200\n{\n  "message": "hello ana"\n}\n');
  });

  it('--query parameters named after Object.prototype members reach the program like any other', async () => {
    const program = file('proto.avap', 'addParam(toString, a)\naddParam("__proto__", p)\naddResult(a)\naddResult(p)\n');
    const run = await runCliProcess(['run', program, '--json', '--query', 'toString=x', '--query', '__proto__=7']);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual((JSON.parse(run.stdout) as RunJson).result, { a: 'x', p: 7 });
  });

  it('--json prints one object; a run that sets _status still exits 0', async () => {
    const program = file('missing.avap', '_status = 404\naddVar(error, "no such user")\naddResult(error)\n');
    const run = await runCliProcess(['run', program, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as RunJson;
    assert.deepEqual(Object.keys(out), ['status', 'result', 'variables', 'logs', 'error', 'portability']);
    assert.equal(out.status, 404);
    assert.deepEqual(out.result, { error: 'no such user' });
    assert.equal(out.error, null);
  });

  it('an uncaught run-time error exits 1 with status 500 and the line, command and cause', async () => {
    const program = file(
      'fails.avap',
      'addVar(a, 1)\naddVar(url, "https://api.example.com/users")\nRequestGet(url, "", "", users)\naddResult(users)\n',
    );
    const run = await runCliProcess(['run', program, '--json']);
    assert.equal(run.code, 1);
    const out = JSON.parse(run.stdout) as RunJson;
    assert.equal(out.status, 500);
    assert.equal(out.error?.line, 3);
    assert.equal(out.error?.command, 'RequestGet');
    assert.equal(out.error?.code, 'http-not-recorded');
    assert.ok(out.error?.message.includes('https://api.example.com/users'), out.error?.message);
    const text = await runCliProcess(['run', program]);
    assert.equal(text.code, 1);
    assert.match(
      text.stderr,
      /^error: line 3 \(RequestGet\): .*https:\/\/api\.example\.com\/users.* \[http-not-recorded\]$/m,
    );
  });

  it('a runaway loop ends on the step budget (exit 1); a slow one on the time budget', async () => {
    const program = file('forever.avap', 'startLoop(i, 1, 1000000000)\n  addVar(x, i)\nendLoop()\n');
    const steps = await runCliProcess(['run', program, '--json', '--max-steps', '50000']);
    assert.equal(steps.code, 1);
    assert.equal((JSON.parse(steps.stdout) as RunJson).error?.code, 'step-budget');
    const time = await runCliProcess(['run', program, '--json', '--max-steps', '1000000000000', '--timeout', '0.2']);
    assert.equal(time.code, 1);
    const out = JSON.parse(time.stdout) as RunJson;
    assert.equal(out.error?.code, 'time-budget');
    assert.equal(out.status, 500);
  });

  it('usage errors exit 2: a bad flag value, a missing file, a bad fixtures file', async () => {
    const program = file('ok.avap', 'addVar(a, 1)\n');
    for (const args of [
      ['run', program, '--query', 'novalue'],
      ['run', path.join(dir, 'nope.avap')],
      ['run', program, '--fixtures', file('bad.json', '{"not": "a list"}')],
      ['run', program, '--allow-http', 'http://x/'],
      ['run', program, '--now', 'yesterday'],
      ['run'],
    ]) {
      const run = await runCliProcess(args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, /^avap run: /);
    }
  });

  it('code the parser rejects is not run: its trace is printed and the exit code is 3', async () => {
    const program = file('foreign.avap', 'addVar(a, 1)\nconsole.log(a)\n');
    const run = await runCliProcess(['run', program]);
    assert.equal(run.code, 3);
    assert.match(run.stdout, /foreign\.avap: Line 2: /);
    assert.match(run.stderr, /the parser rejects .*foreign\.avap; nothing was run/);
    const json = await runCliProcess(['run', program, '--json']);
    assert.equal(json.code, 3);
    assert.equal((JSON.parse(json.stdout) as { valid: boolean }).valid, false);
  });

  it('--sql seeds the run database: a SELECT gives row objects, an INSERT "Success: N"', async function () {
    // A fresh process creates its embedded PostgreSQL (initdb): ~1 s quiet, 9–20 s on the loaded 2-core CI machine.
    this.timeout(120_000);
    const seed = file(
      'seed.sql',
      "CREATE TABLE users (id serial PRIMARY KEY, name text);\nINSERT INTO users (name) VALUES ('ana'), ('bo');\n",
    );
    const program = file(
      'users.avap',
      [
        'ormDirect("SELECT id, name FROM users ORDER BY id", before)',
        'ormDirect("INSERT INTO users (name) VALUES (\'cy\')", made)',
        'ormDirect("SELECT count(*) AS n FROM users", after)',
        'addResult(before)',
        'addResult(made)',
        'addResult(after)',
        '',
      ].join('\n'),
    );
    const run = await runCliProcess(['run', program, '--sql', seed, '--json'], { killAfterMs: 110_000 });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const out = JSON.parse(run.stdout) as RunJson;
    assert.deepEqual(out.result.before, [
      { id: 1, name: 'ana' },
      { id: 2, name: 'bo' },
    ]);
    assert.equal(out.result.made, 'Success: 1');
    assert.deepEqual(out.result.after, [{ n: 3 }]);
  });

  it('HTTP goes to an allowed local host for real; without the allow-list nothing leaves', async () => {
    const program = file('ping.avap', `RequestGet("http://127.0.0.1:${port}/ping", "", "", reply)\naddResult(reply)\n`);
    const allowed = await runCliProcess(['run', program, '--allow-http', `127.0.0.1:${port}`, '--json']);
    assert.equal(allowed.code, 0, allowed.stdout + allowed.stderr);
    assert.deepEqual((JSON.parse(allowed.stdout) as RunJson).result, { reply: { pong: '/ping' } });
    assert.deepEqual(seen, ['GET /ping']);
    const refused = await runCliProcess(['run', program, '--allow-http', 'api.example.com', '--json']);
    assert.equal(refused.code, 1);
    assert.equal((JSON.parse(refused.stdout) as RunJson).error?.code, 'http-not-allowed');
    assert.deepEqual(seen, ['GET /ping']);
  });

  it('--fixtures answers from recorded responses', async () => {
    const fixtures = file(
      'calls.json',
      JSON.stringify([{ url: 'https://api.example.com/users', body: [{ name: 'ana' }] }]),
    );
    const program = file('list.avap', 'RequestGet("https://api.example.com/users", "", "", users)\naddResult(users)\n');
    const run = await runCliProcess(['run', program, '--fixtures', fixtures, '--json']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual((JSON.parse(run.stdout) as RunJson).result, { users: [{ name: 'ana' }] });
  });

  it('avap test: a line per case and "N passed, N failed"; exit 1 when a case fails', async () => {
    file('double.avap', 'addParam(n, x)\ny = x * 2\naddResult(y)\n');
    file(
      'double.avap.test.json',
      JSON.stringify({
        cases: [
          { name: 'doubles 21', request: { query: { n: '21' } }, expect: { status: 200, result: { y: 42 } } },
          { name: 'wrongly expects 43', request: { query: { n: '21' } }, expect: { result: { y: 43 } } },
        ],
      }),
    );
    const run = await runCliProcess(['test', path.join(dir, 'double.avap')]);
    assert.equal(run.code, 1, run.stderr);
    const lines = run.stdout.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^ok {4}.*double\.avap\.test\.json › doubles 21$/);
    assert.match(lines[1] ?? '', /^FAIL {2}.*double\.avap\.test\.json › wrongly expects 43$/);
    assert.equal(lines[2], '      result.y: expected 43, got 42');
    assert.equal(lines.at(-1), '1 passed, 1 failed');
  });

  it("avap test passes on the repository's examples", async () => {
    const run = await runCliProcess(['test', path.join(REPO_ROOT, 'examples')]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^\d+ passed, 0 failed$/m);
    assert.doesNotMatch(run.stdout, /^FAIL/m);
  });

  it('avap test with no test file is a usage error', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'avap-empty-'));
    const run = await runCliProcess(['test', empty]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /no \.avap\.test\.json file under/);
  });
});

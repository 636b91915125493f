import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI_JS, REPO_ROOT, startParserProcess, type RunningParser } from '../../support/parserProcess';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], options: { stdin?: string | Buffer; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_JS, ...args], {
      env: { ...process.env, AVAP_PARSER_URL: '', ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

describe('cli validate', function () {
  this.timeout(30_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'avap-cli-'));
  const good = path.join(dir, 'good.avap');
  const bad = path.join(dir, 'bad.avap');
  const binary = path.join(dir, 'junk.avap');
  const big = path.join(dir, 'big.avap');
  writeFileSync(good, 'addParam("q", q)\naddResult(q)\n');
  writeFileSync(bad, 'addVar(a, 1)\ngetSHA256(a, h)\nfor i in range(3):\nreturnResult(h)\n');
  writeFileSync(binary, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3, 0, 0]));
  writeFileSync(big, 'addVar(a, 1)\n'.repeat(200));
  const corpus = readdirSync(path.join(REPO_ROOT, 'test', 'corpus', 'valid')).map((f) =>
    path.join(REPO_ROOT, 'test', 'corpus', 'valid', f),
  );
  let service: RunningParser;

  before(async () => {
    service = await startParserProcess();
  });
  after(async () => {
    await service?.stop('SIGKILL');
  });

  it('prints Line N lines prefixed by the file and exits 1 when a file is invalid', async () => {
    const run = await cli(['validate', good, bad]);
    assert.equal(run.code, 1);
    assert.equal(
      run.stdout,
      [
        `${good}: valid`,
        `${bad}: Line 2: 'getSHA256' not defined — did you mean 'encodeSHA256'?`,
        `${bad}: Line 3: unexpected construct 'for i in range(...)' — AVAP loop syntax required: startLoop(i, from, to) … endLoop()`,
        `${bad}: Line 4: 'returnResult' not defined — did you mean 'addResult'?`,
        '',
      ].join('\n'),
    );
  });

  it('exits 0 on the valid corpus', async () => {
    const run = await cli(['validate', ...corpus]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
  });

  it('prints one JSON object per file with --json', async () => {
    const run = await cli(['validate', '--json', good, bad]);
    const objects = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(objects.length, 2);
    assert.deepEqual(Object.keys(objects[1] ?? {}), ['file', 'valid', 'trace', 'parserVersion', 'truncated']);
    const trace = (objects[1]?.trace ?? []) as Record<string, unknown>[];
    assert.deepEqual(Object.keys(trace[0] ?? {}), [
      'line',
      'column',
      'endColumn',
      'severity',
      'category',
      'code',
      'message',
      'suggestion',
      'token',
      'fix',
    ]);
    assert.equal(trace[0]?.suggestion, 'encodeSHA256');
    assert.deepEqual(trace[0]?.fix, {
      title: "Replace 'getSHA256' with 'encodeSHA256'",
      edits: [{ line: 2, column: 1, endLine: 2, endColumn: 10, newText: 'encodeSHA256' }],
    });
    assert.equal(trace[1]?.fix, null, 'no proven fix: null');
    assert.deepEqual(
      trace.map((e) => e.code),
      ['unknown-command', 'foreign-loop', 'unknown-command'],
    );
    assert.equal(objects[0]?.valid, true);
  });

  it('gives the same output in-process and through the service, text and JSON', async () => {
    const files = [good, bad, binary, big, ...corpus];
    for (const mode of [[], ['--json']]) {
      const local = await cli(['validate', ...mode, '--max-bytes', '1000', ...files]);
      const remote = await cli(['validate', ...mode, '--max-bytes', '1000', '--parser-url', service.address, ...files]);
      assert.equal(remote.stdout, local.stdout);
      assert.equal(remote.code, local.code);
      const viaEnv = await cli(['validate', ...mode, '--max-bytes', '1000', ...files], {
        env: { AVAP_PARSER_URL: `grpc://${service.address}` },
      });
      assert.equal(viaEnv.stdout, local.stdout);
    }
  });

  it('reads standard input for -', async () => {
    const run = await cli(['validate', '-'], { stdin: 'getSHA256(a, b)\n' });
    assert.equal(run.code, 1);
    assert.match(run.stdout, /^<stdin>: Line 1: 'getSHA256' not defined/);
  });

  it('flags binary junk and oversize files clearly without crashing', async () => {
    const run = await cli(['validate', '--max-bytes', '1000', binary, big]);
    assert.equal(run.code, 1);
    assert.match(run.stdout, new RegExp(`${binary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: Line 1: .*binary`, 'i'));
    assert.match(run.stdout, /over the 1000 bytes limit/);
  });

  it('exits 2 with a one-line reason for usage errors, unreadable files and an unreachable service', async () => {
    const noFile = await cli(['validate']);
    assert.equal(noFile.code, 2);
    assert.match(noFile.stderr, /no file given/);
    const missing = await cli(['validate', path.join(dir, 'nope.avap')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot read .*nope\.avap: ENOENT/);
    const badUrl = await cli(['validate', '--parser-url', 'not a url', good]);
    assert.equal(badUrl.code, 2);
    const down = await cli(['validate', '--parser-url', '127.0.0.1:1', '--timeout', '2', good]);
    assert.equal(down.code, 2);
    assert.equal(down.stderr.trim().split('\n').length, 1, down.stderr);
    assert.match(down.stderr, /parser service at 127\.0\.0\.1:1/);
    const unknown = await cli(['frobnicate']);
    assert.equal(unknown.code, 2);
  });
});

import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { closeSync, constants, createWriteStream, mkdtempSync, openSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI_JS, REPO_ROOT, startParserProcess, type RunningParser } from '../../support/parserProcess';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(
  args: string[],
  options: {
    stdin?: string | Buffer;
    env?: NodeJS.ProcessEnv;
    /** Feeds standard input itself (instead of `stdin`), e.g. without end. */
    feed?: (child: ChildProcessWithoutNullStreams) => void;
  } = {},
): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_JS, ...args], {
      env: { ...process.env, AVAP_PARSER_URL: '', ...options.env },
    });
    // A CLI that reads without limit fails its test instead of filling the machine's memory.
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
    if (options.feed) options.feed(child);
    else child.stdin.end(options.stdin ?? '');
  });
}

/** Writes to the child's standard input without end (until it stops reading). */
function endless(child: ChildProcessWithoutNullStreams, onRead: () => void = () => undefined): void {
  const chunk = Buffer.alloc(256 * 1024, 'a');
  child.stdin.on('error', () => undefined); // EPIPE once the child stops reading: expected
  const write = () => {
    while (child.stdin.writable && child.stdin.write(chunk));
    if (child.stdin.writable) {
      child.stdin.once('drain', () => {
        // The pipe drained: the CLI is reading.
        onRead();
        write();
      });
    }
  };
  write();
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

  it('stops reading at the byte limit: /dev/zero (with --max-bytes and without) and an endless standard input', async () => {
    const zero = await cli(['validate', '--max-bytes', '1000', '/dev/zero']);
    assert.equal(zero.code, 1, zero.stderr);
    assert.equal(
      zero.stdout,
      '/dev/zero: Line 1: source goes on past the 1000 bytes limit (reading stopped there) — split it into smaller files\n',
    );
    const zeroDefault = await cli(['validate', '/dev/zero']);
    assert.equal(zeroDefault.code, 1, zeroDefault.stderr);
    assert.match(
      zeroDefault.stdout,
      /^\/dev\/zero: Line 1: source goes on past the 1\.0 MiB limit \(reading stopped there\)/,
    );
    const stdin = await cli(['validate', '--json', '--max-bytes', '1000', '-'], { feed: (child) => endless(child) });
    assert.equal(stdin.code, 1, stdin.stderr);
    const object = JSON.parse(stdin.stdout) as { file: string; valid: boolean; trace: { code: string }[] };
    assert.equal(object.file, '<stdin>');
    assert.equal(object.valid, false);
    assert.deepEqual(
      object.trace.map((e) => e.code),
      ['source-too-large'],
    );
    // A regular file over the limit is refused from its size, as before: the message gives the size.
    const sized = await cli(['validate', '--max-bytes', '1000', big]);
    assert.match(sized.stdout, /source is 2\.5 KiB, over the 1000 bytes limit/);
  });

  it('the first SIGTERM ends a long read of standard input at once: exit 130, said on stderr', async () => {
    let signalled = false;
    const run = await cli(['validate', '--max-bytes', '100000000000', '-'], {
      feed: (child) =>
        endless(child, () => {
          if (signalled) return;
          signalled = true;
          child.kill('SIGTERM');
        }),
    });
    assert.equal(run.code, 130, run.stderr);
    assert.match(run.stderr, /^avap validate: interrupted \(received SIGTERM\); <stdin> was not validated\n$/);
    assert.equal(run.stdout, '');
  });

  it('the first SIGINT ends a long read of a FIFO at once: exit 130, said on stderr', async () => {
    const fifo = path.join(dir, 'endless.fifo');
    execFileSync('mkfifo', [fifo]);
    const writer = createWriteStream(fifo);
    writer.on('error', () => undefined); // EPIPE once the CLI has gone: expected
    const chunk = Buffer.alloc(256 * 1024, 'a');
    let signalled = false;
    const run = await cli(['validate', '--max-bytes', '100000000000', fifo], {
      feed: (child) => {
        child.stdin.end();
        const write = () => {
          while (!writer.destroyed && writer.write(chunk));
          writer.once('drain', () => {
            // The FIFO drained: the CLI is reading it.
            if (!signalled) {
              signalled = true;
              child.kill('SIGINT');
            }
            write();
          });
        };
        write();
        child.once('close', () => {
          // A CLI that never opened the FIFO leaves our open waiting for a reader: be that reader, then let go.
          if (writer.pending) closeSync(openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK));
          writer.destroy();
        });
      },
    });
    assert.equal(run.code, 130, run.stderr);
    assert.equal(run.stderr, `avap validate: interrupted (received SIGINT); ${fifo} was not validated\n`);
  });

  it('--json prints one object for every file: a directory or a missing file is an error object, not only a line on stderr', async () => {
    const run = await cli(['validate', '--json', good, dir, path.join(dir, 'nope.avap')]);
    assert.equal(run.code, 2);
    const objects = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(objects.length, 3);
    assert.equal(objects[0]?.valid, true);
    assert.deepEqual(objects[1], {
      file: dir,
      error: { code: 'unreadable', message: `cannot read ${dir}: EISDIR (a directory)` },
    });
    assert.deepEqual(objects[2], {
      file: path.join(dir, 'nope.avap'),
      error: { code: 'unreadable', message: `cannot read ${path.join(dir, 'nope.avap')}: ENOENT` },
    });
    assert.equal(
      run.stderr,
      `avap validate: cannot read ${dir}: EISDIR (a directory)\navap validate: cannot read ${path.join(dir, 'nope.avap')}: ENOENT\n`,
    );
  });

  it('exits 2 with a one-line reason for usage errors and unreadable files; an unreachable service is PARSER_UNAVAILABLE, exit 4', async () => {
    const noFile = await cli(['validate']);
    assert.equal(noFile.code, 2);
    assert.match(noFile.stderr, /no file given/);
    const missing = await cli(['validate', path.join(dir, 'nope.avap')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot read .*nope\.avap: ENOENT/);
    const badUrl = await cli(['validate', '--parser-url', 'not a url', good]);
    assert.equal(badUrl.code, 2);
    // No verdict from the service is PARSER_UNAVAILABLE, as in `generate`: exit 4, not a usage error.
    const down = await cli(['validate', '--parser-url', '127.0.0.1:1', '--timeout', '2', good]);
    assert.equal(down.code, 4);
    assert.equal(down.stderr.trim().split('\n').length, 1, down.stderr);
    assert.match(down.stderr, /^avap validate: PARSER_UNAVAILABLE — parser service at 127\.0\.0\.1:1/);
    assert.equal(down.stdout, '', 'nothing claimed about the file');
    const unknown = await cli(['frobnicate']);
    assert.equal(unknown.code, 2);
  });
});

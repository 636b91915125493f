/**
 * The shared append-only JSONL writer (telemetry log, signal store): torn
 * tails, serialised appends, failures as data, health.
 */
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { endsWithoutNewline, JsonlAppendLog } from '../../../src/jsonl';

describe('jsonl/appendLog', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'jsonl-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('appends one line per record, in the order issued, creating the folder', async () => {
    const file = path.join(dir, 'a', 'b', 'log.jsonl');
    const log = new JsonlAppendLog(file);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => log.append({ i, text: 'x\ny'.repeat(i) })));
    assert.ok(results.every((r) => r.ok));
    const lines = readFileSync(file, 'utf8').split('\n');
    assert.equal(lines.pop(), '', 'the file ends with a newline');
    assert.deepEqual(
      lines.map((l) => (JSON.parse(l) as { i: number }).i),
      Array.from({ length: 50 }, (_, i) => i),
    );
  });

  it('a torn last line is reported once and the next record starts on a fresh line', async () => {
    const file = path.join(dir, 'log.jsonl');
    writeFileSync(file, '{"n":1}\n{"n":2,"cut');
    const reports: string[] = [];
    const log = new JsonlAppendLog(file, { onTornTail: (f) => reports.push(f) });
    assert.deepEqual(await log.append({ n: 3 }), { ok: true, value: undefined });
    assert.deepEqual(await log.append({ n: 4 }), { ok: true, value: undefined });
    assert.deepEqual(reports, [file]);
    assert.equal(readFileSync(file, 'utf8'), '{"n":1}\n{"n":2,"cut\n{"n":3}\n{"n":4}\n');
    // Torn again later (another writer crashed): reported again, once.
    appendFileSync(file, '{"n":5');
    await log.append({ n: 6 });
    assert.equal(reports.length, 2);
    assert.ok(readFileSync(file, 'utf8').endsWith('{"n":5\n{"n":6}\n'));
  });

  it('a reporter that throws does not stop the write', async () => {
    const file = path.join(dir, 'log.jsonl');
    writeFileSync(file, '{"cut');
    const log = new JsonlAppendLog(file, {
      onTornTail: () => {
        throw new Error('boom');
      },
    });
    assert.deepEqual(await log.append({ ok: 1 }), { ok: true, value: undefined });
    assert.equal(readFileSync(file, 'utf8'), '{"cut\n{"ok":1}\n');
  });

  it('endsWithoutNewline: missing, empty, clean and torn files', async () => {
    const file = path.join(dir, 'f');
    assert.equal(await endsWithoutNewline(file), false);
    writeFileSync(file, '');
    assert.equal(await endsWithoutNewline(file), false);
    writeFileSync(file, '{}\n');
    assert.equal(await endsWithoutNewline(file), false);
    writeFileSync(file, '{}\n{');
    assert.equal(await endsWithoutNewline(file), true);
  });

  it('a full disk is a failure with its code, never an exception; health reports it until a write succeeds', async () => {
    assert.ok(existsSync('/dev/full'), 'this test writes to /dev/full (always ENOSPC)');
    const log = new JsonlAppendLog('/dev/full');
    assert.deepEqual(
      await log.health(),
      { ok: true, value: undefined },
      'nothing has failed yet and the device opens for appending',
    );
    const written = await log.append({ a: 1 });
    assert.equal(written.ok, false);
    assert.ok(
      !written.ok &&
        written.error.kind === 'unwritable' &&
        written.error.code === 'ENOSPC' &&
        written.error.message === 'cannot append to /dev/full: ENOSPC',
      JSON.stringify(written),
    );
    const health = await log.health();
    assert.ok(!health.ok && health.error.code === 'ENOSPC');
  });

  it('an unwritable path fails the probe and the append with its code; it recovers when the path is fixed', async () => {
    const blocker = path.join(dir, 'blocker');
    writeFileSync(blocker, 'a file where a folder should be');
    const file = path.join(blocker, 'log.jsonl');
    const log = new JsonlAppendLog(file);
    const health = await log.health();
    assert.ok(!health.ok && health.error.code === 'ENOTDIR', JSON.stringify(health));
    const written = await log.append({ a: 1 });
    assert.ok(!written.ok && written.error.message.startsWith(`cannot append to ${file}:`));
    rmSync(blocker);
    assert.deepEqual(await log.append({ a: 2 }), { ok: true, value: undefined });
    assert.deepEqual(await log.health(), { ok: true, value: undefined });
    assert.equal(readFileSync(file, 'utf8'), '{"a":2}\n');
  });

  it('a record that is not JSON-serialisable is refused as data', async () => {
    const file = path.join(dir, 'log.jsonl');
    const log = new JsonlAppendLog(file);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const record of [cyclic, { n: 1n }, undefined]) {
      const written = await log.append(record);
      assert.ok(!written.ok && written.error.kind === 'invalid-record' && written.error.code === 'EINVAL');
    }
    assert.equal(existsSync(file), false);
    await log.flush();
  });
});

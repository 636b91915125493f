/**
 * `avap fmt [--check] [PATH…]` as CI runs it: a real child process over real
 * files — in place, --check with exit 1 and the files that would change,
 * directories, standard input, and files it must not touch.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCliProcess } from '../../support/dist';

const MESSY = 'if(a,b,"=")\naddVar(x,1)   \nend()\n\n\n';
const TIDY = 'if(a, b, "=")\n  addVar(x, 1)\nend()\n';

describe('cli fmt', function () {
  this.timeout(30_000);

  function workspace(): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'avap-fmt-'));
    mkdirSync(path.join(dir, 'src', 'node_modules'), { recursive: true });
    mkdirSync(path.join(dir, '.hidden'));
    writeFileSync(path.join(dir, 'src', 'messy.avap'), MESSY);
    writeFileSync(path.join(dir, 'src', 'tidy.avap'), TIDY);
    writeFileSync(path.join(dir, 'src', 'node_modules', 'dep.avap'), MESSY);
    writeFileSync(path.join(dir, '.hidden', 'skip.avap'), MESSY);
    writeFileSync(path.join(dir, 'notes.txt'), MESSY);
    return dir;
  }

  it('--check lists the files that would change, exits 1 and writes nothing', async () => {
    const dir = workspace();
    const run = await runCliProcess(['fmt', '--check', dir]);
    assert.equal(run.code, 1, run.stderr);
    assert.equal(run.stdout, `${path.join(dir, 'src', 'messy.avap')}\n`);
    assert.equal(readFileSync(path.join(dir, 'src', 'messy.avap'), 'utf8'), MESSY);
  });

  it('formats in place, listing what it changed; a formatted tree then passes --check', async () => {
    const dir = workspace();
    const run = await runCliProcess(['fmt', path.join(dir, 'src')]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `${path.join(dir, 'src', 'messy.avap')}\n`);
    assert.equal(readFileSync(path.join(dir, 'src', 'messy.avap'), 'utf8'), TIDY);
    assert.equal(readFileSync(path.join(dir, 'src', 'node_modules', 'dep.avap'), 'utf8'), MESSY, 'node_modules left');
    const again = await runCliProcess(['fmt', '--check', path.join(dir, 'src')]);
    assert.equal(again.code, 0);
    assert.equal(again.stdout, '');
  });

  it('formats standard input to standard output, and keeps a byte-order mark', async () => {
    const run = await runCliProcess(['fmt', '-'], { input: MESSY });
    assert.equal(run.code, 0);
    assert.equal(run.stdout, TIDY);
    const dir = workspace();
    const file = path.join(dir, 'bom.avap');
    writeFileSync(file, `\ufeff${MESSY}`);
    assert.equal((await runCliProcess(['fmt', file])).code, 0);
    assert.equal(readFileSync(file, 'utf8'), `\ufeff${TIDY}`);
  });

  it('refuses a missing or binary file with exit 2, and still formats the others', async () => {
    const dir = workspace();
    const binary = path.join(dir, 'junk.avap');
    writeFileSync(binary, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]));
    const messy = path.join(dir, 'src', 'messy.avap');
    const run = await runCliProcess(['fmt', path.join(dir, 'missing.avap'), binary, messy]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /cannot read .*missing\.avap: ENOENT/);
    assert.match(run.stderr, /junk\.avap: not formatted — /);
    assert.equal(readFileSync(messy, 'utf8'), TIDY);
    assert.deepEqual(readFileSync(binary), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]));
  });
});

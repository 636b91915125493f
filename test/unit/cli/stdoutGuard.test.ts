import assert from 'node:assert/strict';
// internal-import: the CLI has no library entry; the guard that keeps stdout for results
import { guardStdout } from '../../../src/cli/stdoutGuard';

/** A stand-in for a process stream that records what is written to it. */
function stream(): NodeJS.WriteStream & { text: string } {
  const s = {
    text: '',
    write(chunk: unknown) {
      s.text += String(chunk);
      return true;
    },
  };
  return s as unknown as NodeJS.WriteStream & { text: string };
}

describe('cli: standard output belongs to the command', () => {
  it("stray writes of dependencies go to stderr; the command's own writer reaches stdout", () => {
    const out = stream();
    const err = stream();
    const guard = guardStdout(out, err);
    try {
      out.write('stray text from a dependency\n');
      guard.write('{"is_final":true}\n');
    } finally {
      guard.restore();
    }
    assert.equal(out.text, '{"is_final":true}\n');
    assert.equal(err.text, 'stray text from a dependency\n');
  });

  it('console.log, info and debug go to stderr while guarded, and are restored after', () => {
    const before = console.log;
    const out = stream();
    const guard = guardStdout(out, stream());
    const seen: string[] = [];
    const error = console.error;
    console.error = (...args: unknown[]) => {
      seen.push(args.join(' '));
    };
    try {
      console.log('Failed to parse error response as JSON');
      console.info('info');
      console.debug('debug');
    } finally {
      console.error = error;
      guard.restore();
    }
    assert.deepEqual(seen, ['Failed to parse error response as JSON', 'info', 'debug']);
    assert.equal(out.text, '');
    assert.equal(console.log, before);
  });
});

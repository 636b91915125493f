/**
 * The process around a CLI run (src/cli/lifecycle.ts), in real child
 * processes: a run whose event loop empties before its answer is an internal
 * error (exit 2, said on stderr, never a silent exit 0); the first SIGINT or
 * SIGTERM ends the process — at once when the run honours its signal, after
 * the grace period when it does not — and a second signal ends it at once.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';

const FIXTURE = path.join(__dirname, 'fixtures', 'supervisedRun.ts');

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the fixture; `onReady` gets the child once it printed "ready", `onOutput` every time stdout grows. */
function supervised(
  mode: string,
  options: {
    graceMs?: number;
    onReady?: (child: ReturnType<typeof spawn>) => void;
    onOutput?: (stdout: string, child: ReturnType<typeof spawn>) => void;
  } = {},
): Promise<Exit> {
  const child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), FIXTURE, mode], {
    env: { ...process.env, GRACE_MS: String(options.graceMs ?? 2000) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let ready = false;
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    stdout += chunk;
    if (!ready && stdout.includes('ready\n')) {
      ready = true;
      options.onReady?.(child);
    }
    options.onOutput?.(stdout, child);
  });
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.once('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr });
    }),
  );
}

describe('cli: the process around a run', function () {
  this.timeout(30_000);

  it("exits with the run's own code when it answers", async () => {
    const exit = await supervised('answers');
    assert.equal(exit.code, 3);
    assert.equal(exit.stderr, '');
  });

  it('an event loop that empties while the answer is pending is an internal error: exit 2, said on stderr', async () => {
    const exit = await supervised('drains');
    assert.equal(exit.code, 2, 'never exit 0 without an answer');
    assert.match(
      exit.stderr,
      /^avap: internal error: the command was still waiting for its answer .*no answer was given/,
    );
  });

  it('a run that honours its signal still prints its final message when its event loop empties, and exits 2', async () => {
    const exit = await supervised('drains-then-answers');
    assert.equal(exit.code, 2);
    assert.equal(exit.stdout, 'ready\n{"is_final":true,"error":"cancelled"}\n');
    assert.match(exit.stderr, /internal error/);
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`the first ${signal} aborts the run's signal: a run that honours it ends at once with its code`, async () => {
      const exit = await supervised('honours-signal', { graceMs: 60_000, onReady: (child) => child.kill(signal) });
      assert.equal(exit.signal, null);
      assert.equal(exit.code, 130);
      assert.equal(exit.stdout, 'ready\nstopped\n');
    });
  }

  it('a run that ignores the signal is ended after the grace period, with exit 130 and a line saying so', async () => {
    const exit = await supervised('ignores-signal', { graceMs: 200, onReady: (child) => child.kill('SIGTERM') });
    assert.equal(exit.code, 130);
    assert.match(exit.stderr, /avap: still running 200 ms after SIGTERM; exiting now/);
  });

  it('a second signal ends the process at once', async () => {
    let second = false;
    const exit = await supervised('ignores-signal', {
      graceMs: 60_000,
      onReady: (child) => child.kill('SIGINT'),
      // The second one once the first has reached the run (two signals sent at once may arrive as one).
      onOutput: (stdout, child) => {
        if (second || !stdout.includes('aborted\n')) return;
        second = true;
        child.kill('SIGINT');
      },
    });
    assert.equal(exit.code, 130);
    assert.match(exit.stderr, /avap: SIGINT again; exiting now/);
  });
});

/** What the result view shows of a run: status, body, logs, portability notes and the step trace, line by line. */
import assert from 'node:assert/strict';
import { runViewModel, statusText, VIEW_STEPS } from '../../../src/runs';
import { AGE_CHECK, get, traced } from './support';

describe('runs: the result view of a run', () => {
  it('holds the status, the body (and its JSON), the logs, the portability notes and each step with its changes', async () => {
    const run = await traced(AGE_CHECK, get({ age: '30' }));
    const view = runViewModel({
      title: 'age-check.avap',
      linked: true,
      request: 'GET ?age=30',
      result: run,
      durationMs: 3,
    });
    assert.equal(view.status, 200);
    assert.equal(view.statusText, 'OK');
    assert.equal(view.tone, 'success');
    assert.deepEqual(view.body, { verdict: 'adult' });
    assert.equal(view.bodyText, '{\n  "verdict": "adult"\n}');
    assert.deepEqual(view.logs, [
      { line: 2, text: 'addParam', ok: true },
      { line: 3, text: 'if', ok: true },
      { line: 8, text: 'addResult', ok: true },
    ]);
    assert.equal(view.portability[0]?.line, 2);
    assert.equal(view.portability[0]?.rule, 'addparam-numeric-text');
    assert.match(view.portability[0]?.text ?? '', /on AVAP Lite: /);
    assert.deepEqual(view.steps, [
      { line: 2, command: 'addParam', changes: 'years = 30' },
      { line: 3, command: 'if', changes: '' },
      { line: 4, command: 'addVar', changes: 'verdict = "adult"' },
      { line: 8, command: 'addResult', changes: '' },
    ]);
    assert.equal(view.stepsHidden, 0);
    assert.equal(view.error, undefined);
  });

  it('an uncaught error: its line, command, message and code; the tone of a failure', async () => {
    const run = await traced('addVar(a, 1)\nnope(a)\n');
    const view = runViewModel({ title: 't', linked: false, request: 'GET', result: run, durationMs: 1 });
    assert.equal(view.status, 500);
    assert.equal(view.tone, 'failure');
    assert.deepEqual(
      { line: view.error?.line, command: view.error?.command, code: view.error?.code },
      { line: 2, command: 'nope', code: 'unknown-command' },
    );
    assert.equal(view.logs[1]?.ok, false);
    assert.equal(view.error?.text, `nope: ${view.error?.message}`);
    // A message that already names its command is not prefixed twice.
    const typed = await traced('addVar(x, "text")\nitemFromList(x, 0, y)\n');
    const typedView = runViewModel({ title: 't', linked: false, request: 'GET', result: typed, durationMs: 1 });
    assert.equal(typedView.error?.command, 'itemFromList');
    assert.match(typedView.error?.text ?? '', /^itemFromList: 'x' is not a list/);
  });

  it('lists at most VIEW_STEPS steps and counts the rest, with those the trace did not record', async () => {
    const run = await traced('startLoop(i, 1, 3000)\n  addVar(x, i)\nendLoop()\n', get(), 5000);
    const view = runViewModel({ title: 't', linked: true, request: 'GET', result: run, durationMs: 1 });
    assert.equal(view.steps.length, VIEW_STEPS);
    assert.equal(view.stepsHidden, 6001 - VIEW_STEPS);
  });

  it('names the usual statuses and colours a 4xx apart from a 5xx', () => {
    assert.equal(statusText(404), 'Not Found');
    assert.equal(statusText(299), '');
    const four = runViewModel({
      title: 't',
      linked: true,
      request: 'GET',
      result: { status: 422, result: {}, variables: {}, logs: [], portability: [] },
      durationMs: 0,
    });
    assert.equal(four.tone, 'client');
  });
});

import assert from 'node:assert/strict';
import type { CircuitSnapshot } from '../../../src/core';
import {
  describeCircuit,
  LABEL_INVALID,
  LABEL_UNAVAILABLE,
  LABEL_VALID,
  languageStatusView,
  lookForPipelineStatus,
  sameLook,
  statusLook,
} from '../../../src/editor/status/statusLook';

const closed = { state: 'closed' as const, consecutiveFailures: 0 };
const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

describe('editor: status looks', () => {
  it('gives the three states three different looks', () => {
    const valid = statusLook({ kind: 'valid', warnings: 0 }, closed, NOW);
    const invalid = statusLook({ kind: 'invalid', errors: 2, warnings: 0 }, closed, NOW);
    const unavailable = statusLook(
      { kind: 'unavailable', reason: 'transport', detail: 'connection refused' },
      closed,
      NOW,
    );
    assert.deepEqual([valid.icon, invalid.icon, unavailable.icon], ['check', 'error', 'debug-disconnect']);
    assert.deepEqual([valid.background, invalid.background, unavailable.background], [undefined, 'error', 'warning']);
    assert.equal(valid.label, LABEL_VALID);
    assert.equal(invalid.label, `${LABEL_INVALID} (2 errors)`);
    assert.equal(unavailable.label, LABEL_UNAVAILABLE);
    assert.match(unavailable.tooltip, /connection refused/);
    assert.match(unavailable.tooltip, /no squiggles/);
  });

  it('tells when a look changed, so typing that keeps the verdict sends nothing to the workbench', () => {
    const invalid = statusLook({ kind: 'invalid', errors: 1, warnings: 0 }, closed, NOW);
    assert.ok(sameLook(invalid, statusLook({ kind: 'invalid', errors: 1, warnings: 0 }, closed, NOW + 60_000)));
    assert.ok(!sameLook(invalid, undefined));
    assert.ok(!sameLook(invalid, statusLook({ kind: 'invalid', errors: 2, warnings: 0 }, closed, NOW)));
    assert.ok(!sameLook(invalid, statusLook({ kind: 'valid', warnings: 0 }, closed, NOW)));
    const open = (nextProbeAt: number) =>
      statusLook(
        { kind: 'unavailable', reason: 'circuit-open', detail: 'circuit open' },
        { state: 'open', consecutiveFailures: 3, nextProbeAt },
        NOW,
      );
    assert.ok(!sameLook(open(NOW + 12_000), open(NOW + 5_000)), 'the countdown in the tooltip is a change');
  });

  it('tells the circuit state and when the next probe happens', () => {
    const open = { state: 'open' as const, consecutiveFailures: 3, nextProbeAt: NOW + 12_400 };
    const look = statusLook({ kind: 'unavailable', reason: 'circuit-open', detail: 'circuit open' }, open, NOW);
    assert.match(look.tooltip, /Circuit: OPEN — next probe in 13 s/);
    assert.match(
      describeCircuit({ state: 'open', consecutiveFailures: 3, nextProbeAt: NOW - 5 }, NOW),
      /next probe with the next validation/,
    );
    assert.match(describeCircuit({ state: 'half-open', consecutiveFailures: 3 }, NOW), /HALF-OPEN/);
    assert.match(describeCircuit({ state: 'closed', consecutiveFailures: 1 }, NOW), /1 consecutive failure\)/);
    assert.match(describeCircuit({ state: 'disabled', consecutiveFailures: 0 }, NOW), /disabled/);
  });

  it('a parser not connected yet is said as such, never as an open circuit', () => {
    const none = { state: 'not-connected' as const, consecutiveFailures: 0 };
    assert.equal(describeCircuit(none, NOW), 'Parser: not connected yet');
    const look = statusLook({ kind: 'pending' }, none, NOW);
    assert.doesNotMatch(look.tooltip, /OPEN/);
    assert.match(look.tooltip, /not connected yet/);
  });

  it('maps the pipeline statuses onto the same looks', () => {
    assert.equal(lookForPipelineStatus('', true)?.kind, 'valid');
    assert.equal(lookForPipelineStatus('INVALID_UNRESOLVED', true)?.icon, 'error');
    assert.equal(lookForPipelineStatus('PARSER_UNAVAILABLE', true)?.label, LABEL_UNAVAILABLE);
    assert.equal(lookForPipelineStatus('', false), undefined);
  });

  it('the language status beside the language mode keeps the two failure states apart in severity, icon and word', () => {
    const view = (state: Parameters<typeof statusLook>[0], circuit: CircuitSnapshot = closed) =>
      languageStatusView(statusLook(state, circuit, NOW), circuit, NOW);
    const valid = view({ kind: 'valid', warnings: 0 });
    const invalid = view({ kind: 'invalid', errors: 2, warnings: 0 });
    const unavailable = view(
      { kind: 'unavailable', reason: 'circuit-open', detail: 'circuit open' },
      { state: 'open', consecutiveFailures: 3, nextProbeAt: NOW + 12_400 },
    );
    assert.deepEqual(
      [valid.severity, invalid.severity, unavailable.severity],
      ['information', 'error', 'warning'],
      'invalid and unvalidated never share a severity (the workbench colours by it)',
    );
    assert.equal(valid.text, '$(check) valid');
    assert.equal(invalid.text, '$(error) invalid (2 errors)');
    assert.equal(unavailable.text, '$(debug-disconnect) unvalidated — parser unavailable');
    assert.equal(valid.detail, 'Circuit: CLOSED');
    assert.match(unavailable.detail, /Circuit: OPEN — next probe in 13 s/);
    assert.equal(view({ kind: 'disabled' }).severity, 'warning');
    const pending = view({ kind: 'pending' });
    assert.deepEqual([pending.busy, pending.severity, valid.busy], [true, 'information', false]);
  });
});

/**
 * The parser service under more work than fits its deadlines (real process,
 * one worker so the machine's size does not matter): it refuses at once with
 * the overload signal instead of timing out, and a client through the one
 * connection factory still gets a verdict for every call, with the circuit
 * closed. Behaviour only: which answers came, never how fast.
 */
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { openParserConnection } from '../../../src/core/parser/connection';
import { validateAvap } from '../../../src/parser';
import { callValidate, createParserClient, parseParserUrl } from '../../../src/protocol';
import { startParserProcess, type RunningParser } from '../../support/parserProcess';

/** About `bytes` of valid AVAP. */
function bigProgram(bytes: number): string {
  const line = 'addVar(counter, counter + 1)\n';
  return line.repeat(Math.floor(bytes / line.length));
}

describe('parser service under overload (real process)', function () {
  this.timeout(120_000);
  let service: RunningParser;

  before(async () => {
    service = await startParserProcess(['--workers', '1']);
  });
  after(async () => {
    await service?.stop('SIGKILL');
  });

  it('says how many parser workers it runs', async () => {
    for (let i = 0; i < 100 && !service.stderr().includes('parser worker'); i += 1)
      await new Promise((r) => setTimeout(r, 50));
    assert.match(
      service.stderr(),
      /serving avap\.parser\.v1\.AvapParser and grpc\.health\.v1\.Health with 1 parser worker\n/,
    );
  });

  it('refuses what cannot meet its deadline at once, with RESOURCE_EXHAUSTED and the estimated wait', async () => {
    const parsed = parseParserUrl(service.address);
    assert.ok(parsed.ok);
    const client = createParserClient(parsed.value);
    try {
      const source = bigProgram(900 * 1024);
      const calls = await Promise.all(
        Array.from({ length: 40 }, (_, i) => callValidate(client, source, `big${i}.avap`, { timeoutMs: 5000 })),
      );
      const overloaded = calls.filter((c) => !c.ok && c.error.kind === 'overloaded');
      assert.ok(overloaded.length > 0, 'some calls were refused as overloaded');
      for (const call of overloaded) {
        assert.ok(!call.ok);
        assert.equal(call.error.code, grpc.status.RESOURCE_EXHAUSTED);
        assert.equal(typeof call.error.retryAfterMs, 'number');
        assert.match(
          call.error.message,
          /^parser service overloaded: queued work needs ~\d+ ms; the deadline leaves \d+ ms$/,
        );
      }
      assert.ok(
        calls.some((c) => c.ok),
        'the calls it admitted got their verdicts',
      );
      // The transport cap's RESOURCE_EXHAUSTED is still a refusal of the message, not an overload.
      const tooBig = await callValidate(client, 'x'.repeat(2 * 1024 * 1024), 'huge.avap', { timeoutMs: 5000 });
      assert.ok(!tooBig.ok);
      assert.equal(tooBig.error.kind, 'rejected');
    } finally {
      client.close();
    }
  });

  it('through the connection factory the same burst gets a verdict for every call, and the circuit stays closed', async () => {
    const opened = await openParserConnection({
      url: service.address,
      timeoutMs: 2000,
      breakerThreshold: 3,
      breakerCooldownMs: 30_000,
    });
    assert.ok(opened.ok);
    const connection = opened.value;
    try {
      const source = bigProgram(900 * 1024);
      const expected = validateAvap(source);
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, (_, i) => connection.port.validate(source, `big${i}.avap`)),
      );
      for (const outcome of outcomes) {
        assert.equal(outcome.kind, 'validated', JSON.stringify(outcome).slice(0, 300));
        if (outcome.kind === 'validated') assert.equal(outcome.result.valid, expected.valid);
      }
      assert.deepEqual(connection.port.circuit(), { state: 'closed', consecutiveFailures: 0 });
      const small = await connection.port.validate('addVar(a, 1)\n', 'small.avap');
      assert.equal(small.kind === 'validated' && small.result.valid, true);
    } finally {
      await connection.close();
    }
  });
});

/**
 * Several parser services behind one client, over real sockets: round-robin
 * over every endpoint, one replica killed mid-load without losing a verdict,
 * an endpoint that reports NOT_SERVING routed around (and back once it
 * serves again), and the bundled service started by the one factory.
 */
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { openParserConnection, type ParserConnection } from '../../../src/core/parser/connection';
import type { ParserOutcome } from '../../../src/core';
import { validateAvap } from '../../../src/parser';
import { loadParserPackage } from '../../../src/protocol/parserDefinition';
import { PARSER_SERVICE_NAME } from '../../../src/protocol/parserProto';
import { distFile } from '../../support/dist';
import { startParserService, type RunningParserService } from '../../support/parserService';

const FAST_HEALTH = { intervalMs: 100, timeoutMs: 1000 };

/** A program of about `lines` lines, different for each `seed` (some invalid). */
function program(seed: number, lines = 200): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i += 1)
    out.push(i % 50 === 7 && seed % 3 === 0 ? `getSHA256(v${i}, h${i})` : `addVar(v${seed}_${i}, ${i})`);
  return `${out.join('\n')}\n`;
}

/** Runs `total` validations with `concurrency` in flight; `onAnswered(n)` is called after each answer. */
async function load(
  connection: ParserConnection,
  total: number,
  concurrency: number,
  onAnswered: (n: number) => void = () => undefined,
) {
  const outcomes: { seed: number; outcome: ParserOutcome }[] = [];
  let next = 0;
  const workers = Array.from({ length: concurrency }, async () => {
    while (next < total) {
      const seed = next++;
      const outcome = await connection.port.validate(program(seed), `p${seed}.avap`);
      outcomes.push({ seed, outcome });
      onAnswered(outcomes.length);
    }
  });
  await Promise.all(workers);
  return outcomes;
}

function assertAllVerdicts(outcomes: { seed: number; outcome: ParserOutcome }[]): void {
  for (const { seed, outcome } of outcomes) {
    assert.equal(outcome.kind, 'validated', `p${seed}.avap: ${JSON.stringify(outcome)}`);
    if (outcome.kind === 'validated')
      assert.deepEqual(outcome.result, validateAvap(program(seed), { filename: `p${seed}.avap` }));
  }
}

const portOf = (address: string) => address.slice(address.lastIndexOf(':') + 1);

describe('parser services behind one client: balancing, failover, health checks', function () {
  this.timeout(60_000);
  const services: RunningParserService[] = [];
  const connections: ParserConnection[] = [];

  afterEach(async () => {
    await Promise.all(connections.splice(0).map((c) => c.close()));
    await Promise.all(services.splice(0).map((s) => s.kill()));
  });

  async function connect(url: string, peers: string[] = []) {
    const opened = await openParserConnection(
      { url, timeoutMs: 5000, breakerThreshold: 3, breakerCooldownMs: 30_000 },
      {
        grpc: {
          healthCheck: FAST_HEALTH,
          onAnswer: (peer) => {
            if (peer) peers.push(peer);
          },
        },
      },
    );
    assert.ok(opened.ok, opened.ok ? '' : opened.error.message);
    connections.push(opened.value);
    return opened.value;
  }

  it('two services, one killed mid-load: every answer is a real verdict, the survivor takes over, the circuit stays closed', async () => {
    const [a, b] = await Promise.all([startParserService(), startParserService()]);
    services.push(a, b);
    const peers: string[] = [];
    const connection = await connect(`${a.address},${b.address}`, peers);
    let killedAt = -1;
    const outcomes = await load(connection, 240, 12, (answered) => {
      if (answered === 60 && killedAt < 0) {
        killedAt = peers.length;
        void a.kill();
      }
    });
    assert.equal(outcomes.length, 240);
    assertAllVerdicts(outcomes);
    const before = new Set(peers.slice(0, killedAt).map(portOf));
    assert.deepEqual(
      [...before].sort(),
      [portOf(a.address), portOf(b.address)].sort(),
      'both endpoints served before the kill',
    );
    assert.ok(
      peers.slice(-60).every((p) => portOf(p) === portOf(b.address)),
      'after the kill only the survivor answers',
    );
    assert.deepEqual(connection.port.circuit(), { state: 'closed', consecutiveFailures: 0 });
  });

  it('a list of host names and a dns:/// name are resolved by grpc-js and balanced the same way', async () => {
    const [a, b] = await Promise.all([startParserService(), startParserService()]);
    services.push(a, b);
    const peers: string[] = [];
    const list = await connect(`localhost:${portOf(a.address)},localhost:${portOf(b.address)}`, peers);
    assertAllVerdicts(await load(list, 40, 4));
    assert.deepEqual([...new Set(peers.map(portOf))].sort(), [portOf(a.address), portOf(b.address)].sort());
    const dnsPeers: string[] = [];
    const dns = await connect(`dns:///localhost:${portOf(a.address)}`, dnsPeers);
    assertAllVerdicts(await load(dns, 10, 2));
    assert.deepEqual([...new Set(dnsPeers.map(portOf))], [portOf(a.address)]);
  });

  it('an endpoint whose health check says NOT_SERVING gets no calls until it serves again', async () => {
    const real = await startParserService();
    services.push(real);
    // A second endpoint that is up at the transport level but reports NOT_SERVING, and counts the calls it gets.
    const health = new HealthImplementation({ '': 'SERVING', [PARSER_SERVICE_NAME]: 'NOT_SERVING' });
    const server = new grpc.Server();
    health.addToServer(server);
    let sick = 0;
    server.addService(loadParserPackage().service, {
      Validate: (
        call: grpc.ServerUnaryCall<{ source: string; filename: string }, unknown>,
        callback: grpc.sendUnaryData<unknown>,
      ) => {
        sick += 1;
        callback({ code: grpc.status.INTERNAL, details: 'this endpoint should not be picked' });
      },
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    try {
      const peers: string[] = [];
      const connection = await connect(`${real.address},127.0.0.1:${port}`, peers);
      // Wait until the health checks have taken the sick endpoint out: a run of answers all from the real one.
      for (let streak = 0, tries = 0; streak < 20; tries += 1) {
        assert.ok(tries < 2000, 'the NOT_SERVING endpoint was never routed around');
        const outcome = await connection.port.validate(program(tries, 5), 'w.avap');
        streak = outcome.kind === 'validated' && portOf(peers.at(-1) ?? '') === portOf(real.address) ? streak + 1 : 0;
      }
      const calls = sick;
      assertAllVerdicts(await load(connection, 60, 6));
      assert.equal(sick, calls, 'no call reached the NOT_SERVING endpoint');
      assert.ok(peers.slice(-60).every((p) => portOf(p) === portOf(real.address)));

      health.setStatus(PARSER_SERVICE_NAME, 'SERVING');
      for (let tries = 0; sick === calls; tries += 1) {
        assert.ok(tries < 2000, 'the endpoint was not used again after it reported SERVING');
        await connection.port.validate(program(tries, 5), 'w.avap');
      }
    } finally {
      server.forceShutdown();
    }
  });

  it('an empty URL starts the bundled service; closing the connection stops it', async () => {
    const opened = await openParserConnection(
      { url: '', timeoutMs: 5000, breakerThreshold: 3, breakerCooldownMs: 30_000 },
      { bundled: { script: distFile('parser-server.js'), onLog: () => undefined } },
    );
    assert.ok(opened.ok);
    const connection = opened.value;
    assert.equal(connection.kind, 'bundled');
    assert.match(connection.endpoint, /^bundled 127\.0\.0\.1:\d+$/);
    const outcome = await connection.port.validate('addVar(a, 1)\n', 'a.avap');
    assert.equal(outcome.kind === 'validated' && outcome.result.valid, true);
    await connection.close();
    const after = await openParserConnection({
      url: connection.address ?? '',
      timeoutMs: 2000,
      breakerThreshold: 3,
      breakerCooldownMs: 30_000,
    });
    assert.ok(after.ok);
    const refused = await after.value.port.validate('addVar(a, 1)\n', 'a.avap');
    await after.value.close();
    assert.equal(refused.kind === 'unavailable' && refused.reason, 'transport', 'the bundled service is gone');
  });
});

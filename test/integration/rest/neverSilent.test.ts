/**
 * POST /v1/validate with a hung parser replica (a real grpc-js server whose
 * health check says SERVING and whose Validate never answers), over real
 * HTTP to `node dist/cli.js serve`: alone, each request is
 * answered 503 parser-unavailable after one deadline — one call to the
 * replica per request, not a retry loop — the breaker counts each and opens
 * after three, and then nothing reaches the replica. Beside a healthy
 * replica, in either order, every request gets its verdict and the hung one
 * is ejected after one deadline. Who was asked and what was answered, never
 * how fast.
 */
import assert from 'node:assert/strict';
import { validateAvap } from '../../../src/parser';
import { startHungParser, type HungParser } from '../../support/hungParser';
import { startParserService, type RunningParserService } from '../../support/parserService';
import { startServe, type ServeProcess } from './serveProcess';

const validate = (server: ServeProcess, source: string, filename = 'a.avap') =>
  fetch(`${server.url}/v1/validate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ source, filename }),
  });

const circuitOf = async (server: ServeProcess) =>
  ((await (await fetch(`${server.url}/health`)).json()) as { parser: { circuit: { state: string } } }).parser.circuit;

const callerCalls = (hung: HungParser) => hung.calls.filter((c) => !c.filename.startsWith('<')).length;

const source = (i: number) => `addVar(v${i}, ${i})\naddResult(v${i})\n`;

describe('REST /v1/validate with a hung parser replica (dist/cli.js serve)', function () {
  this.timeout(90_000);
  let hung: HungParser;
  let healthy: RunningParserService;
  const servers: ServeProcess[] = [];

  before(async () => {
    [hung, healthy] = await Promise.all([startHungParser(), startParserService()]);
  });
  after(async () => {
    await Promise.all([hung?.close(), healthy?.stop()]);
  });
  afterEach(async () => {
    const codes = await Promise.all(servers.splice(0).map((s) => s.stop()));
    assert.deepEqual(
      codes,
      codes.map(() => 0),
    );
  });

  const serve = async (parserUrl: string) => {
    const server = await startServe([
      '--port',
      '0',
      '--ollama-url',
      'http://127.0.0.1:9',
      '--parser-url',
      parserUrl,
      '--parser-timeout',
      '1',
      '--quiet',
    ]);
    servers.push(server);
    return server;
  };

  it('alone: 503 parser-unavailable per request, one call each, the circuit opens after three and then asks nothing', async () => {
    const server = await serve(hung.address);
    const before = callerCalls(hung);
    for (let i = 0; i < 3; i += 1) {
      const response = await validate(server, source(i));
      assert.equal(response.status, 503);
      const body = (await response.json()) as { error: string; message: string };
      assert.equal(body.error, 'parser-unavailable');
      assert.match(body.message, /\(timeout\)/);
    }
    assert.equal(callerCalls(hung) - before, 3, 'one call per request — never re-sent to the hung replica');
    assert.equal((await circuitOf(server)).state, 'open', 'the breaker counted the hung replica');
    const asked = hung.calls.length;
    const skipped = await validate(server, source(9));
    assert.equal(skipped.status, 503);
    assert.match(((await skipped.json()) as { message: string }).message, /\(circuit-open\)/);
    assert.equal(hung.calls.length, asked, 'nothing reaches it while the circuit is open');
  });

  for (const order of ['hung first', 'healthy first'] as const) {
    it(`${order} in the URL list: every request gets its verdict, the hung replica is ejected after one deadline`, async () => {
      const server = await serve(
        order === 'hung first' ? `${hung.address},${healthy.address}` : `${healthy.address},${hung.address}`,
      );
      const before = callerCalls(hung);
      for (let i = 0; i < 8; i += 1) {
        const response = await validate(server, source(i));
        assert.equal(response.status, 200, await response.clone().text());
        assert.equal(((await response.json()) as { valid: boolean }).valid, validateAvap(source(i)).valid);
      }
      const burst = await Promise.all(Array.from({ length: 8 }, (_, i) => validate(server, source(50 + i))));
      assert.deepEqual(
        burst.map((r) => r.status),
        burst.map(() => 200),
      );
      await Promise.all(burst.map((r) => r.arrayBuffer()));
      assert.ok(callerCalls(hung) - before <= 1, `the hung replica got ${callerCalls(hung) - before} calls`);
      assert.equal((await circuitOf(server)).state, 'closed');
    });
  }
});

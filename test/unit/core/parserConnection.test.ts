/**
 * The one parser-connection factory: the documented behaviour for timeout 0,
 * a failed start of the bundled service, an unreadable URL, a configured
 * URL and an injected transport (the bundled service's successful start is
 * covered over real sockets in test/integration/server/balancing.test.ts).
 */
import assert from 'node:assert/strict';
import { openParserConnection, parserUrlProblem } from '../../../src/core/parser/connection';
import type { ParserTransport } from '../../../src/core';
import { memoryLogger } from '../../support/fakes/ports';
import { validateAvap } from '../../../src/parser';

const base = { timeoutMs: 2000, breakerThreshold: 3, breakerCooldownMs: 30_000 };
const NO_SCRIPT = '/nonexistent/parser-server.js';

async function open(
  config: Partial<typeof base> & { url?: string },
  options: Parameters<typeof openParserConnection>[1] = {},
) {
  const opened = await openParserConnection({ ...base, ...config }, { bundled: { script: NO_SCRIPT }, ...options });
  assert.ok(opened.ok, opened.ok ? '' : opened.error.message);
  return opened.value;
}

describe('core/parser openParserConnection (the one factory)', () => {
  it('timeout 0: validation disabled — nothing started or dialled, every call `disabled`', async () => {
    const connection = await open({ timeoutMs: 0, url: '' });
    assert.equal(connection.kind, 'disabled');
    assert.equal(connection.endpoint, 'disabled');
    assert.equal(connection.address, undefined);
    assert.equal(connection.port.circuit().state, 'disabled');
    const outcome = await connection.port.validate('addVar(a, 1)\n', 'a.avap');
    assert.equal(outcome.kind === 'unavailable' && outcome.reason, 'disabled');
    await connection.close();
  });

  it('empty URL and the bundled service fails to start: logged once, every call unavailable with the reason, circuit open', async () => {
    const logger = memoryLogger();
    const connection = await open({ url: '' }, { logger });
    assert.equal(connection.kind, 'failed');
    assert.equal(connection.endpoint, 'bundled (failed to start)');
    assert.match(connection.error ?? '', /bundled parser service not found \(\/nonexistent\/parser-server\.js\)/);
    assert.deepEqual(connection.port.circuit(), { state: 'open', consecutiveFailures: 0 });
    const outcome = await connection.port.validate('addVar(a, 1)\n', 'a.avap');
    assert.deepEqual(outcome, { kind: 'unavailable', reason: 'transport', detail: connection.error });
    assert.deepEqual(
      logger.lines.filter((l) => l.includes('not found')),
      [`[ptvl] ${connection.error}`],
    );
    await connection.close();
  });

  it('an unreadable URL is a usage problem: no connection', async () => {
    const opened = await openParserConnection({ ...base, url: 'parser please' });
    assert.equal(opened.ok, false);
    assert.ok(!opened.ok && opened.error.kind === 'bad-url', 'an unreadable URL is a bad-url failure');
    assert.match(opened.error.message, /'parser please' is not a parser URL/);
    assert.equal(parserUrlProblem('parser please'), opened.error.message);
    assert.equal(parserUrlProblem('dns:///parser:50051'), undefined);
  });

  it('a configured URL (one endpoint, a list, dns:) is dialled as given; nothing is started', async () => {
    for (const url of ['127.0.0.1:50051', 'grpc://a.example:1,grpc://b.example:2', 'dns:///parser.example:50051']) {
      const connection = await open({ url });
      assert.equal(connection.kind, 'configured');
      assert.equal(connection.endpoint, url);
      assert.equal(connection.address, url);
      assert.equal(connection.port.circuit().state, 'closed');
      await connection.close();
    }
  });

  it('an injected transport sits behind the breaker and the admission queue', async () => {
    const calls: string[] = [];
    const transport: ParserTransport = {
      call: (source, filename) => {
        calls.push(filename);
        return Promise.resolve({ ok: true, value: validateAvap(source) });
      },
      close: () => undefined,
    };
    const connection = await open({ url: '' }, { transport });
    assert.equal(connection.kind, 'injected');
    assert.equal(connection.endpoint, 'injected transport');
    const outcome = await connection.port.validate('getSHA256(a, b)\n', 'x.avap');
    assert.equal(outcome.kind === 'validated' && outcome.result.valid, false);
    assert.deepEqual(calls, ['x.avap']);
    assert.equal(connection.port.parserVersion, outcome.kind === 'validated' ? outcome.result.parserVersion : '');
    await connection.close();
  });
});

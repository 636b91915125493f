/**
 * POST /v1/validate under a burst (node dist/cli.js serve with its bundled
 * parser service, over real HTTP): 400 concurrent 100 KiB validations are
 * all answered 200 with the parser's verdict, the circuit is still closed
 * afterwards, and the next small request is answered. What is asserted is
 * who got an answer, never how fast (the bench measures that).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { validateAvap } from '../../../src/parser';
import { REPO_ROOT } from '../../support/dist';
import { startServe, type ServeProcess } from './serveProcess';

/** 100 KiB of the valid corpus, repeated. */
function hundredKiB(): string {
  const dir = path.join(REPO_ROOT, 'test', 'corpus', 'valid');
  const unit = readdirSync(dir)
    .filter((f) => f.endsWith('.avap'))
    .sort()
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .join('\n');
  let out = '';
  while (out.length < 100 * 1024) out += `${unit}\n`;
  return out.slice(0, out.lastIndexOf('\n', 100 * 1024) + 1);
}

describe('REST: a burst of large validations (dist/cli.js serve)', function () {
  this.timeout(180_000);
  let server: ServeProcess;

  before(async () => {
    server = await startServe(['--port', '0', '--ollama-url', 'http://127.0.0.1:9', '--quiet']);
  });
  after(async () => {
    assert.equal(await server?.stop(), 0);
  });

  it('400 concurrent 100 KiB validations are all answered 200 with the verdict; the circuit stays closed', async () => {
    const source = hundredKiB();
    const expected = validateAvap(source, { filename: 'big.avap' });
    const body = JSON.stringify({ source, filename: 'big.avap' });
    const answers = await Promise.all(
      Array.from({ length: 400 }, async () => {
        const response = await fetch(`${server.url}/v1/validate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        return {
          status: response.status,
          body: (await response.json()) as { valid?: boolean; trace?: unknown[]; message?: string },
        };
      }),
    );
    const refused = answers.filter((a) => a.status !== 200);
    assert.deepEqual(refused.slice(0, 3), [], `${refused.length} of 400 not answered 200`);
    for (const answer of answers) {
      assert.equal(answer.body.valid, expected.valid);
      assert.equal(answer.body.trace?.length, expected.trace.length);
    }

    const health = (await (await fetch(`${server.url}/health`)).json()) as {
      parser: { circuit: { state: string; consecutiveFailures: number } };
    };
    assert.deepEqual(health.parser.circuit, { state: 'closed', consecutiveFailures: 0 });

    const small = await fetch(`${server.url}/v1/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ source: 'addVar(a, 1)\n', filename: 'small.avap' }),
    });
    assert.equal(small.status, 200);
    assert.equal(((await small.json()) as { valid: boolean }).valid, true);
  });
});

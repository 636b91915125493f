/**
 * The bearer token: mandatory beyond loopback, enforced on /v1 routes,
 * /health and /openapi.json stay public.
 */
import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { startScriptedOllama, type ScriptedOllama } from '../../support/scriptedOllama';
import { serveExpectingExit, startServe, type ServeProcess } from './serveProcess';

const TOKEN = 'test-token-0123456789abcdef';

/** A non-loopback IPv4 address of this machine, if it has one. */
function lanAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces())) {
    for (const entry of list ?? []) if (entry.family === 'IPv4' && !entry.internal) return entry.address;
  }
  return undefined;
}

const validateBody = {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ source: 'addVar(a, 1)\n', filename: 'a.avap' }),
};

describe('REST server: bearer token', function () {
  this.timeout(60_000);
  let ollama: ScriptedOllama;
  let wide: ServeProcess;

  before(async () => {
    ollama = await startScriptedOllama({ models: ['qwen3:1.7b'] });
    wide = await startServe(['--host', '0.0.0.0', '--port', '0', '--ollama-url', ollama.url, '--quiet'], {
      AVAP_API_TOKEN: TOKEN,
    });
  });
  after(async () => {
    assert.equal(await wide?.stop(), 0);
    await ollama?.close();
  });

  it('refuses to bind beyond loopback without a token (exit 2, clear message)', async () => {
    const run = await serveExpectingExit(['--host', '0.0.0.0', '--port', '0', '--quiet'], { AVAP_API_TOKEN: '' });
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    assert.match(
      run.stderr,
      /refusing to listen on 0\.0\.0\.0 without a bearer token: pass --token or set AVAP_API_TOKEN/,
    );
  });

  it('refuses a token that is too short', async () => {
    const run = await serveExpectingExit(['--port', '0', '--token', 'short', '--quiet']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /the bearer token must have at least 16 characters/);
  });

  it('bound to 0.0.0.0 it announces that address', () => {
    assert.match(wide.banner, /^listening on 0\.0\.0\.0:\d+$/);
  });

  it('a missing token gets 401 with WWW-Authenticate: Bearer', async () => {
    const response = await fetch(`${wide.url}/v1/validate`, validateBody);
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), 'Bearer');
    assert.deepEqual(await response.json(), {
      error: 'unauthorized',
      message: 'this server requires Authorization: Bearer <token>',
    });
  });

  it('a wrong token or scheme gets 401', async () => {
    for (const authorization of [`Bearer ${TOKEN}x`, `Basic ${TOKEN}`, 'Bearer ']) {
      const response = await fetch(`${wide.url}/v1/models`, { headers: { authorization } });
      assert.equal(response.status, 401, authorization);
      assert.equal(((await response.json()) as { message: string }).message, 'the bearer token is not valid');
    }
  });

  it('the right token is let through, before body checks run', async () => {
    const ok = await fetch(`${wide.url}/v1/validate`, {
      ...validateBody,
      headers: { ...validateBody.headers, authorization: `Bearer ${TOKEN}` },
    });
    assert.equal(ok.status, 200);
    assert.equal(((await ok.json()) as { valid: boolean }).valid, true);
    // Without a token a malformed body is still a 401: nothing is parsed for strangers.
    const anonymous = await fetch(`${wide.url}/v1/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    assert.equal(anonymous.status, 401);
  });

  it('/health and /openapi.json are public', async () => {
    assert.equal((await fetch(`${wide.url}/health`)).status, 200);
    assert.equal((await fetch(`${wide.url}/openapi.json`)).status, 200);
  });

  it('is reachable on a non-loopback address of this machine, with the token', async function () {
    const address = lanAddress();
    if (!address) {
      // A machine without a LAN interface: the 0.0.0.0 binding above is the beyond-loopback case.
      assert.ok(wide.banner.includes('0.0.0.0'));
      return;
    }
    const url = `http://${address}:${wide.port}`;
    assert.equal((await fetch(`${url}/v1/models`)).status, 401);
    const models = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(models.status, 200);
    assert.deepEqual(await models.json(), { models: ['qwen3:1.7b'] });
  });

  it('on loopback a configured token is enforced too', async () => {
    const local = await startServe(['--port', '0', '--token', TOKEN, '--ollama-url', ollama.url, '--quiet']);
    try {
      assert.equal((await fetch(`${local.url}/v1/models`)).status, 401);
      assert.equal(
        (await fetch(`${local.url}/v1/models`, { headers: { authorization: `bearer ${TOKEN}` } })).status,
        200,
      );
    } finally {
      assert.equal(await local.stop(), 0);
    }
  });
});

import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { canonicalModelName, checkOllama, neededModels, pullCommand } from '../../../src/core';
import { startScriptedOllama, type ScriptedOllama } from '../../support/scriptedOllama';
import { unusedPort } from '../../support/ports';

const CONFIG = { model: 'qwen3:1.7b', conversationalModel: 'qwen3:0.6b', embeddingModel: 'qwen3-embedding:0.6b' };

describe('core/llm checkOllama: does the server answer, are the configured models pulled (real sockets)', () => {
  let server: ScriptedOllama | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('server up with every model pulled: ready, the version, each model with its roles', async () => {
    server = await startScriptedOllama({
      models: ['qwen3:1.7b', 'qwen3:0.6b', 'qwen3-embedding:0.6b', 'llama3:latest'],
    });
    const check = await checkOllama({
      host: server.url,
      models: neededModels({ ...CONFIG, judgeModel: CONFIG.model }),
    });
    assert.equal(check.status, 'ready');
    assert.equal(check.version, '0.12.0-scripted');
    assert.deepEqual(check.models, [
      { name: 'qwen3:1.7b', roles: ['generation', 'judge'], pulled: true },
      { name: 'qwen3:0.6b', roles: ['conversational'], pulled: true },
      { name: 'qwen3-embedding:0.6b', roles: ['embedding'], pulled: true },
    ]);
    assert.deepEqual(check.missing, []);
    assert.deepEqual(check.pullCommands, []);
    assert.match(check.summary, /answers at http:\/\/127\.0\.0\.1:\d+; every model the assistant needs is pulled/);
    // It asked the real API: version, then the list of pulled models.
    assert.deepEqual(
      server.requests.map((r) => `${r.method} ${r.path}`),
      ['GET /api/version', 'GET /api/tags'],
    );
  });

  it('server up without the models: models-missing with the exact `ollama pull` lines', async () => {
    server = await startScriptedOllama({ models: ['qwen3:0.6b'] });
    const check = await checkOllama({ host: server.url, models: neededModels(CONFIG) });
    assert.equal(check.status, 'models-missing');
    assert.deepEqual(check.missing, ['qwen3:1.7b', 'qwen3-embedding:0.6b']);
    assert.deepEqual(check.pullCommands, ['ollama pull qwen3:1.7b', 'ollama pull qwen3-embedding:0.6b']);
    assert.deepEqual(
      check.models.map((m) => [m.name, m.pulled]),
      [
        ['qwen3:1.7b', false],
        ['qwen3:0.6b', true],
        ['qwen3-embedding:0.6b', false],
      ],
    );
    assert.match(
      check.summary,
      /2 models are not pulled: qwen3:1\.7b \(generation\); qwen3-embedding:0\.6b \(embedding\)\. Run: ollama pull qwen3:1\.7b && ollama pull qwen3-embedding:0\.6b$/,
    );
  });

  it('server up with no model at all: every configured model missing', async () => {
    server = await startScriptedOllama({ models: [] });
    const check = await checkOllama({ host: server.url, models: neededModels(CONFIG) });
    assert.equal(check.status, 'models-missing');
    assert.equal(check.pullCommands.length, 3);
  });

  it('an untagged model name matches its :latest tag, both ways', async () => {
    server = await startScriptedOllama({ models: ['llama3:latest', 'nomic-embed-text'] });
    const check = await checkOllama({
      host: server.url,
      models: [
        { name: 'llama3', role: 'generation' },
        { name: 'nomic-embed-text:latest', role: 'embedding' },
      ],
    });
    assert.equal(check.status, 'ready', check.summary);
  });

  it('server down: unreachable with the port error code, nothing claimed about the models', async () => {
    const host = `http://127.0.0.1:${await unusedPort()}`;
    const check = await checkOllama({ host, models: neededModels(CONFIG) });
    assert.equal(check.status, 'unreachable');
    assert.equal(check.error?.code, 'llm-unreachable');
    assert.deepEqual(check.pullCommands, []);
    assert.ok(check.models.every((m) => !m.pulled));
    assert.match(
      check.summary,
      /^Ollama does not answer at http:\/\/127\.0\.0\.1:\d+: Ollama is not running .*ollama serve/,
    );
  });

  it('a server that accepts the connection but never answers: unreachable by timeout, not a hang', async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const host = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const check = await checkOllama({ host, models: neededModels(CONFIG), timeoutMs: 100 });
      assert.equal(check.status, 'unreachable');
      assert.equal(check.error?.code, 'llm-timeout');
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('an HTTP server that is not Ollama: unreachable, says the URL has no Ollama API', async () => {
    const other = http.createServer((_req, res) => {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('404 page not found');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const host = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      const check = await checkOllama({ host, models: neededModels(CONFIG) });
      assert.equal(check.status, 'unreachable');
      assert.equal(check.error?.code, 'llm-failed');
      assert.match(check.error?.message ?? '', /no Ollama API/);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it('a cancelled check asks nothing', async () => {
    server = await startScriptedOllama({ models: [] });
    const controller = new AbortController();
    controller.abort();
    const check = await checkOllama({ host: server.url, models: neededModels(CONFIG), signal: controller.signal });
    assert.equal(check.error?.code, 'cancelled');
    assert.equal(server.requests.length, 0);
  });

  it('names: the judge only when on, empty names dropped, canonical tags, pull lines', () => {
    assert.deepEqual(
      neededModels(CONFIG).map((n) => n.role),
      ['generation', 'conversational', 'embedding'],
    );
    assert.deepEqual(
      neededModels({ ...CONFIG, conversationalModel: ' ' }).map((n) => n.role),
      ['generation', 'embedding'],
    );
    assert.equal(canonicalModelName('llama3'), 'llama3:latest');
    assert.equal(canonicalModelName('qwen3:1.7b'), 'qwen3:1.7b');
    assert.equal(canonicalModelName('registry.local:5000/team/model'), 'registry.local:5000/team/model:latest');
    assert.equal(pullCommand(' qwen3:1.7b '), 'ollama pull qwen3:1.7b');
  });
});

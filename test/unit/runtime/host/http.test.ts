/**
 * The sandbox's HTTP port: recorded responses match by method and normalized URL, anything else is a failure
 * saying why (not-recorded, or not-allowed beside an allow-list; the interpreter adds the method and URL); allowed hosts are really called — a real
 * local server here — with the call's timeout and without following redirects off the list.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkFixtures,
  createSandboxHttp,
  findFixture,
  hostAllowed,
  normalizeUrl,
  parseAllowList,
  parseAllowedHost,
  parseFixtures,
} from '../../../../src/runtime/host';

const signal = new AbortController().signal;
const get = (url: string, timeoutMs = 2000) => ({ method: 'GET' as const, url, headers: {}, timeoutMs });

describe('runtime host: HTTP fixtures and the allow-list', () => {
  it('parses a fixtures list: defaults, JSON bodies as text, header names in lower case', () => {
    const parsed = parseFixtures(
      JSON.stringify([
        { url: 'https://api.example.com/a', body: { ok: true } },
        { method: 'post', url: 'https://api.example.com/b', status: 201, headers: { 'X-Id': '7' }, body: 'made' },
      ]),
    );
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.value, [
      {
        method: 'GET',
        url: 'https://api.example.com/a',
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: '{"ok":true}',
      },
      { method: 'POST', url: 'https://api.example.com/b', status: 201, headers: { 'x-id': '7' }, body: 'made' },
    ]);
  });

  it('refuses a malformed fixtures file naming the entry and the field', () => {
    const cases: [string, RegExp][] = [
      ['{', /^not JSON/],
      ['{"url": "x"}', /expected a JSON list/],
      ['[{"url": "ftp://x/y"}]', /fixture 0: url must be an absolute http\(s\) URL/],
      ['[{"url": "http://x/"}, {"url": "http://x/", "method": "PUT"}]', /fixture 1: method must be "GET" or "POST"/],
      ['[{"url": "http://x/", "status": 99}]', /fixture 0: status must be an HTTP status/],
      ['[{"url": "http://x/", "headers": {"a": 1}}]', /fixture 0: header a must be a string/],
    ];
    for (const [text, message] of cases) {
      const parsed = parseFixtures(text);
      assert.ok(!parsed.ok, text);
      assert.equal(parsed.error.kind, 'bad-fixtures');
      assert.match(parsed.error.message, message, text);
    }
  });

  it('matches by method and URL: host case, default port, query order and fragment do not matter', () => {
    const fixtures = checkFixtures([
      { method: 'GET', url: 'https://API.example.com:443/users?b=2&a=1', body: 'list' },
      { method: 'POST', url: 'https://api.example.com/users', body: 'made' },
    ]);
    assert.ok(fixtures.ok);
    assert.equal(findFixture(fixtures.value, 'get', 'https://api.example.com/users?a=1&b=2#top')?.body, 'list');
    assert.equal(findFixture(fixtures.value, 'POST', 'https://api.example.com/users')?.body, 'made');
    assert.equal(findFixture(fixtures.value, 'POST', 'https://api.example.com/users?a=1&b=2'), undefined);
    assert.equal(findFixture(fixtures.value, 'GET', 'https://api.example.com/users?a=1'), undefined);
    assert.equal(findFixture(fixtures.value, 'GET', 'http://api.example.com/users?a=1&b=2'), undefined);
    assert.equal(normalizeUrl('not a url'), undefined);
  });

  it('keeps a fixture header named after an Object.prototype member as an own header', () => {
    const fixtures = checkFixtures(JSON.parse('[{"url": "https://x.example/", "headers": {"__proto__": "p"}}]'));
    assert.ok(fixtures.ok);
    const headers = fixtures.value[0]?.headers ?? {};
    assert.deepEqual(Object.entries(headers), [['__proto__', 'p']]);
    assert.equal(Object.getPrototypeOf(headers), Object.prototype);
  });

  it('parses HOST[:PORT] allow-list entries and refuses anything else', () => {
    assert.deepEqual(parseAllowedHost('API.Example.com'), { host: 'api.example.com' });
    assert.deepEqual(parseAllowedHost('127.0.0.1:8080'), { host: '127.0.0.1', port: 8080 });
    assert.deepEqual(parseAllowedHost('[::1]:9000'), { host: '[::1]', port: 9000 });
    for (const bad of ['http://x.com', 'x.com/path', 'x.com:0', 'x.com:70000', 'user@x.com', '', 'a b'])
      assert.equal(parseAllowedHost(bad), undefined, bad);
    const list = parseAllowList(['ok.example', 'bad/host']);
    assert.ok(!list.ok);
    assert.match(list.error.message, /'bad\/host' is not HOST or HOST:PORT/);
  });

  it('allows a URL only when its host and port are listed (a scheme default port counts)', () => {
    const list = parseAllowList(['api.example.com', '127.0.0.1:8080']);
    assert.ok(list.ok);
    assert.ok(hostAllowed('https://api.example.com/x', list.value));
    assert.ok(hostAllowed('http://API.EXAMPLE.COM:9/x', list.value));
    assert.ok(hostAllowed('http://127.0.0.1:8080/', list.value));
    assert.ok(!hostAllowed('http://127.0.0.1/', list.value));
    assert.ok(!hostAllowed('http://127.0.0.1:8081/', list.value));
    assert.ok(!hostAllowed('https://evil.example.com/?api.example.com', list.value));
    assert.ok(!hostAllowed('file:///etc/passwd', list.value));
  });
});

describe('runtime host: the HTTP port', () => {
  let server: Server;
  let base: string;
  let hits: string[];

  before(async () => {
    hits = [];
    server = createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      if (req.url === '/slow') {
        setTimeout(() => res.end('late'), 2000).unref();
        return;
      }
      if (req.url === '/away') {
        res.writeHead(302, { location: 'http://elsewhere.example/' }).end();
        return;
      }
      if (req.url === '/proto') {
        res.setHeader('__proto__', 'p');
        res.end('{}');
        return;
      }
      if (req.url === '/big') {
        res.end('x'.repeat(2048));
        return;
      }
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        res.writeHead(201, { 'content-type': 'application/json', 'X-Seen': req.headers['x-token'] ?? '' });
        res.end(JSON.stringify({ method: req.method, body }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('answers a recorded response without any request going out', async () => {
    const fixtures = checkFixtures([{ url: `${base}/recorded`, status: 404, body: 'gone' }]);
    assert.ok(fixtures.ok);
    const http = createSandboxHttp({ fixtures: fixtures.value, allow: [] });
    const answer = await http.fetch(get(`${base}/recorded`), signal);
    assert.deepEqual(answer, { ok: true, value: { status: 404, headers: {}, body: 'gone' } });
    assert.deepEqual(hits, []);
  });

  it('without an allow-list anything unrecorded is not-recorded, naming the URL', async () => {
    const http = createSandboxHttp({ fixtures: [], allow: [] });
    const answer = await http.fetch(get(`${base}/x`), signal);
    assert.ok(!answer.ok);
    assert.equal(answer.error.kind, 'not-recorded');
    assert.match(answer.error.message, /^no recorded response: .*--fixtures.*--allow-http/);
    assert.deepEqual(hits, []);
  });

  it('a host off the allow-list is not-allowed, naming the URL and the list', async () => {
    const http = createSandboxHttp({ fixtures: [], allow: [{ host: 'api.example.com' }] });
    const answer = await http.fetch(get(`${base}/x`), signal);
    assert.ok(!answer.ok);
    assert.equal(answer.error.kind, 'not-allowed');
    assert.match(answer.error.message, /^its host is not on the allow-list \(api\.example\.com\)/);
    assert.deepEqual(hits, []);
  });

  it('really calls an allowed host: method, headers and body out, status, headers and body back', async () => {
    const port = Number(new URL(base).port);
    const seen: string[] = [];
    const http = createSandboxHttp({
      fixtures: [],
      allow: [{ host: '127.0.0.1', port }],
      onRealRequest: (call) => seen.push(call.url),
    });
    const answer = await http.fetch(
      { method: 'POST', url: `${base}/echo`, headers: { 'x-token': 't1' }, body: 'hello', timeoutMs: 2000 },
      signal,
    );
    assert.ok(answer.ok);
    assert.equal(answer.value.status, 201);
    assert.equal(answer.value.headers['x-seen'], 't1');
    assert.deepEqual(JSON.parse(answer.value.body), { method: 'POST', body: 'hello' });
    assert.deepEqual(seen, [`${base}/echo`]);
  });

  it('keeps an answer header named after an Object.prototype member as an own header', async () => {
    const port = Number(new URL(base).port);
    const http = createSandboxHttp({ fixtures: [], allow: [{ host: '127.0.0.1', port }] });
    const answer = await http.fetch(get(`${base}/proto`), signal);
    assert.ok(answer.ok);
    assert.ok(Object.hasOwn(answer.value.headers, '__proto__'));
    assert.equal(answer.value.headers['__proto__'], 'p');
    assert.equal(Object.getPrototypeOf(answer.value.headers), Object.prototype);
  });

  it('an allowed host that does not answer in time is a timeout; a redirect is returned, not followed', async () => {
    const port = Number(new URL(base).port);
    const http = createSandboxHttp({ fixtures: [], allow: [{ host: '127.0.0.1', port }], maxBodyBytes: 1024 });
    const slow = await http.fetch(get(`${base}/slow`, 100), signal);
    assert.ok(!slow.ok);
    assert.equal(slow.error.kind, 'timeout');
    assert.match(slow.error.message, /^no answer within 100 ms$/);
    const away = await http.fetch(get(`${base}/away`), signal);
    assert.ok(away.ok);
    assert.equal(away.value.status, 302);
    assert.equal(away.value.headers.location, 'http://elsewhere.example/');
    const big = await http.fetch(get(`${base}/big`), signal);
    assert.ok(!big.ok);
    assert.equal(big.error.kind, 'network');
    assert.match(big.error.message, /larger than 1024 bytes/);
  });

  it('a refused connection to an allowed host is a network failure', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const http = createSandboxHttp({ fixtures: [], allow: [{ host: '127.0.0.1', port }] });
    const answer = await http.fetch(get(`http://127.0.0.1:${port}/`), signal);
    assert.ok(!answer.ok);
    assert.equal(answer.error.kind, 'network');
    assert.match(answer.error.message, /ECONNREFUSED/);
  });
});

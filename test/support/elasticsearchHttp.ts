/**
 * @elastic/elasticsearch-mock behind a real HTTP socket, so that a CLI run as
 * a child process (its own Elasticsearch client, its own connection) can be
 * tested against the same mock routes the in-process adapter tests use.
 *
 * Requests are decoded the way the mock's own Connection decodes them (JSON,
 * or NDJSON lines for bulk bodies; the query string as strings), matched with
 * `mock.get`, and answered with the resolver's payload — a ResponseError
 * becomes its status code and body. Every response carries the
 * `x-elastic-product: Elasticsearch` header the client checks.
 */
import { errors } from '@elastic/elasticsearch';
import Mock from '@elastic/elasticsearch-mock';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MockElasticsearch {
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  mock: Mock;
  /** `METHOD /path` of every request, in order. */
  requests: string[];
  close(): Promise<void>;
}

function decodeBody(raw: string, contentType: string): unknown {
  if (!raw) return null;
  if (contentType.includes('x-ndjson'))
    return raw
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as unknown);
  return JSON.parse(raw) as unknown;
}

export async function startMockElasticsearch(mock = new Mock()): Promise<MockElasticsearch> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const method = req.method ?? 'GET';
      const path = decodeURIComponent(url.pathname);
      requests.push(`${method} ${path}`);
      let status = 200;
      let payload: unknown;
      try {
        const params = {
          method,
          path,
          querystring: Object.fromEntries(url.searchParams),
          body: decodeBody(Buffer.concat(chunks).toString('utf8'), String(req.headers['content-type'] ?? '')) as Record<
            string,
            unknown
          >,
        };
        const resolver = mock.get(params);
        if (!resolver) {
          status = 404;
          payload = { error: 'Mock not found', method, path };
        } else {
          payload = resolver(params);
          if (payload instanceof errors.ResponseError) {
            status = payload.statusCode ?? 500;
            payload = payload.body;
          }
        }
      } catch (err) {
        status = 500;
        payload = { error: `mock front: ${err instanceof Error ? err.message : String(err)}` };
      }
      const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
      res.writeHead(status, {
        'content-type': typeof payload === 'string' ? 'text/plain' : 'application/json',
        'x-elastic-product': 'Elasticsearch',
      });
      res.end(method === 'HEAD' ? undefined : text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    mock,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

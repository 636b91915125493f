/**
 * deploy/kubernetes against the code it deploys: the container's arguments
 * start a serving parser service, the probes ask the health service the
 * service really registers, the image copies files the build produces, and
 * the headless Service exposes the port the container listens on.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { healthClientConstructor, type ServingStatus, PARSER_SERVICE_NAME } from '../../../src/protocol';
import { REPO_ROOT, startParserProcess } from '../../support/parserProcess';

const DIR = path.join(REPO_ROOT, 'deploy', 'kubernetes');
const manifest = readFileSync(path.join(DIR, 'parser.yaml'), 'utf8');

/** The lines of one top-level YAML list under `key:` (indentation-based; enough for this file). */
function listUnder(key: string): string[] {
  const lines = manifest.split('\n');
  const start = lines.findIndex((l) => l.trim() === `${key}:`);
  assert.ok(start >= 0, `${key}: in parser.yaml`);
  const indent = (lines[start] as string).search(/\S/);
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (line.search(/\S/) <= indent) break;
    const item = /^\s*- (.+)$/.exec(line);
    if (item) out.push(item[1] as string);
  }
  return out;
}

describe('deploy/kubernetes: the parser Deployment and headless Service', function () {
  this.timeout(30_000);

  it('is a headless Service and a Deployment whose probes are gRPC health checks of the real service names', () => {
    assert.match(manifest, /kind: Service[\s\S]*clusterIP: None/);
    assert.match(manifest, /kind: Deployment/);
    assert.match(manifest, /livenessProbe:\n\s+grpc:\n\s+port: 50051\n/);
    const readiness = /readinessProbe:\n\s+grpc:\n\s+port: 50051\n\s+service: (\S+)/.exec(manifest);
    assert.equal(readiness?.[1], PARSER_SERVICE_NAME);
    assert.match(manifest, /containerPort: 50051/);
    assert.ok(listUnder('args').includes('--port=50051'));
  });

  it('the container arguments start a parser service that answers SERVING on both health names', async () => {
    // The same arguments, bound to loopback on a free port for the test.
    const args = listUnder('args').map((a) =>
      a.startsWith('--host=') ? '--host=127.0.0.1' : a.startsWith('--port=') ? '--port=0' : a,
    );
    const service = await startParserProcess(args);
    const Health = healthClientConstructor();
    const health = new Health(service.address, grpc.credentials.createInsecure());
    try {
      for (const name of ['', PARSER_SERVICE_NAME]) {
        const status = await new Promise<ServingStatus | grpc.status>((resolve) => {
          health.Check({ service: name }, new grpc.Metadata(), { deadline: Date.now() + 5000 }, (err, res) =>
            resolve(err ? err.code : (res?.status ?? 'UNKNOWN')),
          );
        });
        assert.equal(status, 'SERVING', `health of '${name}'`);
      }
    } finally {
      health.close();
      assert.equal(await service.stop('SIGTERM'), 0);
    }
  });

  it('the image copies files the build produces', () => {
    const dockerfile = readFileSync(path.join(DIR, 'Dockerfile'), 'utf8');
    const copied = [...dockerfile.matchAll(/^COPY (.+) \S+$/gm)].flatMap((m) => (m[1] as string).split(/\s+/));
    assert.deepEqual(copied, ['dist/parser-server.js', 'dist/parser-worker.js', 'dist/proto']);
    for (const file of copied) assert.ok(existsSync(path.join(REPO_ROOT, file)), `${file} exists after npm run build`);
  });
});

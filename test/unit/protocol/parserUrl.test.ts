/** Parser URLs: one endpoint, lists and dns: targets, and what the channel dials for each. */
import assert from 'node:assert/strict';
import { parseParserUrl } from '../../../src/protocol';

const target = (url: string) => {
  const parsed = parseParserUrl(url);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error.message);
  return parsed.value;
};

describe('protocol: parser URLs', () => {
  it('one endpoint: host:port, grpc:// and grpcs:// (TLS), unbalanced', () => {
    assert.deepEqual(target(' 127.0.0.1:50051 '), {
      address: '127.0.0.1:50051',
      tls: false,
      endpoints: ['127.0.0.1:50051'],
      balanced: false,
    });
    assert.deepEqual(target('grpc://parser.internal:7000/'), {
      address: 'parser.internal:7000',
      tls: false,
      endpoints: ['parser.internal:7000'],
      balanced: false,
    });
    assert.equal(target('grpcs://[::1]:443').tls, true);
    assert.equal(target('grpcs://[::1]:443').address, '[::1]:443');
  });

  it('a list of IPv4 addresses is an ipv4: target, of IPv6 an ipv6: target (grpc-js resolves both)', () => {
    assert.deepEqual(target('127.0.0.1:1,127.0.0.2:2'), {
      address: 'ipv4:127.0.0.1:1,127.0.0.2:2',
      tls: false,
      endpoints: ['127.0.0.1:1', '127.0.0.2:2'],
      balanced: true,
    });
    assert.equal(target('[::1]:1, [::2]:2').address, 'ipv6:[::1]:1,[::2]:2');
  });

  it('a list with host names is resolved name by name (avap-hosts:), TLS when every entry says grpcs://', () => {
    assert.deepEqual(target('grpcs://a.example:1,grpcs://b.example:2'), {
      address: 'avap-hosts:a.example:1,b.example:2',
      tls: true,
      endpoints: ['a.example:1', 'b.example:2'],
      balanced: true,
    });
    assert.equal(target('localhost:1,127.0.0.1:2').address, 'avap-hosts:localhost:1,127.0.0.1:2');
  });

  it('dns:///name:port balances over every address of the name', () => {
    assert.deepEqual(target('dns:///avap-parser.tools.svc.cluster.local:50051'), {
      address: 'dns:///avap-parser.tools.svc.cluster.local:50051',
      tls: false,
      endpoints: ['avap-parser.tools.svc.cluster.local:50051'],
      balanced: true,
    });
    assert.equal(target('dns:parser:1').address, 'dns:///parser:1');
    assert.equal(target('grpcs://dns:///parser:1').tls, true);
  });

  it('refuses what it cannot read, with the reason', () => {
    const error = (url: string) => {
      const parsed = parseParserUrl(url);
      assert.ok(!parsed.ok, url);
      assert.equal(parsed.error.kind, 'bad-url');
      return parsed.error.message;
    };
    assert.match(error('not a url'), /is not a parser URL \(expected host:port, .* or dns:\/\/\/name:port\)/);
    assert.match(error('127.0.0.1:0'), /port 0 in '127\.0\.0\.1:0' is out of range/);
    assert.match(error('a:1,,b:2'), /is not a parser URL/);
    assert.match(error('a:1,a:1'), /lists an endpoint twice/);
    assert.match(error('grpcs://a:1,b:2'), /mixes TLS \(grpcs:\/\/\) and plaintext endpoints/);
    assert.match(error('dns:///parser'), /is not a parser URL/);
    assert.match(error('http://a:1'), /is not a parser URL/);
  });
});

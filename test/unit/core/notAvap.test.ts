/**
 * The classifier of unlabelled code blocks: output and commands
 * shown next to a program are not AVAP — and no AVAP program, valid or
 * invalid, is ever classified as something else.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { isAvapFinding, mayBeNotAvap, plainlyNotAvap } from '../../../src/core/code/notAvap';
import { avapCodeBlocks, loadDocs, loadExamplePool, loadGoldenSet } from '../../../src/knowledge';
import { repoKnowledgeDir, unwrap } from '../knowledge/helpers';

const CORPUS = path.resolve(__dirname, '..', '..', 'corpus');

/** Every AVAP program the project holds: the parser's corpora (valid, invalid, model failures) and the knowledge base. */
function everyProgram(): [string, string][] {
  const programs: [string, string][] = [];
  for (const dir of ['valid', 'invalid', 'failures'])
    for (const file of readdirSync(path.join(CORPUS, dir)))
      programs.push([`${dir}/${file}`, readFileSync(path.join(CORPUS, dir, file), 'utf8')]);
  const knowledge = repoKnowledgeDir();
  for (const example of unwrap(loadExamplePool(knowledge)).examples)
    programs.push([`pool ${example.id}`, example.code]);
  for (const entry of unwrap(loadGoldenSet(knowledge)).entries)
    if (entry.referenceCode) programs.push([`golden ${entry.id}`, entry.referenceCode]);
  for (const doc of unwrap(loadDocs(knowledge)))
    for (const block of avapCodeBlocks(doc.body)) programs.push([`${doc.id}:${block.line}`, block.code]);
  return programs;
}

describe('core/code plainlyNotAvap: unlabelled blocks that are plainly not AVAP', () => {
  it('JSON output: an object, an array, a scalar, NDJSON, pretty-printed', () => {
    for (const code of [
      '{"hashed": "5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8"}',
      '{\n  "hashed": "5e88",\n  "ok": true\n}',
      '[1, 2, 3]',
      '"done"',
      '42',
      '{"a": 1}\n{"a": 2}',
    ])
      assert.equal(plainlyNotAvap(code), 'json', code);
  });

  it('shell: curl (one line, continued lines, a prompt), npm, the avap CLI, an export, with # comments', () => {
    for (const code of [
      'curl "http://localhost:8080/api/hash?pwd=secret"',
      'curl -X POST http://localhost:8080/v1/generate \\\n  -H "Content-Type: application/json" \\\n  -d \'{"query": "hash"}\'',
      '$ curl -s localhost:8080/health',
      '# run the tests\nnpm test',
      'node dist/cli.js generate "hash the password"\navap validate hello.avap',
      'export AVAP_PARSER_URL=127.0.0.1:50051',
      'sudo apt-get install -y jq',
    ])
      assert.equal(plainlyNotAvap(code), 'shell', code);
  });

  it('HTTP exchanges, markup and a printed digest', () => {
    assert.equal(plainlyNotAvap('GET /api/hash?pwd=x HTTP/1.1\nHost: localhost'), 'http');
    assert.equal(plainlyNotAvap('HTTP/1.1 200 OK\nContent-Type: application/json\n\n{"hashed": "5e88"}'), 'http');
    assert.equal(plainlyNotAvap('POST /v1/generate'), 'http');
    assert.equal(plainlyNotAvap('<result>\n  <hashed>5e88</hashed>\n</result>'), 'markup');
    assert.equal(plainlyNotAvap('5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8'), 'digest');
  });

  it('AVAP that looks like a command or data stays AVAP: calls and assignments of the same names', () => {
    for (const code of [
      'curl(url)',
      'echo = "x"',
      'http = 1\naddResult(http)',
      'node(a, b)',
      'addVar(body, {"hashed": "x"})',
      'result = {"a": 1}',
      'items = [1, 2, 3]\naddResult(items)',
      '$count = 1',
      'curl "http://x"\naddResult(x)',
      'GET /x HTTP/1.1\naddResult(x)',
      '{"a": 1}\naddResult(a)',
      'deadbeefdeadbeef',
      '// curl -s http://localhost',
      'export function handler(req) {\n  return 1\n}',
    ])
      assert.equal(plainlyNotAvap(code), undefined, code);
  });

  it('no AVAP program the project holds — valid, invalid or a model failure — is classified as not AVAP, nor any of its prefixes as possibly so', () => {
    const programs = everyProgram();
    assert.ok(programs.length > 400, `${programs.length} programs`);
    for (const [where, code] of programs) {
      assert.equal(plainlyNotAvap(code), undefined, where);
      const lines = code.split('\n');
      for (let n = 1; n <= lines.length; n += 1)
        assert.equal(mayBeNotAvap(lines.slice(0, n).join('\n')), false, `${where}, first ${n} line(s)`);
    }
  });

  it('property: a statement — a call or an assignment, whatever the name — is never classified as not AVAP', () => {
    const name = fc.oneof(
      fc.constantFrom('curl', 'echo', 'http', 'npm', 'node', 'cat', 'export', 'git', 'GET', 'POST', 'addVar', 'ls'),
      fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/),
    );
    const argument = fc.oneof(fc.stringMatching(/^[a-z0-9_]{1,6}$/), fc.constantFrom('"x"', '{"a": 1}', '[1, 2]'));
    const statement = fc.oneof(
      fc.tuple(name, fc.array(argument, { maxLength: 3 })).map(([n, args]) => `${n}(${args.join(', ')})`),
      fc.tuple(name, argument).map(([n, value]) => `${n} = ${value}`),
    );
    fc.assert(
      fc.property(fc.array(statement, { minLength: 1, maxLength: 6 }), (lines) => {
        const code = lines.join('\n');
        return plainlyNotAvap(code) === undefined;
      }),
    );
  });

  it('while streaming: a block that opens like output or a command may still turn out not AVAP; AVAP never does', () => {
    assert.equal(mayBeNotAvap('{'), true);
    assert.equal(mayBeNotAvap('{\n  "hashed": "5e88",'), true);
    assert.equal(mayBeNotAvap('curl -X POST \\'), true);
    assert.equal(mayBeNotAvap('HTTP/1.1 200 OK'), true);
    assert.equal(mayBeNotAvap('addParam(pwd, p)\n{'), false);
    assert.equal(mayBeNotAvap('for i in range(1, 6):'), false);
    assert.equal(isAvapFinding({ code: '{"hashed": "5e88"}' }), false);
    assert.equal(isAvapFinding({ code: 'addParam(pwd, p)\nprint(p)' }), true);
    assert.equal(isAvapFinding(undefined), false);
  });
});

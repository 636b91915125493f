import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { RULES, validateAvap, type ValidationResult } from '../../../src/parser';
import { protoDirectory } from '../../../src/protocol/parserDefinition';
import { fromWireResponse, toWireResponse, type WireValidateResponse } from '../../../src/protocol';

/** The options the service and its clients load the proto with. */
const OPTIONS: protoLoader.Options = { keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true };

interface Codec {
  encode(response: object): Buffer;
  decode(bytes: Buffer): WireValidateResponse;
}

function codecOf(file: string): Codec {
  const definition = protoLoader.loadSync(file, OPTIONS);
  const method = (definition['avap.parser.v1.AvapParser'] as grpc.ServiceDefinition).Validate as grpc.MethodDefinition<
    unknown,
    object
  >;
  return {
    encode: (r) => method.responseSerialize(r),
    decode: (b) => method.responseDeserialize(b) as WireValidateResponse,
  };
}

const CURRENT = path.join(protoDirectory(), 'avap_parser.proto');
const current = codecOf(CURRENT);

/** The contract as it was before `code` (field 9): the current file without that field. */
function withoutCodeField(text: string): string {
  const withoutField = text.replace(/\n((?:\s*\/\/[^\n]*\n)*)\s*string code = 9;\n/, '\n');
  assert.notEqual(withoutField, text, 'the current proto declares string code = 9');
  return withoutField;
}

describe('protocol: rule codes on the wire', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'avap-proto-'));
  const previousFile = path.join(dir, 'avap_parser.proto');
  writeFileSync(previousFile, withoutCodeField(readFileSync(CURRENT, 'utf8')));
  const previous = codecOf(previousFile);
  after(() => rmSync(dir, { recursive: true, force: true }));

  const sample: ValidationResult = validateAvap(
    'addVar(a, 1)\ngetSHA256(a, h)\nfor i in range(3):\nif(a, 1, "=")\naddResult(a, b)\n',
  );

  it('round-trips every entry with its code through the encoded message', () => {
    assert.ok(sample.trace.length >= 4);
    const decoded = fromWireResponse(current.decode(current.encode(toWireResponse(sample))));
    assert.deepEqual(decoded, sample);
    assert.deepEqual(
      decoded.trace.map((e) => e.code),
      ['unknown-command', 'foreign-loop', 'unclosed-block', 'arity'],
    );
  });

  it('carries every code of the catalogue', () => {
    for (const rule of RULES) {
      const result: ValidationResult = {
        valid: false,
        truncated: false,
        parserVersion: 'v',
        trace: [
          {
            line: 1,
            column: 1,
            endColumn: 2,
            severity: rule.severity,
            category: rule.category,
            code: rule.code,
            message: 'm',
            token: 't',
          },
        ],
      };
      assert.equal(fromWireResponse(current.decode(current.encode(toWireResponse(result)))).trace[0]?.code, rule.code);
    }
  });

  it("decodes a response of an older service (no code field) with each entry on its category's unspecified rule", () => {
    const old = toWireResponse(sample) as unknown as Record<string, unknown> & { trace: Record<string, unknown>[] };
    for (const entry of old.trace) delete entry.code;
    const bytes = previous.encode(old);
    const decoded = fromWireResponse(current.decode(bytes));
    assert.equal(decoded.valid, false);
    assert.deepEqual(
      decoded.trace.map((e) => e.code),
      [
        'unspecified-unknown-token',
        'unspecified-unexpected-construct',
        'unspecified-syntax-error',
        'unspecified-syntax-error',
      ],
    );
    const withoutCodes = (r: ValidationResult) => r.trace.map(({ code: _code, ...rest }) => rest);
    assert.deepEqual(withoutCodes(decoded), withoutCodes(sample), 'everything else arrives as it was sent');
  });

  it('lets an older client decode a current response, ignoring the code it does not know', () => {
    const decoded = previous.decode(current.encode(toWireResponse(sample))) as unknown as {
      trace: Record<string, unknown>[];
    };
    assert.equal(decoded.trace.length, sample.trace.length);
    assert.deepEqual(
      decoded.trace.filter((e) => 'code' in e),
      [],
    );
    assert.deepEqual(
      decoded.trace.map((e) => e.message),
      sample.trace.map((e) => e.message),
    );
    assert.equal(decoded.trace[0]?.suggestion, 'encodeSHA256');
  });

  it("falls back to the category's unspecified rule for a code this client does not know (a newer service)", () => {
    const wire = toWireResponse(sample);
    const first = wire.trace[0];
    assert.ok(first);
    first.code = 'some-future-rule';
    const decoded = fromWireResponse(current.decode(current.encode(wire)));
    assert.equal(decoded.trace[0]?.code, 'unspecified-unknown-token');
    assert.equal(decoded.trace[1]?.code, 'foreign-loop');
  });
});

/** The contract as it was before `fix` (field 10). */
function withoutFixField(text: string): string {
  const withoutField = text.replace(/\n((?:\s*\/\/[^\n]*\n)*)\s*Fix fix = 10;\n/, '\n');
  assert.notEqual(withoutField, text, 'the current proto declares Fix fix = 10');
  return withoutField;
}

describe('protocol: proven fixes on the wire', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'avap-proto-fix-'));
  const previousFile = path.join(dir, 'avap_parser.proto');
  writeFileSync(previousFile, withoutFixField(readFileSync(CURRENT, 'utf8')));
  const previous = codecOf(previousFile);
  after(() => rmSync(dir, { recursive: true, force: true }));

  const sample = validateAvap(
    'readParam("user")\nhashed = getSHA256(user);\nif(hashed, "x", =)\n  addResult(hashed)\n',
  );

  it('round-trips every fix, edits and title, through the encoded message', () => {
    const fixed = sample.trace.filter((e) => e.fix);
    assert.ok(fixed.length >= 3, JSON.stringify(sample.trace));
    const decoded = fromWireResponse(current.decode(current.encode(toWireResponse(sample))));
    assert.deepEqual(decoded, sample);
    const multiLine = decoded.trace.find((e) => e.code === 'unclosed-block')?.fix;
    assert.deepEqual(multiLine?.edits, [{ line: 4, column: 20, endLine: 4, endColumn: 20, newText: '\nend()' }]);
  });

  it('decodes an entry without a fix (unset on the wire) with no fix, and the suggestion still there', () => {
    const plain = validateAvap('frobnicate(a)\naddVar(x, 1)\n');
    const decoded = fromWireResponse(current.decode(current.encode(toWireResponse(plain))));
    assert.equal(decoded.trace[0]?.fix, undefined);
    assert.ok(!('fix' in (decoded.trace[0] ?? {})));
    assert.deepEqual(decoded, plain);
  });

  it('lets an older client decode a current response, ignoring the fix it does not know', () => {
    const decoded = previous.decode(current.encode(toWireResponse(sample))) as unknown as {
      trace: Record<string, unknown>[];
    };
    assert.equal(decoded.trace.length, sample.trace.length);
    assert.deepEqual(
      decoded.trace.filter((e) => 'fix' in e),
      [],
    );
    assert.equal(decoded.trace.find((e) => e.code === 'unknown-command')?.suggestion, 'addParam');
  });

  it('decodes a response of an older service (no fix field) with every entry as it was, and no fix', () => {
    const old = toWireResponse(sample) as unknown as { trace: Record<string, unknown>[] };
    for (const entry of old.trace) delete entry.fix;
    const decoded = fromWireResponse(current.decode(previous.encode(old)));
    assert.deepEqual(
      decoded.trace,
      sample.trace.map(({ fix: _fix, ...rest }) => rest),
    );
  });

  it('drops a malformed fix rather than applying part of it', () => {
    const wire = toWireResponse(sample);
    const entry = wire.trace.find((e) => e.fix);
    assert.ok(entry?.fix);
    entry.fix.edits.push({ line: 3, column: 5, end_line: 2, end_column: 1, new_text: 'x' });
    const decoded = fromWireResponse(current.decode(current.encode(wire)));
    assert.equal(decoded.trace.find((e) => e.code === entry.code && e.line === entry.line)?.fix, undefined);
  });
});

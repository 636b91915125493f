/**
 * The hand-written codecs the clients use (src/protocol/wire.ts) against
 * protobufjs reflection of the .proto files — exactly what the service
 * registers (@grpc/proto-loader with the service's options): randomized
 * messages in both directions, absent fields, fields this client does not
 * know (a newer service), the contract before `code` (field 9) and `fix`
 * (field 10), and the standard health messages.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import fc from 'fast-check';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import { LOADER_OPTIONS, protoDirectory } from '../../../src/protocol/parserDefinition';
import {
  HEALTH_METHODS,
  PARSER_METHODS,
  type WireFix,
  type WireTraceEntry,
  type WireValidateRequest,
  type WireValidateResponse,
  type ServingStatus,
} from '../../../src/protocol';
// internal-import: the hand-written codecs, checked against the .proto reflection
import {
  decodeHealthCheckRequest,
  decodeHealthCheckResponse,
  decodeValidateRequest,
  decodeValidateResponse,
  encodeHealthCheckRequest,
  encodeHealthCheckResponse,
  encodeValidateRequest,
  encodeValidateResponse,
} from '../../../src/protocol/wire';

type Method = grpc.MethodDefinition<object, object>;

function serviceOf(file: string, service: string): Record<string, Method> {
  const definition = protoLoader.loadSync(file, LOADER_OPTIONS);
  return definition[service] as unknown as Record<string, Method>;
}

const CURRENT = path.join(protoDirectory(), 'avap_parser.proto');
const currentText = readFileSync(CURRENT, 'utf8');
const reflected = serviceOf(CURRENT, 'avap.parser.v1.AvapParser').Validate as Method;

function dropField(text: string, declaration: string): string {
  const escaped = declaration.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const changed = text.replace(new RegExp(String.raw`\n((?:\s*\/\/[^\n]*\n)*)\s*${escaped}\n`), '\n');
  assert.notEqual(changed, text, `the current proto declares ${declaration}`);
  return changed;
}

/** A newer contract: fields this client does not know, of every wire type, at every level. */
function withFutureFields(text: string): string {
  const add = (message: string, fields: string) => {
    const changed = text.replace(new RegExp(String.raw`(message ${message} \{\n[\s\S]*?)\n\}`), `$1\n${fields}\n}`);
    assert.notEqual(changed, text, `message ${message} found`);
    text = changed;
  };
  add(
    'ValidateResponse',
    '  string future_note = 5;\n  repeated uint64 future_counts = 6;\n  double future_ratio = 7;\n  Fix future_fix = 8;\n  fixed32 future_fixed = 9;',
  );
  add(
    'TraceEntry',
    '  int64 future_offset = 11;\n  string future_url = 12;\n  repeated TextEdit future_edits = 13;\n  sfixed64 future_stamp = 14;\n  float future_weight = 15;',
  );
  add('Fix', '  bool future_safe = 3;\n  string future_kind = 4;');
  add('TextEdit', '  int32 future_delta = 6;\n  bytes future_blob = 7;');
  return text;
}

const dir = mkdtempSync(path.join(tmpdir(), 'avap-wire-codec-'));
function reflectedFrom(text: string, name: string): Method {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return serviceOf(file, 'avap.parser.v1.AvapParser').Validate as Method;
}
const beforeCode = reflectedFrom(
  dropField(dropField(currentText, 'Fix fix = 10;'), 'string code = 9;'),
  'before-code.proto',
);
const beforeFix = reflectedFrom(dropField(currentText, 'Fix fix = 10;'), 'before-fix.proto');
const future = reflectedFrom(withFutureFields(currentText), 'future.proto');
after(() => rmSync(dir, { recursive: true, force: true }));

/** Plain objects, as a caller builds them (fast-check also makes null-prototype ones). */
const PLAIN = { noNullPrototype: true };
// Text of any Unicode code point (no lone surrogates: those are not text), short and long (protobufjs switches writers at 40 characters).
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: 'binary', minLength: 30, maxLength: 300 }),
  fc.constant(''),
);
const uint32 = fc.oneof(fc.constant(0), fc.nat({ max: 300 }), fc.nat({ max: 0xffffffff }));

const textEdit = fc.record(
  { line: uint32, column: uint32, end_line: uint32, end_column: uint32, new_text: text },
  PLAIN,
);
const fix: fc.Arbitrary<WireFix> = fc.record({ title: text, edits: fc.array(textEdit, { maxLength: 3 }) }, PLAIN);
const traceEntry: fc.Arbitrary<WireTraceEntry> = fc.record(
  {
    line: uint32,
    column: uint32,
    end_column: uint32,
    category: text,
    message: text,
    suggestion: text,
    token: text,
    severity: text,
    code: text,
    fix: fc.option(fix, { nil: null }),
  },
  PLAIN,
);
const response: fc.Arbitrary<WireValidateResponse> = fc.record(
  {
    valid: fc.boolean(),
    trace: fc.array(traceEntry, { maxLength: 6 }),
    parser_version: text,
    truncated: fc.boolean(),
  },
  PLAIN,
);
/** The same messages with any field left out (absent on the wire). */
const partialEntry = fc.record(
  {
    line: uint32,
    column: uint32,
    end_column: uint32,
    category: text,
    message: text,
    suggestion: text,
    token: text,
    severity: text,
    code: text,
    fix: fc.record(
      {
        title: text,
        edits: fc.array(fc.record({ line: uint32, new_text: text }, { requiredKeys: [], noNullPrototype: true }), {
          maxLength: 2,
        }),
      },
      { requiredKeys: [], noNullPrototype: true },
    ),
  },
  { requiredKeys: [], noNullPrototype: true },
);
const partialResponse = fc.record(
  {
    valid: fc.boolean(),
    trace: fc.array(partialEntry, { maxLength: 4 }),
    parser_version: text,
    truncated: fc.boolean(),
  },
  { requiredKeys: [], noNullPrototype: true },
);
const request: fc.Arbitrary<WireValidateRequest> = fc.record({ source: text, filename: text }, PLAIN);

const RUNS = { numRuns: 150 };

describe('protocol: the hand-written wire codec against protobufjs reflection of the .proto', () => {
  it('a response the client encodes is what reflection decodes, and the reverse', () => {
    fc.assert(
      fc.property(response, (message) => {
        assert.deepStrictEqual(reflected.responseDeserialize(encodeValidateResponse(message)), message);
        assert.deepStrictEqual(decodeValidateResponse(reflected.responseSerialize(message)), message);
      }),
      RUNS,
    );
  });

  it('a request the client encodes is what the service decodes, and the reverse', () => {
    fc.assert(
      fc.property(request, (message) => {
        assert.deepStrictEqual(reflected.requestDeserialize(encodeValidateRequest(message)), message);
        assert.deepStrictEqual(decodeValidateRequest(reflected.requestSerialize(message)), message);
      }),
      RUNS,
    );
  });

  it('absent fields decode to their defaults (an unset fix to null), as reflection decodes them', () => {
    fc.assert(
      fc.property(partialResponse, (message) => {
        const bytes = reflected.responseSerialize(message);
        assert.deepStrictEqual(decodeValidateResponse(bytes), reflected.responseDeserialize(bytes));
      }),
      RUNS,
    );
    assert.deepStrictEqual(decodeValidateResponse(Buffer.alloc(0)), {
      valid: false,
      trace: [],
      parser_version: '',
      truncated: false,
    });
    assert.deepStrictEqual(
      decodeValidateResponse(
        encodeValidateResponse({ valid: false, trace: [{} as WireTraceEntry], parser_version: '', truncated: false }),
      ).trace,
      [
        {
          line: 0,
          column: 0,
          end_column: 0,
          category: '',
          message: '',
          suggestion: '',
          token: '',
          severity: '',
          code: '',
          fix: null,
        },
      ],
    );
  });

  it('an empty fix is still a fix: present on the wire, decoded as one with no edits', () => {
    const message: WireValidateResponse = {
      valid: true,
      parser_version: '',
      truncated: false,
      trace: [{ ...emptyEntry(), fix: { title: '', edits: [] } }],
    };
    const bytes = encodeValidateResponse(message);
    assert.deepStrictEqual(reflected.responseDeserialize(bytes), message);
    assert.deepStrictEqual(decodeValidateResponse(reflected.responseSerialize(message)), message);
  });

  it('skips every field of a newer service it does not know, at every level', () => {
    const futureValue = fc.record(
      {
        future_note: text,
        future_counts: fc.array(fc.nat({ max: Number.MAX_SAFE_INTEGER }), { maxLength: 3 }),
        future_ratio: fc.double({ noNaN: true }),
        future_fix: fix,
        future_fixed: fc.nat({ max: 0xffffffff }),
      },
      { requiredKeys: [], noNullPrototype: true },
    );
    const futureEntry = fc.record(
      {
        future_offset: fc.integer(),
        future_url: text,
        future_edits: fc.array(textEdit, { maxLength: 2 }),
        future_stamp: fc.integer(),
        future_weight: fc.float({ noNaN: true }),
      },
      { requiredKeys: [], noNullPrototype: true },
    );
    const newer = fc
      .tuple(response, futureValue, fc.array(futureEntry, { maxLength: 6 }), fc.boolean(), fc.string({ maxLength: 8 }))
      .map(([message, top, entries, safe, kind]) => ({
        expected: message,
        sent: {
          ...message,
          ...top,
          trace: message.trace.map((entry, i) => ({
            ...entry,
            ...entries[i],
            fix: entry.fix
              ? {
                  ...entry.fix,
                  future_safe: safe,
                  future_kind: kind,
                  edits: entry.fix.edits.map((e) => ({ ...e, future_delta: -7, future_blob: Buffer.from(kind) })),
                }
              : null,
          })),
        },
      }));
    fc.assert(
      fc.property(newer, ({ expected, sent }) => {
        const bytes = future.responseSerialize(sent);
        assert.deepStrictEqual(decodeValidateResponse(bytes), expected);
        assert.deepStrictEqual(decodeValidateResponse(bytes), reflected.responseDeserialize(bytes));
      }),
      RUNS,
    );
  });

  it('skips unknown top-level fields of any wire type, groups included', () => {
    const unknownField = fc
      .tuple(
        fc.integer({ min: 5, max: (1 << 29) - 1 }),
        fc.constantFrom(0, 1, 2, 3, 5),
        fc.uint8Array({ maxLength: 20 }),
        fc.nat(),
      )
      .map(([field, wireType, payload, number]) => rawField(field, wireType, payload, number));
    fc.assert(
      fc.property(response, fc.array(unknownField, { maxLength: 4 }), fc.nat(), (message, extra, at) => {
        const known = fieldsOf(reflected.responseSerialize(message));
        const cut = known.length === 0 ? 0 : at % (known.length + 1);
        const bytes = Buffer.concat([...known.slice(0, cut), ...extra, ...known.slice(cut)]);
        assert.deepStrictEqual(decodeValidateResponse(bytes), message);
      }),
      RUNS,
    );
  });

  it('speaks with the contract before code (field 9) and before fix (field 10), both ways', () => {
    fc.assert(
      fc.property(response, (message) => {
        const withoutCode = { ...message, trace: message.trace.map(({ code: _code, fix: _fix, ...rest }) => rest) };
        // An older client reading this client's encoding (a server built from these codecs) ignores the newer fields.
        assert.deepStrictEqual(beforeCode.responseDeserialize(encodeValidateResponse(message)), withoutCode);
        // An older service's answer: every entry without a code (""), without a fix (null).
        assert.deepStrictEqual(decodeValidateResponse(beforeCode.responseSerialize(withoutCode)), {
          ...message,
          trace: message.trace.map((e) => ({ ...e, code: '', fix: null })),
        });
        const withoutFix = { ...message, trace: message.trace.map(({ fix: _fix, ...rest }) => rest) };
        assert.deepStrictEqual(beforeFix.responseDeserialize(encodeValidateResponse(message)), withoutFix);
        assert.deepStrictEqual(decodeValidateResponse(beforeFix.responseSerialize(withoutFix)), {
          ...message,
          trace: message.trace.map((e) => ({ ...e, fix: null })),
        });
      }),
      RUNS,
    );
  });

  it('refuses a message cut anywhere but between two top-level fields, and reads a prefix of whole fields as reflection does', () => {
    fc.assert(
      fc.property(
        response.filter((m) => m.trace.length > 0),
        fc.nat(),
        (message, at) => {
          const bytes = reflected.responseSerialize(message);
          const cut = bytes.subarray(0, at % bytes.length);
          const boundaries = new Set(fieldsOf(bytes).map((f) => f.byteOffset + f.length - bytes.byteOffset));
          const ours = attempt(() => decodeValidateResponse(cut));
          if (cut.length === 0 || boundaries.has(cut.length)) {
            assert.ok(ours.ok, `cut at ${cut.length} of ${bytes.length}, after a whole field`);
            assert.deepStrictEqual(ours.value, reflected.responseDeserialize(cut));
          } else {
            assert.ok(!ours.ok, `cut at ${cut.length} of ${bytes.length}, inside a field`);
          }
        },
      ),
      RUNS,
    );
  });

  it('encodes uint32 fields as protobuf does for any number (taken modulo 2^32)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 32 - 1 }), (n) => {
        const message: WireValidateResponse = {
          valid: false,
          parser_version: '',
          truncated: false,
          trace: [{ ...emptyEntry(), line: n, column: n, end_column: n }],
        };
        const decoded = reflected.responseDeserialize(encodeValidateResponse(message)) as WireValidateResponse;
        assert.equal(decoded.trace[0]?.line, n >>> 0);
        assert.deepStrictEqual(decodeValidateResponse(reflected.responseSerialize(message)), decoded);
      }),
      RUNS,
    );
  });

  it("the client speaks the service's method path", () => {
    assert.equal(PARSER_METHODS.Validate.path, reflected.path);
    assert.equal(PARSER_METHODS.Validate.requestStream, reflected.requestStream);
    assert.equal(PARSER_METHODS.Validate.responseStream, reflected.responseStream);
  });
});

describe('protocol: the hand-written grpc.health.v1 codec against the standard health.proto', () => {
  const health = serviceOf(healthProtoPath, 'grpc.health.v1.Health');
  const STATUSES: ServingStatus[] = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'];

  it('requests and responses both ways, for any service name and every status', () => {
    fc.assert(
      fc.property(text, fc.constantFrom(...STATUSES), (service, status) => {
        const check = health.Check as Method;
        assert.deepStrictEqual(check.requestDeserialize(encodeHealthCheckRequest({ service })), { service });
        assert.deepStrictEqual(decodeHealthCheckRequest(check.requestSerialize({ service })), { service });
        assert.deepStrictEqual(check.responseDeserialize(encodeHealthCheckResponse({ status })), { status });
        assert.deepStrictEqual(decodeHealthCheckResponse(check.responseSerialize({ status })), { status });
      }),
      RUNS,
    );
  });

  it('a status this client does not know (a newer enum value, or a negative one) reads as UNKNOWN, never as SERVING', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).filter((n) => n < 0 || n > 3),
        (n) => {
          const bytes = (health.Check as Method).responseSerialize({ status: n });
          assert.equal(decodeHealthCheckResponse(bytes).status, 'UNKNOWN');
        },
      ),
      RUNS,
    );
  });

  it('the client speaks the standard method paths', () => {
    assert.equal(HEALTH_METHODS.Check.path, (health.Check as Method).path);
    assert.equal(HEALTH_METHODS.Watch.path, (health.Watch as Method).path);
    assert.equal(HEALTH_METHODS.Watch.responseStream, true);
  });
});

function emptyEntry(): WireTraceEntry {
  return {
    line: 0,
    column: 0,
    end_column: 0,
    category: '',
    message: '',
    suggestion: '',
    token: '',
    severity: '',
    code: '',
    fix: null,
  };
}

function attempt<T>(run: () => T): { ok: true; value: T } | { ok: false; value?: undefined } {
  try {
    return { ok: true, value: run() };
  } catch {
    return { ok: false };
  }
}

function varint(value: number): number[] {
  const bytes: number[] = [];
  let v = value >>> 0;
  while (v > 0x7f) {
    bytes.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  bytes.push(v);
  return bytes;
}

/** One field as raw bytes: a varint, 8 or 4 fixed bytes, a length-delimited payload or a group holding a varint field. */
function rawField(field: number, wireType: number, payload: Uint8Array, number: number): Buffer {
  const tag = varint(field * 8 + wireType);
  switch (wireType) {
    case 0:
      return Buffer.from([...tag, ...varint(number)]);
    case 1:
      return Buffer.from([...tag, ...Array.from({ length: 8 }, (_, i) => payload[i] ?? i)]);
    case 5:
      return Buffer.from([...tag, ...Array.from({ length: 4 }, (_, i) => payload[i] ?? i)]);
    case 3:
      return Buffer.from([...tag, ...varint(1 * 8 + 0), ...varint(number), ...varint(field * 8 + 4)]);
    default:
      return Buffer.from([...tag, ...varint(payload.length), ...payload]);
  }
}

/** A message's top-level fields, each as its raw bytes. */
function fieldsOf(bytes: Buffer): Buffer[] {
  const fields: Buffer[] = [];
  let pos = 0;
  const readVarint = () => {
    let value = 0;
    let shift = 0;
    for (;;) {
      const byte = bytes[pos++] as number;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if ((byte & 0x80) === 0) return value;
    }
  };
  while (pos < bytes.length) {
    const start = pos;
    const wireType = readVarint() % 8;
    if (wireType === 0) readVarint();
    else if (wireType === 2) {
      const length = readVarint();
      pos += length;
    } else throw new Error(`unexpected wire type ${wireType} in a ValidateResponse`);
    fields.push(bytes.subarray(start, pos));
  }
  return fields;
}

/**
 * The protobuf wire format of the few messages the parser's clients exchange,
 * written by hand so that a client needs no run-time .proto parsing or
 * reflection (protobufjs, @grpc/proto-loader) — that reflection was most of
 * what loading the editor's parser connection cost.
 *
 * Messages (src/proto/avap_parser.proto and the standard grpc/health/v1/health.proto):
 *
 *   ValidateRequest     { string source = 1; string filename = 2; }
 *   ValidateResponse    { bool valid = 1; repeated TraceEntry trace = 2; string parser_version = 3; bool truncated = 4; }
 *   TraceEntry          { uint32 line = 1; uint32 column = 2; uint32 end_column = 3; string category = 4;
 *                         string message = 5; string suggestion = 6; string token = 7; string severity = 8;
 *                         string code = 9; Fix fix = 10; }
 *   Fix                 { string title = 1; repeated TextEdit edits = 2; }
 *   TextEdit            { uint32 line = 1; uint32 column = 2; uint32 end_line = 3; uint32 end_column = 4; string new_text = 5; }
 *   HealthCheckRequest  { string service = 1; }
 *   HealthCheckResponse { ServingStatus status = 1; }  UNKNOWN = 0, SERVING = 1, NOT_SERVING = 2, SERVICE_UNKNOWN = 3
 *
 * Decoding gives exactly what @grpc/proto-loader gives with the options the
 * service uses (keepCase, defaults, longs: Number, enums: String): every
 * scalar present with its default when absent, an absent `fix` as null, unknown
 * fields skipped (an older client reading a newer service, or the reverse).
 * Encoding follows proto3: a field at its default value is left out.
 * test/unit/protocol/wireCodec.test.ts checks both directions against protobufjs
 * reflection of the .proto files with randomized messages.
 */
import type { WireFix, WireTextEdit, WireTraceEntry, WireValidateRequest, WireValidateResponse } from './parserProto';

export type ServingStatus = 'UNKNOWN' | 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN';

export interface HealthCheckRequest {
  service: string;
}

export interface HealthCheckResponse {
  status: ServingStatus;
}

const SERVING_STATUSES: readonly ServingStatus[] = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'];

const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;
const START_GROUP = 3;
const END_GROUP = 4;
const FIXED32 = 5;

// ---------------------------------------------------------------------------
// Writing

class Writer {
  private buf: Buffer;
  private pos = 0;

  constructor(size = 64) {
    this.buf = Buffer.allocUnsafe(size);
  }

  private ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + bytes));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  /** An unsigned 32-bit varint (at most 5 bytes). */
  varint(value: number): void {
    this.ensure(5);
    let v = value >>> 0;
    while (v > 0x7f) {
      this.buf[this.pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buf[this.pos++] = v;
  }

  /** A signed 32-bit varint: negative values take ten bytes, as protobuf's int32 and enums do. */
  int32(value: number): void {
    const v = value | 0;
    if (v >= 0) {
      this.varint(v);
      return;
    }
    this.ensure(10);
    let low = v >>> 0;
    for (let i = 0; i < 4; i += 1) {
      this.buf[this.pos++] = (low & 0x7f) | 0x80;
      low >>>= 7;
    }
    // Bits 28..31 of the value, then the sign extension (all ones) up to 64 bits.
    this.buf[this.pos++] = (low & 0x0f) | 0x70 | 0x80;
    for (let i = 0; i < 4; i += 1) this.buf[this.pos++] = 0xff;
    this.buf[this.pos++] = 0x01;
  }

  tag(field: number, wireType: number): void {
    this.varint((field << 3) | wireType);
  }

  uint32Field(field: number, value: number): void {
    const v = value >>> 0;
    if (v === 0) return;
    this.tag(field, VARINT);
    this.varint(v);
  }

  enumField(field: number, value: number): void {
    if (value === 0) return;
    this.tag(field, VARINT);
    this.int32(value);
  }

  boolField(field: number, value: boolean): void {
    if (!value) return;
    this.tag(field, VARINT);
    this.varint(1);
  }

  stringField(field: number, value: string): void {
    if (!value) return;
    const length = Buffer.byteLength(value, 'utf8');
    this.tag(field, LENGTH_DELIMITED);
    this.varint(length);
    this.ensure(length);
    this.pos += this.buf.write(value, this.pos, length, 'utf8');
  }

  /** A length-delimited sub-message (sent even when all its fields are defaults: it is present), written by `write` into a writer of its own. */
  messageField(field: number, write: (w: Writer) => void): void {
    const inner = new Writer();
    write(inner);
    const bytes = inner.finish();
    this.tag(field, LENGTH_DELIMITED);
    this.varint(bytes.length);
    this.ensure(bytes.length);
    bytes.copy(this.buf, this.pos);
    this.pos += bytes.length;
  }

  finish(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}

// ---------------------------------------------------------------------------
// Reading

class Reader {
  pos: number;

  constructor(
    readonly buf: Buffer,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }

  private outOfRange(): never {
    throw new RangeError(`protobuf: index out of range: ${this.pos} > ${this.end}`);
  }

  /** A varint's low 32 bits, unsigned (protobuf's uint32; longer varints are read to their end). */
  varint(): number {
    let value = 0;
    for (let shift = 0; shift < 70; shift += 7) {
      if (this.pos >= this.end) this.outOfRange();
      const byte = this.buf[this.pos++] as number;
      if (shift < 32) value |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value >>> 0;
    }
    throw new RangeError('protobuf: varint longer than 10 bytes');
  }

  bool(): boolean {
    return this.varint() !== 0;
  }

  /** The end of a length-delimited field that starts here. */
  delimited(): number {
    const length = this.varint();
    const end = this.pos + length;
    if (end > this.end) this.outOfRange();
    return end;
  }

  string(): string {
    const end = this.delimited();
    const value = this.buf.toString('utf8', this.pos, end);
    this.pos = end;
    return value;
  }

  /** Skips a field this decoder does not read (unknown, or of an unexpected wire type). */
  skip(wireType: number): void {
    switch (wireType) {
      case VARINT:
        this.varint();
        return;
      case FIXED64:
        this.advance(8);
        return;
      case LENGTH_DELIMITED:
        this.pos = this.delimited();
        return;
      case FIXED32:
        this.advance(4);
        return;
      case START_GROUP:
        for (;;) {
          const tag = this.varint();
          if ((tag & 7) === END_GROUP) return;
          this.skip(tag & 7);
        }
      default:
        throw new Error(`protobuf: invalid wire type ${wireType} at offset ${this.pos}`);
    }
  }

  private advance(bytes: number): void {
    if (this.pos + bytes > this.end) this.outOfRange();
    this.pos += bytes;
  }
}

/** Calls `field` with each field number and wire type until the message ends; `field` returns false for a field it did not read. */
function readFields(r: Reader, end: number, field: (number: number, wireType: number) => boolean): void {
  while (r.pos < end) {
    const tag = r.varint();
    const wireType = tag & 7;
    if (!field(tag >>> 3, wireType)) r.skip(wireType);
  }
  if (r.pos !== end) throw new RangeError('protobuf: a field runs past the end of its message');
}

// ---------------------------------------------------------------------------
// avap.parser.v1

export function encodeValidateRequest(request: WireValidateRequest): Buffer {
  const source = request.source ?? '';
  const filename = request.filename ?? '';
  // Room for any UTF-8 text (at most 3 bytes per UTF-16 unit), so the buffer never grows.
  const w = new Writer(3 * (source.length + filename.length) + 16);
  w.stringField(1, source);
  w.stringField(2, filename);
  return w.finish();
}

export function decodeValidateRequest(bytes: Buffer): WireValidateRequest {
  const r = new Reader(bytes, 0, bytes.length);
  const request: WireValidateRequest = { source: '', filename: '' };
  readFields(r, bytes.length, (field, wireType) => {
    if (wireType !== LENGTH_DELIMITED) return false;
    if (field === 1) request.source = r.string();
    else if (field === 2) request.filename = r.string();
    else return false;
    return true;
  });
  return request;
}

function writeTextEdit(w: Writer, edit: WireTextEdit): void {
  w.uint32Field(1, edit.line);
  w.uint32Field(2, edit.column);
  w.uint32Field(3, edit.end_line);
  w.uint32Field(4, edit.end_column);
  w.stringField(5, edit.new_text ?? '');
}

function writeFix(w: Writer, fix: WireFix): void {
  w.stringField(1, fix.title ?? '');
  for (const edit of fix.edits ?? []) w.messageField(2, (inner) => writeTextEdit(inner, edit));
}

function writeTraceEntry(w: Writer, entry: WireTraceEntry): void {
  w.uint32Field(1, entry.line);
  w.uint32Field(2, entry.column);
  w.uint32Field(3, entry.end_column);
  w.stringField(4, entry.category ?? '');
  w.stringField(5, entry.message ?? '');
  w.stringField(6, entry.suggestion ?? '');
  w.stringField(7, entry.token ?? '');
  w.stringField(8, entry.severity ?? '');
  w.stringField(9, entry.code ?? '');
  const fix = entry.fix;
  if (fix) w.messageField(10, (inner) => writeFix(inner, fix));
}

export function encodeValidateResponse(response: WireValidateResponse): Buffer {
  const w = new Writer(256);
  w.boolField(1, response.valid);
  for (const entry of response.trace ?? []) w.messageField(2, (inner) => writeTraceEntry(inner, entry));
  w.stringField(3, response.parser_version ?? '');
  w.boolField(4, response.truncated);
  return w.finish();
}

/** The varint fields of TextEdit and TraceEntry, by field number (as ENTRY_STRINGS names TraceEntry's strings). */
const EDIT_VARINTS = [undefined, 'line', 'column', 'end_line', 'end_column'] as const;
const ENTRY_VARINTS = [undefined, 'line', 'column', 'end_column'] as const;

function readTextEdit(r: Reader, end: number): WireTextEdit {
  const edit: WireTextEdit = { line: 0, column: 0, end_line: 0, end_column: 0, new_text: '' };
  readFields(r, end, (field, wireType) => {
    const number = wireType === VARINT ? EDIT_VARINTS[field] : undefined;
    if (number) {
      edit[number] = r.varint();
      return true;
    }
    if (field === 5 && wireType === LENGTH_DELIMITED) {
      edit.new_text = r.string();
      return true;
    }
    return false;
  });
  return edit;
}

function readFix(r: Reader, end: number): WireFix {
  const fix: WireFix = { title: '', edits: [] };
  readFields(r, end, (field, wireType) => {
    if (wireType !== LENGTH_DELIMITED) return false;
    if (field === 1) fix.title = r.string();
    else if (field === 2) fix.edits.push(readTextEdit(r, r.delimited()));
    else return false;
    return true;
  });
  return fix;
}

const ENTRY_STRINGS = [
  undefined,
  undefined,
  undefined,
  undefined,
  'category',
  'message',
  'suggestion',
  'token',
  'severity',
  'code',
] as const;

function readTraceEntry(r: Reader, end: number): WireTraceEntry {
  const entry: WireTraceEntry = {
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
  readFields(r, end, (field, wireType) => {
    const number = wireType === VARINT ? ENTRY_VARINTS[field] : undefined;
    if (number) {
      entry[number] = r.varint();
      return true;
    }
    if (wireType !== LENGTH_DELIMITED) return false;
    const name = ENTRY_STRINGS[field];
    if (name) {
      entry[name] = r.string();
      return true;
    }
    if (field === 10) {
      // As protobufjs does: a repeated occurrence of the message replaces the earlier one.
      entry.fix = readFix(r, r.delimited());
      return true;
    }
    return false;
  });
  return entry;
}

export function decodeValidateResponse(bytes: Buffer): WireValidateResponse {
  const r = new Reader(bytes, 0, bytes.length);
  const response: WireValidateResponse = { valid: false, trace: [], parser_version: '', truncated: false };
  readFields(r, bytes.length, (field, wireType) => {
    if ((field === 1 || field === 4) && wireType === VARINT) {
      if (field === 1) response.valid = r.bool();
      else response.truncated = r.bool();
      return true;
    }
    if (field === 2 && wireType === LENGTH_DELIMITED) {
      response.trace.push(readTraceEntry(r, r.delimited()));
      return true;
    }
    if (field === 3 && wireType === LENGTH_DELIMITED) {
      response.parser_version = r.string();
      return true;
    }
    return false;
  });
  return response;
}

// ---------------------------------------------------------------------------
// grpc.health.v1

export function encodeHealthCheckRequest(request: HealthCheckRequest): Buffer {
  const w = new Writer();
  w.stringField(1, request.service ?? '');
  return w.finish();
}

export function decodeHealthCheckRequest(bytes: Buffer): HealthCheckRequest {
  const r = new Reader(bytes, 0, bytes.length);
  const request: HealthCheckRequest = { service: '' };
  readFields(r, bytes.length, (field, wireType) => {
    if (field !== 1 || wireType !== LENGTH_DELIMITED) return false;
    request.service = r.string();
    return true;
  });
  return request;
}

export function encodeHealthCheckResponse(response: HealthCheckResponse): Buffer {
  const w = new Writer();
  w.enumField(1, Math.max(0, SERVING_STATUSES.indexOf(response.status)));
  return w.finish();
}

/** A status this client does not know (a newer enum value) reads as UNKNOWN: anything but SERVING is "not serving". */
export function decodeHealthCheckResponse(bytes: Buffer): HealthCheckResponse {
  const r = new Reader(bytes, 0, bytes.length);
  const response: HealthCheckResponse = { status: 'UNKNOWN' };
  readFields(r, bytes.length, (field, wireType) => {
    if (field !== 1 || wireType !== VARINT) return false;
    response.status = SERVING_STATUSES[r.varint() | 0] ?? 'UNKNOWN';
    return true;
  });
  return response;
}

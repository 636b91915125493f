/**
 * The wire contract of the AVAP parser service (src/proto/avap_parser.proto):
 * the message shapes, the client (grpc-js's generic client over the
 * hand-written codecs of ./wire.ts — no .proto is read on the client side),
 * and conversions between the parser's TraceEntry and the wire TraceEntry.
 * Shared by the service and its clients; editor-free. The service itself
 * loads the .proto with @grpc/proto-loader (./parserDefinition.ts).
 */
import * as grpc from '@grpc/grpc-js';
// The types and the rule catalogue alone, not the parser: the editor's parser connection bundles this module.
import { isRuleCode, UNSPECIFIED_RULE, type RuleCode } from '../parser/catalogue/rules';
import {
  TRACE_CATEGORIES,
  type Severity,
  type TextEdit,
  type TraceCategory,
  type TraceEntry,
  type TraceFix,
  type ValidationResult,
} from '../parser/types';
import { decodeValidateRequest, decodeValidateResponse, encodeValidateRequest, encodeValidateResponse } from './wire';

export const PARSER_SERVICE_NAME = 'avap.parser.v1.AvapParser';

export interface WireTraceEntry {
  line: number;
  column: number;
  end_column: number;
  category: string;
  message: string;
  suggestion: string;
  token: string;
  severity: string;
  /** The rule's code; "" from a service older than the field. */
  code: string;
  /** The proven fix; null (decoded) or absent when there is none, and from a service older than the field. */
  fix?: WireFix | null;
}

export interface WireTextEdit {
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  new_text: string;
}

export interface WireFix {
  title: string;
  edits: WireTextEdit[];
}

export interface WireValidateRequest {
  source: string;
  filename: string;
}

export interface WireValidateResponse {
  valid: boolean;
  trace: WireTraceEntry[];
  parser_version: string;
  truncated: boolean;
}

export interface ParserServiceClient extends grpc.Client {
  Validate(
    request: WireValidateRequest,
    metadata: grpc.Metadata,
    options: Partial<grpc.CallOptions>,
    callback: (err: grpc.ServiceError | null, response?: WireValidateResponse) => void,
  ): grpc.ClientUnaryCall;
}

export type ParserClientConstructor = new (
  address: string,
  credentials: grpc.ChannelCredentials,
  options?: grpc.ClientOptions,
) => ParserServiceClient;

/**
 * avap.parser.v1.AvapParser as grpc-js sees it: the method's path and the codecs of its messages.
 * @internal
 */
export const PARSER_METHODS = {
  Validate: {
    path: `/${PARSER_SERVICE_NAME}/Validate`,
    requestStream: false,
    responseStream: false,
    requestSerialize: encodeValidateRequest,
    requestDeserialize: decodeValidateRequest,
    responseSerialize: encodeValidateResponse,
    responseDeserialize: decodeValidateResponse,
  },
} satisfies grpc.ServiceDefinition;

let clientConstructor: ParserClientConstructor | undefined;

/** The client class of the parser service (made once). */
export function parserClientConstructor(): ParserClientConstructor {
  clientConstructor ??= grpc.makeGenericClientConstructor(
    PARSER_METHODS,
    'AvapParser',
  ) as unknown as ParserClientConstructor;
  return clientConstructor;
}

function toWireFix(fix: TraceFix): WireFix {
  return {
    title: fix.title,
    edits: fix.edits.map((e) => ({
      line: e.line,
      column: e.column,
      end_line: e.endLine,
      end_column: e.endColumn,
      new_text: e.newText,
    })),
  };
}

function toWireEntry(entry: TraceEntry): WireTraceEntry {
  const wire: WireTraceEntry = {
    line: entry.line,
    column: entry.column,
    end_column: entry.endColumn,
    category: entry.category,
    message: entry.message,
    suggestion: entry.suggestion ?? '',
    token: entry.token,
    severity: entry.severity,
    code: entry.code,
  };
  if (entry.fix) wire.fix = toWireFix(entry.fix);
  return wire;
}

export function toWireResponse(result: ValidationResult): WireValidateResponse {
  return {
    valid: result.valid,
    trace: result.trace.map(toWireEntry),
    parser_version: result.parserVersion,
    truncated: result.truncated,
  };
}

function asCategory(value: string): TraceCategory {
  return (TRACE_CATEGORIES as readonly string[]).includes(value) ? (value as TraceCategory) : 'syntax_error';
}

function asSeverity(value: string): Severity {
  return value === 'warning' ? 'warning' : 'error';
}

/**
 * A code this client knows, else (an older service sent none, or a newer one
 * sent a rule this client does not know) the category's `unspecified-…` rule,
 * so every decoded entry has a code of the catalogue.
 */
function asRuleCode(value: string | undefined, category: TraceCategory): RuleCode {
  return value !== undefined && isRuleCode(value) ? value : UNSPECIFIED_RULE[category].code;
}

/**
 * A decoded fix, or undefined when there is none (an unset message decodes as
 * null) or it is unusable: no edits, or an edit whose positions are not 1-based
 * with the end after the start. A fix is applied to the user's text, so a
 * malformed one is dropped rather than half trusted.
 */
function fromWireFix(wire: WireFix | null | undefined): TraceFix | undefined {
  if (!wire || !Array.isArray(wire.edits) || wire.edits.length === 0) return undefined;
  const edits: TextEdit[] = [];
  for (const e of wire.edits) {
    const edit = {
      line: e.line,
      column: e.column,
      endLine: e.end_line,
      endColumn: e.end_column,
      newText: e.new_text ?? '',
    };
    const ordered =
      edit.line >= 1 &&
      edit.column >= 1 &&
      (edit.endLine > edit.line || (edit.endLine === edit.line && edit.endColumn >= edit.column));
    if (!ordered) return undefined;
    edits.push(edit);
  }
  return { title: wire.title ?? '', edits };
}

function fromWireEntry(wire: WireTraceEntry): TraceEntry {
  const category = asCategory(wire.category);
  const entry: TraceEntry = {
    line: wire.line,
    column: wire.column,
    endColumn: wire.end_column,
    severity: asSeverity(wire.severity),
    category,
    code: asRuleCode(wire.code, category),
    message: wire.message,
    token: wire.token,
  };
  if (wire.suggestion) entry.suggestion = wire.suggestion;
  const fix = fromWireFix(wire.fix);
  if (fix) entry.fix = fix;
  return entry;
}

export function fromWireResponse(wire: WireValidateResponse): ValidationResult {
  return {
    valid: wire.valid,
    trace: (wire.trace ?? []).map(fromWireEntry),
    truncated: wire.truncated,
    parserVersion: wire.parser_version,
  };
}

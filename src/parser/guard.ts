/**
 * Input guards: size limit, binary content, invalid UTF-8 (for byte input)
 * and unpaired surrogates (for string input). Each problem becomes one trace
 * entry, the only one of the result. validateAvap runs the binary check after
 * the analysis when no NUL says so at once (decodeInput, hasNulInSample,
 * binaryCheck), and drops the analysis' findings when it refuses.
 */
import { Rule, type RuleDefinition } from './catalogue/rules';
import { traceEntry } from './reporter';
import type { TraceEntry } from './types';
import type { Err, Result } from '../result';

/** The text to parse, or the one trace entry that refuses the input (the project's one Result shape). */
export type GuardOutcome = Result<string, TraceEntry>;

/** Where the input is refused: the offending text and its 1-based position (the start of the input when none). */
interface Place {
  token: string;
  line: number;
  column: number;
}

function refuse(rule: RuleDefinition, message: string, place: Place = { token: '', line: 1, column: 1 }): GuardOutcome {
  const { token, line, column } = place;
  return { ok: false, error: traceEntry({ rule, line, column, endColumn: column + 1, message, token }) };
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}

/** The size-limit entry, shared by callers that refuse a file before reading it all. */
export function oversizeEntry(byteLength: number, maxBytes: number): TraceEntry {
  const outcome = refuse(
    Rule.SourceTooLarge,
    `source is ${formatBytes(byteLength)}, over the ${formatBytes(maxBytes)} limit — split it into smaller files`,
  );
  return (outcome as Err<TraceEntry>).error;
}

/** UTF-8 length of a string, stopping early once it exceeds `limit`; -1 on an unpaired surrogate (with its index). */
function utf8Length(text: string, limit: number): { bytes: number; badSurrogateAt: number } {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return { bytes, badSurrogateAt: i };
      bytes += 4;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return { bytes, badSurrogateAt: i };
    } else bytes += 3;
    if (bytes > limit) return { bytes, badSurrogateAt: -1 };
  }
  return { bytes, badSurrogateAt: -1 };
}

const isWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/**
 * The UTF-8 length of text without an unpaired surrogate, counted natively; undefined when the
 * text has one (or the runtime cannot tell), for utf8Length to find it.
 */
function wellFormedUtf8Length(text: string): number | undefined {
  if (isWellFormed === undefined || typeof Buffer === 'undefined' || !isWellFormed.call(text)) return undefined;
  return Buffer.byteLength(text, 'utf8');
}

/** Line and column (1-based) of a string offset. */
function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * The characters looksBinary counts: NUL and the other controls but tab, LF, FF and CR, and DEL. Written as the
 * complement of what text is made of (every UTF-16 unit but those), the same set of code units (a test checks all
 * 65,536: test/unit/parser/robustness.test.ts), which V8's regex engine searches in about 0.6× the time of the
 * ranges themselves; this search reads every character of every program validated.
 */
const CONTROL_RE = /[^\t\n\f\r\x20-\x7e\x80-\uffff]/;

/** What looksBinary reads: the first 64 KiB. */
const BINARY_SAMPLE = 64 * 1024;
/** The share of control characters in it above which a text is binary. */
const BINARY_SHARE = 0.1;

/** Binary content: a NUL byte, or mostly control characters, in the first 64 KiB. */
function looksBinary(text: string): boolean {
  const sample = Math.min(text.length, BINARY_SAMPLE);
  // Most text has no control character at all: one native search says so.
  if (!CONTROL_RE.test(sample < text.length ? text.slice(0, sample) : text)) return false;
  let control = 0;
  for (let i = 0; i < sample; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return true;
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) || c === 0x7f) control++;
  }
  return sample > 0 && control / sample > BINARY_SHARE;
}

/** Offset of the first byte that makes `bytes` invalid UTF-8, or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = b & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

export function guardInput(source: string | Uint8Array, maxBytes: number): GuardOutcome {
  const decoded = decodeInput(source, maxBytes);
  return decoded.ok ? binaryCheck(decoded.value) : decoded;
}

/** The input refused as binary content, or the text: the guard's last check (see decodeInput). */
export function binaryCheck(text: string): GuardOutcome {
  return looksBinary(text) ? binaryContent() : { ok: true, value: text };
}

function binaryContent(): GuardOutcome {
  return refuse(Rule.BinaryContent, 'binary content — an AVAP source is UTF-8 text, this looks like a binary file');
}

/**
 * binaryCheck for a text whose control characters can only be in `ranges` (start and end offsets, in order): the
 * other lines were read by the plain reader, which takes no line with one. Counts what looksBinary counts, there.
 */
export function binaryCheckIn(text: string, ranges: readonly number[]): GuardOutcome {
  const sample = Math.min(text.length, BINARY_SAMPLE);
  let inSample = 0;
  for (let r = 0; r + 1 < ranges.length && (ranges[r] as number) < sample; r += 2)
    inSample += Math.min(ranges[r + 1] as number, sample) - (ranges[r] as number);
  // Past an eighth of the sample, the native search of the whole check costs less than counting here.
  if (inSample * 8 > sample) return binaryCheck(text);
  let control = 0;
  for (let r = 0; r + 1 < ranges.length; r += 2) {
    const end = Math.min(ranges[r + 1] as number, sample);
    for (let i = ranges[r] as number; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 0) return binaryContent();
      if ((c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) || c === 0x7f) control++;
    }
  }
  return sample > 0 && control / sample > BINARY_SHARE ? binaryContent() : { ok: true, value: text };
}

/**
 * A NUL in the first 64 KiB: binary content (looksBinary says so at once). One native search; validateAvap runs
 * the full check up front only then, and otherwise after the analysis where a plain program proved it needless.
 */
export function hasNulInSample(text: string): boolean {
  const at = text.indexOf('\0');
  return at !== -1 && at < BINARY_SAMPLE;
}

/**
 * Every check of guardInput but the binary content's: the size limit, valid UTF-8 bytes, no unpaired surrogate.
 * The text, or the entry that refuses it; binaryCheck is the rest.
 */
export function decodeInput(source: string | Uint8Array, maxBytes: number): GuardOutcome {
  let text: string;
  if (typeof source === 'string' && source.length * 3 <= maxBytes && isWellFormed?.call(source) === true) {
    // Within the limit whatever it holds (a UTF-16 unit is at most three UTF-8 bytes), and no unpaired surrogate.
    text = source;
  } else if (typeof source === 'string') {
    const counted = wellFormedUtf8Length(source);
    const { bytes, badSurrogateAt } =
      counted !== undefined ? { bytes: counted, badSurrogateAt: -1 } : utf8Length(source, maxBytes);
    if (bytes > maxBytes) return { ok: false, error: oversizeEntry(counted ?? utf8LengthFull(source), maxBytes) };
    if (badSurrogateAt >= 0) {
      const { line, column } = position(source, badSurrogateAt);
      return refuse(
        Rule.InvalidEncoding,
        'invalid text: an unpaired UTF-16 surrogate — the source is not valid Unicode',
        { token: '', line, column },
      );
    }
    text = source;
  } else {
    if (source.byteLength > maxBytes) return { ok: false, error: oversizeEntry(source.byteLength, maxBytes) };
    const bad = firstInvalidUtf8(source);
    if (bad >= 0) {
      const before = new TextDecoder('utf-8').decode(source.subarray(0, bad));
      const { line, column } = position(before, before.length);
      return refuse(Rule.InvalidEncoding, `invalid UTF-8 at byte ${bad} — AVAP sources are UTF-8 text`, {
        token: `0x${(source[bad] as number).toString(16).padStart(2, '0')}`,
        line,
        column,
      });
    }
    text = new TextDecoder('utf-8').decode(source);
  }
  return { ok: true, value: text };
}

function utf8LengthFull(text: string): number {
  return utf8Length(text, Number.MAX_SAFE_INTEGER).bytes;
}

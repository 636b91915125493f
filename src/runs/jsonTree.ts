/**
 * A JSON document read with the place of every value: where each case of a test file starts and ends, where the
 * `cases` list closes (a new case goes in before it). Strict JSON, as `JSON.parse` reads it; a document that is
 * not JSON answers the offset where reading stopped and why. Pure, no dependencies.
 */
import { err, ok, type Failure, type Result } from '../result';

export type JsonNode =
  | { kind: 'object'; start: number; end: number; members: JsonMember[] }
  | { kind: 'array'; start: number; end: number; items: JsonNode[] }
  | { kind: 'string'; start: number; end: number; value: string }
  | { kind: 'number' | 'literal'; start: number; end: number };

export interface JsonMember {
  key: string;
  keyStart: number;
  value: JsonNode;
}

export type JsonSyntaxError = Failure<'not-json'> & { offset: number };

class Reader {
  pos = 0;
  constructor(readonly text: string) {}

  blank(): void {
    while (this.pos < this.text.length && /[ \t\r\n]/.test(this.text[this.pos] as string)) this.pos++;
  }

  stop(why: string): never {
    throw Object.assign(new Error(why), { offset: this.pos });
  }

  expect(char: string): void {
    if (this.text[this.pos] !== char) this.stop(`expected '${char}'`);
    this.pos++;
  }

  value(depth: number): JsonNode {
    if (depth > 512) this.stop('nested too deeply');
    this.blank();
    const start = this.pos;
    const c = this.text[this.pos];
    if (c === '{') return this.object(start, depth);
    if (c === '[') return this.array(start, depth);
    if (c === '"') return { kind: 'string', start, value: this.string(), end: this.pos };
    const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.pos, this.pos + 64));
    if (number) {
      this.pos += number[0].length;
      return { kind: 'number', start, end: this.pos };
    }
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return { kind: 'literal', start, end: this.pos };
      }
    }
    return this.stop(c === undefined ? 'the text ends where a value was expected' : `unexpected '${c}'`);
  }

  string(): string {
    const start = this.pos;
    this.expect('"');
    for (;;) {
      const c = this.text[this.pos];
      if (c === undefined || c === '\n') this.stop('a string is not closed');
      if (c === '\\') this.pos += 2;
      else if (c === '"') break;
      else this.pos++;
    }
    this.pos++;
    try {
      return JSON.parse(this.text.slice(start, this.pos)) as string;
    } catch {
      this.pos = start;
      return this.stop('a string holds a bad escape');
    }
  }

  object(start: number, depth: number): JsonNode {
    this.pos++;
    const members: JsonMember[] = [];
    this.blank();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return { kind: 'object', start, end: this.pos, members };
    }
    for (;;) {
      this.blank();
      const keyStart = this.pos;
      if (this.text[this.pos] !== '"') this.stop('expected a key in quotes');
      const key = this.string();
      this.blank();
      this.expect(':');
      members.push({ key, keyStart, value: this.value(depth + 1) });
      this.blank();
      if (this.text[this.pos] === ',') {
        this.pos++;
        continue;
      }
      this.expect('}');
      return { kind: 'object', start, end: this.pos, members };
    }
  }

  array(start: number, depth: number): JsonNode {
    this.pos++;
    const items: JsonNode[] = [];
    this.blank();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return { kind: 'array', start, end: this.pos, items };
    }
    for (;;) {
      items.push(this.value(depth + 1));
      this.blank();
      if (this.text[this.pos] === ',') {
        this.pos++;
        continue;
      }
      this.expect(']');
      return { kind: 'array', start, end: this.pos, items };
    }
  }
}

/** The document's tree with offsets, or where and why it is not JSON. */
export function readJsonTree(text: string): Result<JsonNode, JsonSyntaxError> {
  const reader = new Reader(text);
  try {
    // A byte-order mark is allowed before the value, as editors may write one.
    if (text.charCodeAt(0) === 0xfeff) reader.pos = 1;
    const root = reader.value(0);
    reader.blank();
    if (reader.pos < text.length) reader.stop('text after the value');
    return ok(root);
  } catch (e) {
    const offset = (e as { offset?: number }).offset ?? 0;
    return err({ kind: 'not-json', message: `not JSON: ${(e as Error).message}`, offset });
  }
}

/** The member `key` of an object node. */
export function member(node: JsonNode | undefined, key: string): JsonMember | undefined {
  return node?.kind === 'object' ? node.members.find((m) => m.key === key) : undefined;
}

/** 0-based line and character of an offset. */
export function positionAt(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, character: end - lineStart };
}

/**
 * Command arguments. The source gives raw text (ruling 2); each argument is
 * read once per program into an ArgSpec:
 *  - `"…"` / `'…'`: the quotes are stripped and nothing else (the reference
 *    does not unescape), and the text then resolves like a bare word — so a
 *    quoted word that names a variable is that variable (observed; the
 *    specification is silent on quoting);
 *  - a bare number: an int, or a float when it has a `.` (as the reference reads it);
 *  - `` `…${name}…` ``: a template, filled when the command runs (specification);
 *  - `$name`: the top-level variable (documentation of functions);
 *  - empty: nothing (the specification keeps empty arguments in place).
 * When the command runs, a read argument is the variable it names if one is
 * set, else its number, else its text (specification, parameter kinds).
 */
import { int, PyFloat, type Value } from './values';

export interface ArgSpec {
  /** The raw text, trimmed. */
  readonly raw: string;
  /** The text after stripping quotes. */
  readonly text: string;
  readonly quoted: boolean;
  readonly empty: boolean;
  /** A bare numeric literal. */
  readonly number?: Value;
  /** A backtick template: the text between the backticks. */
  readonly template?: string;
  /** `$name`: the name. */
  readonly global?: string;
}

const INT_LITERAL = /^[+-]?\d(?:_?\d)*$/;
const FLOAT_LITERAL = /^[+-]?(?:\d(?:_?\d)*\.(?:\d(?:_?\d)*)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?$/;
const GLOBAL = /^\$([\p{L}_][\p{L}\p{N}_]*)$/u;

/** The number a bare argument stands for, as the reference's argument reader makes it (int, or float with a `.`). */
function bareNumber(text: string): Value | undefined {
  if (INT_LITERAL.test(text)) {
    const n = Number(text.replace(/_/g, ''));
    return Number.isSafeInteger(n) ? int(n) : undefined;
  }
  if (text.includes('.') && FLOAT_LITERAL.test(text)) return new PyFloat(Number(text.replace(/_/g, '')));
  return undefined;
}

export function argSpec(raw: string): ArgSpec {
  const text = raw.trim();
  if (text === '') return { raw: text, text, quoted: false, empty: true };
  const q = text[0];
  if (text.length >= 2 && (q === '"' || q === "'") && text[text.length - 1] === q) {
    return { raw: text, text: text.slice(1, -1), quoted: true, empty: false };
  }
  if (text.length >= 2 && q === '`' && text[text.length - 1] === '`') {
    return { raw: text, text, quoted: false, empty: false, template: text.slice(1, -1) };
  }
  const global = GLOBAL.exec(text);
  if (global) return { raw: text, text, quoted: false, empty: false, global: global[1] };
  const number = bareNumber(text);
  return number === undefined
    ? { raw: text, text, quoted: false, empty: false }
    : { raw: text, text, quoted: false, empty: false, number };
}

/** The `${…}` placeholders of a template's text, in order, with their positions. */
export interface TemplatePart {
  readonly literal: string;
  /** The trimmed name inside `${…}`, or undefined for the text after the last placeholder. */
  readonly name?: string;
}

export function templateParts(raw: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let from = 0;
  for (;;) {
    const open = raw.indexOf('${', from);
    const close = open === -1 ? -1 : raw.indexOf('}', open + 2);
    if (open === -1 || close === -1) {
      parts.push({ literal: raw.slice(from) });
      return parts;
    }
    parts.push({ literal: raw.slice(from, open), name: raw.slice(open + 2, close).trim() });
    from = close + 1;
  }
}

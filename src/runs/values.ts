/**
 * Values as the editor shows them: one short line at the end of a code line (`"adult"`, `[1, 2, 3, …]`,
 * `{id: 7, name: "Ana", …}`), and the whole value, indented, for a hover or the result view. Values are what a
 * run gives back (plain JSON values). Pure.
 */

/** Characters of a short value before it is cut with `…`. */
const SHORT_VALUE_CHARS = 60;
/** Characters of a whole value shown before it is cut (a hover is not a file viewer). */
const FULL_VALUE_CHARS = 20_000;

const KEY = /^[A-Za-z_$][\w$]*$/;

/**
 * Compact JSON with unquoted simple keys. `room` bounds the work, not the text: a list or object stops being
 * walked (`…`) once what is written exceeds it, so a 100,000-item list costs as little as a short one.
 */
function compact(value: unknown, room: number): string {
  if (Array.isArray(value)) {
    const parts: string[] = [];
    let used = 1;
    for (const item of value) {
      if (used > room) {
        parts.push('…');
        break;
      }
      const text = compact(item, room - used);
      parts.push(text);
      used += text.length + 2;
    }
    return `[${parts.join(', ')}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const parts: string[] = [];
    let used = 1;
    for (const [key, item] of Object.entries(value)) {
      if (used > room) {
        parts.push('…');
        break;
      }
      const name = KEY.test(key) ? key : JSON.stringify(key);
      const text = `${name}: ${compact(item, room - used - name.length - 2)}`;
      parts.push(text);
      used += text.length + 2;
    }
    return `{${parts.join(', ')}}`;
  }
  if (value === undefined) return 'undefined';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  // JSON.stringify answers undefined only for functions and symbols, which no run gives back.
  const text = JSON.stringify(value) ?? typeof value;
  // A long string is cut here already (it is cut again, to the exact width, by the caller).
  return text.length > room + 2 ? `${text.slice(0, Math.max(1, room + 1))}…` : text;
}

/** The value in one line of at most `max` characters (cut with `…`). */
export function shortValue(value: unknown, max = SHORT_VALUE_CHARS): string {
  const text = compact(value, max);
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`;
}

/** The whole value, indented JSON (cut after `max` characters, saying so). */
export function fullValue(value: unknown, max = FULL_VALUE_CHARS): string {
  const text =
    value === undefined
      ? 'undefined'
      : typeof value === 'number' && !Number.isFinite(value)
        ? String(value)
        : (JSON.stringify(value, null, 2) ?? typeof value);
  return text.length <= max ? text : `${text.slice(0, max)}\n… (${text.length - max} more characters)`;
}

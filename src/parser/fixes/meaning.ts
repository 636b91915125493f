/**
 * Invented names whose words say what they do, where no catalogue
 * name is near enough to suggest: `setStatus(404)`, `count = size(items)`,
 * `h = sha256Hex(pwd)`, `hashlib.sha256(pwd)`, `toString(n)`.
 * The name is split into its words (camelCase, snake_case, digits) and the
 * words must all belong to one meaning's vocabulary, with its key word among
 * them — so `getStatus`, `countWords` or `sizeInBytes` are not taken for one.
 * The call's shape must then say where each argument goes — one argument, its
 * result assigned or used in place; a statement `sha256Encode(a, b)` could
 * take its target first or last, so it gets no fix:
 *
 * - the HTTP status: `setStatus(N)` → `_status = N`;
 * - a length: `x = size(xs)` / `size(xs)` in an expression → `len(xs)` (len
 *   counts a list's items and a text's characters, as the invented names do);
 * - a digest: `h = sha256Hex(x)` → `encodeSHA256(x, h)`, `h = md5Of(x)` →
 *   `encodeMD5(x, h)` (both give the lower-case hex digest);
 * - a conversion: `toString(x)` / `String(x)` → `str(x)`, `parseFloat(x)` → `float(x)`.
 *
 * No meaning, no fix: a random id, a date "now" in an unknown format, a JSON
 * text — the LLM retry remains the way there.
 */
import { isIdentifier } from '../calls';
import { isOp, isPunct, TokenKind, type Token } from '../scanner';
import type { TraceEntry } from '../types';
import type { FixHint } from './candidates';
import { viewOf } from './view';
import { tokenAt, firstOf } from '../cursor';

/** The words of a name: `setHTTPStatus` → set, http, status; `sha256_hex` → sha256, hex. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/(sha|md)\s*(\d+)/gi, '$1$2')
    .split(/[\s_.]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
}

type Meaning = 'status' | 'length' | 'sha256' | 'md5' | 'str' | 'float';

/** The words around a digest's name in invented hashing commands (`getSha256Hex`, `md5_of_string`…). */
const DIGEST_WORDS = [
  'get',
  'hash',
  'hashlib',
  'compute',
  'calc',
  'calculate',
  'make',
  'encode',
  'digest',
  'hex',
  'hexdigest',
  'to',
  'of',
  'string',
  'str',
  'generate',
  'create',
];

const VOCABULARY: Record<Meaning, { key: readonly string[]; also: readonly string[] }> = {
  status: { key: ['status'], also: ['set', 'http', 'response', 'res', 'send', 'code', 'with', 'return'] },
  length: {
    key: ['length', 'len', 'size', 'count'],
    also: ['get', 'list', 'array', 'of', 'items', 'elements', 'num', 'number', 'str', 'string', 'text', 'total'],
  },
  sha256: {
    key: ['sha256'],
    also: DIGEST_WORDS,
  },
  md5: {
    key: ['md5'],
    also: DIGEST_WORDS,
  },
  str: { key: ['string', 'tostring'], also: ['to', 'as'] },
  float: { key: ['float'], also: ['parse', 'to', 'as'] },
};

/**
 * Any meaning's key word, in any letter case. meaningOf needs a key among a name's words, and each word is a piece
 * of the name lower-cased (no other character lower-cases to these letters and digits), so a line where this finds
 * nothing holds no call with a meaning: its tokens need not be read (every unknown name of a file can come here).
 */
const ANY_KEY = new RegExp(
  Object.values(VOCABULARY)
    .flatMap((v) => v.key)
    .join('|'),
  'i',
);

function meaningOf(name: string): Meaning | undefined {
  const words = wordsOf(name);
  if (words.length === 0) return undefined;
  for (const [meaning, v] of Object.entries(VOCABULARY) as [Meaning, (typeof VOCABULARY)[Meaning]][]) {
    if (!words.some((w) => v.key.includes(w))) continue;
    if (words.every((w) => v.key.includes(w) || v.also.includes(w))) return meaning;
  }
  return undefined;
}

/** The call at the entry: its name's tokens (a dotted name), the `(`, the plain arguments and the `)`. */
function callAt(t: readonly Token[], column: number, lineStart: number) {
  const at = t.findIndex((x) => x.start - lineStart + 1 === column);
  if (at === -1) return undefined;
  let i = at;
  while (isPunct(t[i + 1], '.') && t[i + 2]?.kind === TokenKind.Ident) i += 2;
  const open = i + 1;
  if (!isPunct(t[open], '(')) return undefined;
  const args: Token[] = [];
  let j = open + 1;
  for (; j < t.length && !isPunct(t[j], ')'); j++) {
    const x = tokenAt(t, j);
    if (isPunct(x, ',')) continue;
    if (x.kind !== TokenKind.Ident && x.kind !== TokenKind.Number && x.kind !== TokenKind.String) return undefined;
    if (isPunct(t[j + 1], '(') || isPunct(t[j + 1], '.') || isPunct(t[j + 1], '[')) return undefined;
    args.push(x);
  }
  if (!isPunct(t[j], ')')) return undefined;
  const name = t
    .slice(at, i + 1)
    .map((x) => x.text)
    .join('');
  return { first: at, name, args, close: j };
}

const target = (x: Token | undefined) =>
  x?.kind === TokenKind.Ident && isIdentifier(x.text) && !['None', 'True', 'False'].includes(x.text);

export function meaningFix(entry: TraceEntry): FixHint {
  const line = entry.line;
  const column = entry.column;
  return (ctx) => {
    const view = viewOf(ctx);
    if (!ANY_KEY.test(view.text(line))) return undefined;
    const t = view.tokens(line);
    const call = callAt(t, column, view.start(line));
    if (!call) return undefined;
    const meaning = meaningOf(call.name.replace(/^hashlib\./, 'hashlib '));
    if (!meaning) return undefined;
    const head = tokenAt(t, call.first);
    const closeTok = tokenAt(t, call.close);
    const whole = call.first === 0 && call.close === t.length - 1; // `name(…)` is the statement
    const assigned = call.first === 2 && target(t[0]) && isOp(t[1], '=') && call.close === t.length - 1; // `x = name(…)`
    const [a] = call.args;
    const replace = (start: number, text: string) => ({
      title: `Rewrite as '${text}'`,
      edits: [{ start, end: closeTok.end, newText: text }],
    });
    switch (meaning) {
      case 'status':
        return whole && call.args.length === 1 && a && (a.kind === TokenKind.Number || target(a))
          ? replace(head.start, `_status = ${a.text}`)
          : undefined;
      case 'length':
      case 'str':
      case 'float': {
        const fn = meaning === 'length' ? 'len' : meaning;
        if (call.args.length === 1 && a && !whole) return replace(head.start, `${fn}(${a.text})`);
        return undefined;
      }
      case 'sha256':
      case 'md5': {
        const command = meaning === 'sha256' ? 'encodeSHA256' : 'encodeMD5';
        if (assigned && call.args.length === 1 && a)
          return replace(firstOf(t).start, `${command}(${a.text}, ${firstOf(t).text})`);
        return undefined;
      }
    }
  };
}

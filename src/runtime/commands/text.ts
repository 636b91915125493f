/**
 * Hashing, random strings and regular expressions: encodeSHA256, encodeMD5,
 * randomString, replace, getRegex (command reference). Patterns are Python
 * regular expressions; the common syntax is the same in JavaScript, and the
 * Python-only spellings ((?P<name>…), (?P=name), \A, \Z, leading (?i)…) are
 * translated. What has no translation is refused.
 */
import { createHash } from 'node:crypto';
import { toInt } from '../expressions/evaluate';
import { RunFailure } from '../failure';
import { pyStr } from '../pytext';
import { command, type CallContext } from './types';

function hash(algorithm: 'sha256' | 'md5', c: CallContext): void {
  const text = pyStr(c.read(0));
  c.set(c.targetName(1), createHash(algorithm).update(text, 'utf8').digest('hex'));
}

export const encodeSHA256 = command({
  name: 'encodeSHA256',
  arity: [2, 2],
  target: 1,
  inReference: false,
  run: (c) => hash('sha256', c),
});

export const encodeMD5 = command({
  name: 'encodeMD5',
  arity: [2, 2],
  target: 1,
  inReference: false,
  run: (c) => hash('md5', c),
});

const regexCache = new Map<string, RegExp>();

/** A Python pattern as a JavaScript RegExp (global); a regex-error when it does not compile. */
function pythonRegex(pattern: string): RegExp {
  const hit = regexCache.get(pattern);
  if (hit) {
    hit.lastIndex = 0;
    return hit;
  }
  let source = pattern;
  let flags = 'g';
  const inline = /^\(\?([aiLmsux]+)\)/.exec(source);
  if (inline) {
    for (const f of inline[1] as string) {
      if (f === 'i' || f === 'm' || f === 's') flags += f;
      else if (f !== 'u' && f !== 'a')
        throw RunFailure.unsupported(`the regular expression flag (?${f})`, 'no JavaScript equivalent');
    }
    source = source.slice(inline[0].length);
  }
  if (/\(\?[aiLmsux-]+[:)]/.test(source))
    throw RunFailure.unsupported('inline flags inside a pattern', 'no JavaScript equivalent');
  if (/\(\?\(/.test(source))
    throw RunFailure.unsupported('a conditional group in a pattern', 'no JavaScript equivalent');
  source = source
    .replace(/\(\?P<([A-Za-z_]\w*)>/g, '(?<$1>')
    .replace(/\(\?P=([A-Za-z_]\w*)\)/g, '\\k<$1>')
    .replace(/\\A/g, '^')
    .replace(/\\Z/g, '$');
  let re: RegExp;
  try {
    re = new RegExp(source, flags);
  } catch (e) {
    throw RunFailure.of(
      'regex-error',
      `invalid regular expression ${JSON.stringify(pattern)}: ${(e as Error).message}`,
    );
  }
  if (regexCache.size > 500) regexCache.clear();
  regexCache.set(pattern, re);
  return re;
}

/** The specification: "Pattern spaces are treated as \s". */
function patternOf(c: CallContext, i: number): string {
  if (c.isEmpty(i)) throw RunFailure.of('argument-error', `${c.name} needs a pattern`);
  return pyStr(c.read(i)).replace(/ /g, '\\s');
}

/** Python's replacement template: \1, \g<1>, \g<name>, \n, \\ (a `$` is plain text). */
function expandReplacement(
  template: string,
  match: RegExpExecArray | string[],
  groups?: Record<string, string>,
): string {
  return template.replace(
    /\\(g<([^>]+)>|(\d{1,2})|n|t|r|\\|.)/g,
    (_all, what: string, named?: string, num?: string) => {
      if (named !== undefined) {
        if (/^\d+$/.test(named)) return match[Number(named)] ?? '';
        if (!groups || !(named in groups)) throw RunFailure.of('regex-error', `unknown group name '${named}'`);
        return groups[named] ?? '';
      }
      if (num !== undefined) {
        const n = Number(num);
        if (n >= match.length) throw RunFailure.of('regex-error', `invalid group reference ${n}`);
        return match[n] ?? '';
      }
      switch (what) {
        case 'n':
          return '\n';
        case 't':
          return '\t';
        case 'r':
          return '\r';
        case '\\':
          return '\\';
        default:
          return `\\${what}`;
      }
    },
  );
}

export const replace = command({
  name: 'replace',
  arity: [4, 4],
  target: 3,
  inReference: false,
  run(c) {
    const text = pyStr(c.read(0));
    const re = pythonRegex(patternOf(c, 1));
    const replacement = c.isEmpty(2) ? '' : pyStr(c.read(2));
    const out = text.replace(re, (...m: unknown[]) => {
      const last = m[m.length - 1];
      const groups = last !== null && typeof last === 'object' ? (last as Record<string, string>) : undefined;
      const count = m.length - (groups ? 3 : 2);
      const match = m.slice(0, count).map((x) => (typeof x === 'string' ? x : ''));
      return expandReplacement(replacement, match, groups);
    });
    c.set(c.targetName(3), out);
  },
});

export const getRegex = command({
  name: 'getRegex',
  arity: [3, 3],
  target: 2,
  inReference: false,
  run(c) {
    const text = pyStr(c.read(0));
    const re = pythonRegex(patternOf(c, 1));
    const groups = new RegExp(`${re.source}|`).exec('')?.length ?? 1;
    if (groups > 1) {
      throw RunFailure.unsupported(
        'getRegex with a capturing group',
        'the command reference does not say whether a match is the whole match or the group; use (?:…)',
      );
    }
    const matches = text.match(re) ?? [];
    if (matches.length > 1) {
      throw RunFailure.unsupported(
        `getRegex with ${matches.length} matches`,
        'the command reference says the matches are joined but not with what; make the pattern match once',
      );
    }
    c.set(c.targetName(2), matches.length === 0 ? null : (matches[0] as string));
  },
});

const PRINTABLE: readonly string[] = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));

export const randomString = command({
  name: 'randomString',
  arity: [2, 3],
  target: 2,
  inReference: false,
  run(c) {
    if (c.args.length === 2) {
      throw RunFailure.unsupported(
        'randomString(length, target)',
        'the two-argument form is documented without its alphabet; write randomString([A-Za-z0-9], length, target)',
      );
    }
    if (c.isEmpty(0)) throw RunFailure.of('argument-error', 'randomString needs a pattern');
    const pattern = pyStr(c.read(0));
    const re = pythonRegex(pattern);
    const one = new RegExp(`^(?:${re.source})$`, re.flags.replace('g', ''));
    const alphabet = PRINTABLE.filter((ch) => one.test(ch));
    if (alphabet.length === 0) {
      throw RunFailure.of('value-error', `randomString: no printable character matches ${JSON.stringify(pattern)}`);
    }
    const n = toInt(c.read(1));
    if (n < 0) throw RunFailure.of('value-error', 'randomString: the length cannot be negative');
    if (n > 1_000_000) throw RunFailure.unsupported(`a random string of ${n} characters`, 'memory');
    let out = '';
    for (let i = 0; i < n; i++) {
      const r = c.ports.random.next();
      out += alphabet[Math.min(alphabet.length - 1, Math.floor(r * alphabet.length))] as string;
    }
    c.set(c.targetName(2), out);
  },
});

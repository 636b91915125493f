/**
 * A light, lexical look at AVAP code for metadata: which catalogue commands it
 * calls and which constructs it uses. It is not a validator (that is
 * src/parser); it only has to be right on code the parser accepts.
 */
import { COMMANDS } from '../parser/catalogue';
import { AVAP_CONSTRUCTS, type AvapConstruct } from './types';

const COMMAND_NAMES: ReadonlySet<string> = new Set(COMMANDS.map((c) => c.name));

export function isCatalogueCommand(name: string): boolean {
  return COMMAND_NAMES.has(name);
}

export interface StrippedCode {
  /** Comments blanked out (same length, newlines kept); strings intact. */
  withoutComments: string;
  /** Comments and string/template contents blanked out; the quotes themselves kept. */
  codeOnly: string;
  hasComment: boolean;
}

/** Blanks comments (`//`, `///`, `/* *\/`) and, in `codeOnly`, string contents. */
export function stripAvap(code: string): StrippedCode {
  const noComments: string[] = [];
  const codeOnly: string[] = [];
  let hasComment = false;
  let i = 0;
  const blank = (ch: string): string => (ch === '\n' ? '\n' : ' ');
  while (i < code.length) {
    const ch = code[i] as string;
    const next = code[i + 1];
    if (ch === '/' && next === '/') {
      hasComment = true;
      while (i < code.length && code[i] !== '\n') {
        noComments.push(' ');
        codeOnly.push(' ');
        i++;
      }
      continue;
    }
    if (ch === '/' && next === '*') {
      hasComment = true;
      const close = code.indexOf('*/', i + 2);
      const stop = close === -1 ? code.length : close + 2;
      for (; i < stop; i++) {
        const c = code[i] as string;
        noComments.push(blank(c));
        codeOnly.push(blank(c));
      }
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') {
      noComments.push(ch);
      codeOnly.push(ch);
      i++;
      while (i < code.length && code[i] !== ch && code[i] !== '\n') {
        const c = code[i] as string;
        if (c === '\\' && i + 1 < code.length && code[i + 1] !== '\n') {
          noComments.push(c, code[i + 1] as string);
          codeOnly.push(' ', ' ');
          i += 2;
          continue;
        }
        noComments.push(c);
        codeOnly.push(' ');
        i++;
      }
      if (i < code.length && code[i] === ch) {
        noComments.push(ch);
        codeOnly.push(ch);
        i++;
      }
      continue;
    }
    noComments.push(ch);
    codeOnly.push(ch);
    i++;
  }
  return { withoutComments: noComments.join(''), codeOnly: codeOnly.join(''), hasComment };
}

/** Catalogue commands called in the code (`name(` not preceded by `.`), first call first. */
export function detectCommands(code: string): string[] {
  const { codeOnly } = stripAvap(code);
  const found: string[] = [];
  const callRe = /(^|[^\w.$])([A-Za-z_][A-Za-z0-9_]*)\s*\(/g;
  for (let m = callRe.exec(codeOnly); m !== null; m = callRe.exec(codeOnly)) {
    const name = m[2] as string;
    if (COMMAND_NAMES.has(name) && !found.includes(name)) found.push(name);
  }
  return found;
}

export const CONSTRUCT_ORDER: readonly AvapConstruct[] = AVAP_CONSTRUCTS;

/** The constructs the code uses, in a fixed order. */
export function detectConstructs(code: string): AvapConstruct[] {
  const { withoutComments, codeOnly, hasComment } = stripAvap(code);
  const present = new Set<AvapConstruct>();
  const lines = withoutComments.split('\n');
  const codeLines = codeOnly.split('\n');
  lines.forEach((line, index) => {
    const bare = codeLines[index] ?? '';
    const trimmed = line.trim();
    if (/^if\s*\(\s*None\s*,\s*None\s*,/.test(trimmed)) present.add('if-expression');
    else if (/^if\s*\(/.test(trimmed)) present.add('if');
    if (/^else\s*\(\s*\)/.test(trimmed)) present.add('else');
    if (/^startLoop\s*\(/.test(trimmed)) present.add('loop');
    if (/^try\s*\(\s*\)/.test(trimmed)) present.add('try');
    if (/^go_async\s*\(/.test(trimmed)) present.add('async');
    if (/^function\s+[A-Za-z_]\w*\s*\(/.test(trimmed)) present.add('function');
    if (/^return\b/.test(trimmed)) present.add('return');
    if (/^_status\s*=(?!=)/.test(trimmed)) present.add('status');
    else if (/^[A-Za-z_]\w*\s*=(?!=)/.test(trimmed)) present.add('assignment');
    if (line.includes('`')) present.add('template');
    if (/\$[A-Za-z_]/.test(bare)) present.add('global-ref');
    if (/[A-Za-z_]\w*(\[[^\]]*\])?\.[A-Za-z_]\w*\s*\(/.test(bare)) present.add('connector-method');
    if (/\(\s*,|,\s*,|,\s*\)/.test(bare)) present.add('empty-argument');
  });
  if (hasComment) present.add('comment');
  return CONSTRUCT_ORDER.filter((c) => present.has(c));
}

/**
 * Statement-level repairs: a `;` terminator, a typed or `let` declaration, an import line, `x += v`,
 * a top-level `return`, an argument computed on the line before, one call per name, swapped addVar arguments.
 */
import { isIdentifier } from '../calls';
import { TokenKind, isOp, isPunct, type Token } from '../scanner';
import {
  deleteLine,
  indentAt,
  lineEndOf,
  lineStartOf,
  nextLineStart,
  quote,
  type Candidate,
  type FixHint,
} from './candidates';
import { tokenAt, firstOf, lastOf } from '../cursor';

/** `;` at the end of a statement: delete it; between two statements: a line break instead. */
export function terminatorFix(src: string, tokens: readonly Token[], i: number, lineStart: number): FixHint {
  const semi = tokenAt(tokens, i);
  const prev = tokens[i - 1];
  const next = tokens[i + 1];
  if (!next) {
    const from = prev && src.slice(prev.end, semi.start).trim() === '' ? prev.end : semi.start;
    return { title: "Delete ';'", edits: [{ start: from, end: semi.end, newText: '' }] };
  }
  return (ctx) => ({
    title: 'Put each statement on its own line',
    edits: [{ start: semi.start, end: next.start, newText: `${ctx.eol}${indentAt(src, lineStart)}` }],
  });
}

/** `let x = v` (also var, const) → `x = v`. */
export function declarationFix(t: readonly Token[]): Candidate | undefined {
  const [keyword, name, op] = t;
  if (!keyword || name?.kind !== TokenKind.Ident || !(isOp(op, '=') || isOp(op, ':='))) return undefined;
  return { title: `Remove '${keyword.text}'`, edits: [{ start: keyword.start, end: name.start, newText: '' }] };
}

/** A Go `package` line or an import line (a Go `import (` … `)` block whole): removed. */
export function removeLineFix(src: string, t: readonly Token[]): FixHint {
  const keyword = firstOf(t);
  if (!isPunct(t[t.length - 1], '(') || keyword.text !== 'import') {
    return { title: `Remove the '${keyword.text}' line`, edits: [deleteLine(src, keyword.start)] };
  }
  return () => {
    let pos = nextLineStart(src, keyword.start);
    for (let n = 0; n < 200 && pos < src.length; n++) {
      const end = lineEndOf(src, pos);
      if (src.slice(pos, end).trim() === ')') {
        const last = deleteLine(src, pos);
        return {
          title: "Remove the 'import' block",
          edits: [{ start: lineStartOf(src, keyword.start), end: last.end, newText: '' }],
        };
      }
      pos = nextLineStart(src, pos);
    }
    return undefined;
  };
}

/** `x += v` → `x = x + v`; `i++` → `i = i + 1`. */
export function compoundAssignmentFix(src: string, t: readonly Token[]): Candidate | undefined {
  const [target, op] = t;
  if (!target || !op) return undefined;
  const last = lastOf(t);
  let text: string;
  if (op.text === '++' || op.text === '--') {
    if (t.length !== 2) return undefined;
    text = `${target.text} = ${target.text} ${op.text[0]} 1`;
  } else {
    const value = t[2];
    if (!value) return undefined;
    const raw = src.slice(value.start, last.end);
    text = `${target.text} = ${target.text} ${op.text[0]} ${t.length > 3 ? `(${raw})` : raw}`;
  }
  return { title: `Rewrite as ${quote(text)}`, edits: [{ start: target.start, end: last.end, newText: text }] };
}

/** A top-level, unindented `return x` / `return(x)` of a plain name → `addResult(x)`. */
export function topLevelReturnFix(t: readonly Token[], lineStart: number): Candidate | undefined {
  const ret = firstOf(t);
  if (ret.start !== lineStart) return undefined;
  const name = isPunct(t[1], '(') && isPunct(t[3], ')') && t.length === 4 ? t[2] : t.length === 2 ? t[1] : undefined;
  if (
    name?.kind !== TokenKind.Ident ||
    !isIdentifier(name.text) ||
    ['None', 'True', 'False', 'true', 'false'].includes(name.text)
  )
    return undefined;
  const text = `addResult(${name.text})`;
  const last = lastOf(t);
  return { title: `Rewrite as '${text}'`, edits: [{ start: ret.start, end: last.end, newText: text }] };
}

/** What hoistFix computes on the line before. */
interface Hoist {
  /** Names to try for the fresh variable, in order. */
  names: readonly string[];
  /** The line, given the variable's name. */
  before: (name: string) => string;
  /** The variable's name when the argument already gives it (no fresh one). */
  given?: string;
}

/**
 * An argument AVAP does not evaluate in place (an expression where a number is
 * expected, `str(x)` passed as text, a command nested in another): computed on
 * the line before, into a fresh variable (or the nested command's own target),
 * which the argument then names. `before` is what goes on that line, given the
 * variable's name.
 */
export function hoistFix(lineStart: number, arg: { start: number; end: number }, hoist: Hoist): FixHint {
  const { names, before, given } = hoist;
  return (ctx) => {
    const name = given ?? ctx.fresh(...names);
    const line = before(name);
    return {
      title: `Compute it first: ${quote(line)}`,
      edits: [
        { start: lineStart, end: lineStart, newText: `${indentAt(ctx.src, lineStart)}${line}${ctx.eol}` },
        { start: arg.start, end: arg.end, newText: name },
      ],
    };
  };
}

/** `addResult(a, b)` for a command that reads one variable: one call per name, each on its own line. */
export function oneCallPerName(call: {
  command: string;
  /** The command's name and the call's closing parenthesis: the span rewritten. */
  name: Token;
  close: Token;
  args: readonly string[];
  lineStart: number;
}): FixHint | undefined {
  const { command, name, close, args, lineStart } = call;
  if (args.length < 2 || !args.every(isIdentifier)) return undefined;
  return (ctx) => {
    const separator = `${ctx.eol}${indentAt(ctx.src, lineStart)}`;
    return {
      title: `One call per variable: ${args.map((a) => `'${command}(${a})'`).join(', ')}`,
      edits: [{ start: name.start, end: close.end, newText: args.map((a) => `${command}(${a})`).join(separator) }],
    };
  };
}

/** `addVar(1, total)`: the value came first; AVAP takes the target first. */
export function swappedArgumentsFix(
  src: string,
  first: { start: number; end: number },
  second: { start: number; end: number },
): Candidate {
  const a = src.slice(first.start, first.end);
  const b = src.slice(second.start, second.end);
  return {
    title: `Swap to 'addVar(${b}, ${a})'`,
    edits: [{ start: first.start, end: second.end, newText: `${b}, ${a}` }],
  };
}

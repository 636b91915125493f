/**
 * Findings about the characters of a line: what the scanner flagged (an unterminated string, a control
 * character, `#`, typographic quotes) and `${…}` placeholders of template strings.
 */
import { Rule } from '../catalogue/rules';
import type { LexicalProblem, Token } from '../scanner';
import { abbreviate } from '../wording';
import type { AnalysisContext } from './context';

export function lexical(ctx: AnalysisContext, problem: LexicalProblem, start: number, end: number): void {
  switch (problem) {
    case 'unterminated-string':
      ctx.report({
        rule: Rule.UnterminatedString,
        start,
        end,
        message: 'unterminated string — close it with the same quote on this line',
        token: ctx.src.slice(start, end),
      });
      return;
    case 'control-character': {
      const code = ctx.src.charCodeAt(start).toString(16).toUpperCase().padStart(4, '0');
      ctx.report({
        rule: Rule.ControlCharacter,
        start,
        end,
        message: `stray control character U+${code} — binary data is not AVAP source`,
        token: `\\u${code}`,
      });
      return;
    }
    case 'hash-comment':
      ctx.report({
        rule: Rule.HashComment,
        start,
        end,
        message: "'#' is not an AVAP comment — use //",
        token: '#',
        suggestion: '//',
      });
      return;
    case 'unterminated-block-comment':
      return; // reported in finish(), where its opening line is known
    case 'typographic-quote':
      typographicQuote(ctx, start, end);
      return;
  }
}

/** “…” or ‘…’ used as string quotes: straightened to "…" or '…' (the other ASCII quote when the text holds one). */
function typographicQuote(ctx: AnalysisContext, start: number, end: number): void {
  const text = ctx.src.slice(start, end);
  const inner = text.slice(1, -1);
  const double = text.charCodeAt(0) >= 0x201c;
  const preferred = double ? '"' : "'";
  const other = double ? "'" : '"';
  const quote = !inner.includes(preferred) ? preferred : !inner.includes(other) ? other : undefined;
  const straight = quote === undefined ? undefined : `${quote}${inner}${quote}`;
  const advice = straight === undefined ? 'use " or \' quotes' : `straighten them: ${straight}`;
  ctx.report({
    rule: Rule.TypographicQuote,
    start,
    end,
    message: `typographic quotes in ${abbreviate(text, 40)} are not AVAP string quotes — the runtime keeps them as part of the text; ${advice}`,
    token: text,
    suggestion: straight,
    hint:
      straight === undefined
        ? undefined
        : { title: `Straighten the quotes: ${abbreviate(straight, 40)}`, edits: [{ start, end, newText: straight }] },
  });
}

/**
 * The template [start, end) of `src` (backticks included) has only placeholders checkTemplate finds nothing in,
 * read in place: each `${` closed in it by a `}` around an ASCII name or dotted path, with spaces or tabs around it.
 * False says nothing: checkTemplate decides (it reads anything else, and reports).
 */
export function plainTemplate(src: string, start: number, end: number): boolean {
  let from = start + 1;
  for (;;) {
    const open = src.indexOf('${', from);
    if (open === -1 || open >= end) return true;
    let p = open + 2;
    while (p < end && isBlank(src.charCodeAt(p))) p++;
    // name ('.' name)*, each name a letter or `_` then letters, digits and `_`
    for (;;) {
      if (p >= end || !isNameStart(src.charCodeAt(p))) return false;
      p++;
      while (p < end && isNamePart(src.charCodeAt(p))) p++;
      if (p >= end || src.charCodeAt(p) !== 46) break;
      p++;
    }
    while (p < end && isBlank(src.charCodeAt(p))) p++;
    if (p >= end || src.charCodeAt(p) !== 125) return false;
    from = p + 1;
  }
}

const isBlank = (c: number) => c === 32 || c === 9;
const isNameStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
const isNamePart = (c: number) => isNameStart(c) || (c >= 48 && c <= 57);

export function checkTemplate(ctx: AnalysisContext, token: Token): void {
  const text = token.text;
  let from = 1;
  for (;;) {
    const open = text.indexOf('${', from);
    if (open === -1) return;
    const close = text.indexOf('}', open + 2);
    if (close === -1) {
      ctx.report({
        rule: Rule.UnclosedPlaceholder,
        start: token.start + open,
        end: token.end,
        message: "unclosed '${' in template string — write ${name}",
        token: text.slice(open),
      });
      return;
    }
    const inner = text.slice(open + 2, close).trim();
    if (!/^[\p{L}_][\p{L}\p{N}_]*(\.[\p{L}_][\p{L}\p{N}_]*)*$/u.test(inner)) {
      ctx.report({
        rule: Rule.PlaceholderNotAName,
        start: token.start + open,
        end: token.start + close + 1,
        message: `template placeholder '${abbreviate(text.slice(open, close + 1), 40)}' should name a variable: \${name}`,
        token: text.slice(open, close + 1),
      });
    }
    from = close + 1;
  }
}

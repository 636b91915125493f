/**
 * Checks expressions: the right side of `x = …`, `return …`, and the quoted
 * condition of `if(None, None, "…")`. The grammar is the Python-like subset the
 * AVAP documentation uses (and/or/not, comparisons, in, arithmetic, `a if c
 * else b`, indexing, attributes, calls, list/dict literals, $globals).
 *
 * Foreign tokens (&&, ===, =>, null, .includes(…), console.log, …) are reported
 * as `foreign_keyword`; a structural error is reported once per expression.
 * Recursion is bounded by MAX_EXPRESSION_DEPTH, so deep nesting is an error
 * entry, never a stack overflow.
 */
import {
  findForeignCall,
  findForeignMethod,
  findForeignOperator,
  findForeignStatement,
  findForeignWord,
} from './catalogue';
import { isOp, isPunct, isWord, TokenKind, type Token } from './scanner';
import { Rule, type RuleDefinition } from './catalogue/rules';
import type { FixHint } from './fixes/candidates';
import type { OffsetFinding } from './reporter';
import { formatStringFix, lengthFix, pushFix, removeWordFix } from './fixes/expressions';
import { negationRepair } from './fixes/negation';
import { MAX_EXPRESSION_DEPTH } from './types';
import { tokenAt, TokenCursor } from './cursor';
import { isBinaryOperator, isReserved, readExpression } from './expressionShortcut';

/** What the expression checker needs from the statement analysis. */
export interface ExpressionHost {
  /** Reports a finding at offsets of the line. */
  report(finding: OffsetFinding): void;
  /** A call `name(…)` of a bare name inside an expression, resolved later. */
  noteCall(nameToken: Token, argCount: number): void;
  /** Checks ${…} placeholders of a template token. */
  checkTemplate(token: Token): void;
}

/** Reports `t` when it is another language's operator (`===`, `&&`, `+=` …); true when it was one. */
export function reportForeignOperator(host: Pick<ExpressionHost, 'report'>, t: Token, hint?: FixHint): boolean {
  const op = findForeignOperator(t.text);
  if (!op) return false;
  host.report({
    rule: Rule.ForeignOperator,
    start: t.start,
    end: t.end,
    message: `foreign operator '${t.text}' (${op.language}) — ${op.hint}`,
    token: t.text,
    suggestion: op.suggestion,
    hint,
  });
  return true;
}

/** Other languages' statement keywords that are reported inside an expression too (`await x`, `lambda: …`). */
export const FOREIGN_STATEMENT_WORDS: ReadonlySet<string> = new Set(['await', 'lambda', 'async']);

/** Foreign words that prefix an operand (`await x`, `new X()`, `typeof x`). */
const PREFIX_FOREIGN_WORDS = new Set(['await', 'new', 'typeof']);

/**
 * Reports the foreign tokens of tokens[from, to) and returns the set of their
 * start offsets, so the structural check does not report them a second time.
 */
export function reportForeignTokens(
  tokens: readonly Token[],
  from: number,
  to: number,
  host: ExpressionHost,
): ReadonlySet<number> {
  // Made on the first report: most expressions have nothing foreign.
  let reported: Set<number> | undefined;
  for (let i = from; i < to; i++) {
    const t = tokens[i];
    if (t === undefined) break;
    if (t.kind === TokenKind.Op) {
      if (t.text === '!') {
        // `not` binds more loosely than `!`: the word swap is the repair only where nothing binds tighter after it.
        const repair = negationRepair(tokens, i, to);
        const apart = repair.operand === undefined ? '' : ` — keep the operand apart: (not ${repair.operand})`;
        host.report({
          rule: Rule.ForeignOperator,
          start: t.start,
          end: t.end,
          message: `foreign operator '!' (JavaScript) — use not${apart}`,
          token: '!',
          suggestion: repair.suggestion,
          hint: repair.hint,
        });
        (reported ??= new Set()).add(t.start);
        continue;
      }
      if (reportForeignOperator(host, t)) (reported ??= new Set()).add(t.start);
      continue;
    }
    if (t.kind !== TokenKind.Ident) continue;
    const prev = tokens[i - 1];
    const afterDot = prev !== undefined && isPunct(prev, '.');
    if (afterDot) {
      const next = tokens[i + 1];
      const method = findForeignMethod(t.text);
      if (method && (isPunct(next, '(') || t.text === 'length')) {
        const owner = tokens[i - 2];
        const dotted = owner && owner.kind === TokenKind.Ident ? `${owner.text}.${t.text}` : `.${t.text}`;
        if (!findForeignCall(dotted)) {
          const plainOwner = owner?.kind === TokenKind.Ident && !isPunct(tokens[i - 3], '.') ? owner : undefined;
          let hint: FixHint | undefined;
          if (plainOwner && t.text === 'length' && !isPunct(next, '(')) hint = lengthFix(plainOwner, t);
          else if (plainOwner && (t.text === 'push' || t.text === 'append') && i - 2 === from)
            hint = pushFix(tokens, i, to);
          host.report({
            rule: Rule.ForeignMethod,
            start: prev.start,
            end: t.end,
            message: `foreign method '.${t.text}' (${method.language}) — ${method.hint}`,
            token: `.${t.text}`,
            hint,
          });
          (reported ??= new Set()).add(t.start);
        }
      }
      continue;
    }
    // Dotted foreign calls such as console.log( and fmt.Println(
    const dottedEnd = dottedNameEnd(tokens, i, to);
    if (dottedEnd > i + 1 && isPunct(tokens[dottedEnd], '(')) {
      const text = tokens
        .slice(i, dottedEnd)
        .map((x) => x.text)
        .join('');
      const call = findForeignCall(text);
      if (call) {
        const last = tokenAt(tokens, dottedEnd - 1);
        host.report({
          rule: Rule.ForeignCall,
          start: t.start,
          end: last.end,
          message: `foreign call '${text}' (${call.language}) — ${call.hint}`,
          token: text,
        });
        for (let k = i; k < dottedEnd; k++) (reported ??= new Set()).add(tokenAt(tokens, k).start);
        i = dottedEnd - 1;
        continue;
      }
    }
    const word = findForeignWord(t.text);
    if (word) {
      const fix = word.suggestion ? ` — use ${word.suggestion}` : ' — not an AVAP expression keyword';
      host.report({
        rule: Rule.ForeignKeyword,
        start: t.start,
        end: t.end,
        message: `foreign keyword '${t.text}' (${word.language})${fix}`,
        token: t.text,
        suggestion: word.suggestion,
      });
      (reported ??= new Set()).add(t.start);
      continue;
    }
    const statement = findForeignStatement(t.text);
    if (statement && FOREIGN_STATEMENT_WORDS.has(t.text)) {
      host.report({
        rule: Rule.ForeignKeyword,
        start: t.start,
        end: t.end,
        message: `foreign keyword '${t.text}' (${statement.language}) — ${statement.hint}`,
        token: t.text,
        hint: t.text === 'await' && i + 1 < to ? removeWordFix(t, tokens[i + 1]) : undefined,
      });
      (reported ??= new Set()).add(t.start);
    }
  }
  return reported ?? NOTHING_REPORTED;
}

const NOTHING_REPORTED: ReadonlySet<number> = new Set();

/** End index (exclusive) of a dotted name `a.b.c` starting at i. */
function dottedNameEnd(tokens: readonly Token[], i: number, to: number): number {
  let j = i + 1;
  while (j + 1 < to && isPunct(tokens[j], '.') && tokens[j + 1]?.kind === TokenKind.Ident) j += 2;
  return j;
}

/**
 * Checks tokens[from, to) as one expression. Returns true when it is well formed
 * (foreign tokens reported through the host count as failures too).
 */
export function checkExpression(tokens: readonly Token[], from: number, to: number, host: ExpressionHost): boolean {
  const reported = reportForeignTokens(tokens, from, to, host);
  const calls = reported.size === 0 ? readExpression(tokens, from, to) : undefined;
  if (calls !== undefined) {
    // Well formed: what the descent would do is ask the host these calls, in this order (neither call reads
    // another expression, so `calls` holds while they run).
    for (let k = 0; k < calls.length; k += 2) {
      const t = tokens[calls[k] as number];
      const argCount = calls[k + 1] as number;
      if (t === undefined) continue; // an index of tokens[from, to)
      if (argCount < 0) host.checkTemplate(t);
      else host.noteCall(t, argCount);
    }
    return true;
  }
  return descend(tokens, from, to, { host, alreadyReported: reported });
}

/**
 * The recursive descent over tokens[from, to), without the foreign tokens' pass and the flat shortcut.
 * @internal exported so a test can hold readExpression to it
 */
export function descend(tokens: readonly Token[], from: number, to: number, check: ExpressionCheck): boolean {
  return new ExpressionParser(tokens, from, to, check).run();
}

/** What an expression's check needs besides its tokens: where findings go and which tokens were reported already. */
export interface ExpressionCheck {
  host: ExpressionHost;
  alreadyReported: ReadonlySet<number>;
}

class ExpressionParser extends TokenCursor {
  private depth = 0;
  private failed = false;
  private readonly host: ExpressionHost;
  private readonly alreadyReported: ReadonlySet<number>;

  constructor(tokens: readonly Token[], from: number, to: number, check: ExpressionCheck) {
    super(tokens, from, to);
    this.host = check.host;
    this.alreadyReported = check.alreadyReported;
  }

  run(): boolean {
    if (this.pos >= this.to) {
      this.failAtEnd('expected an expression');
      return false;
    }
    this.expression();
    if (!this.failed && this.pos < this.to) {
      const t = tokenAt(this.tokens, this.pos);
      this.fail(
        t,
        `unexpected '${t.text}' in expression`,
        Rule.InvalidExpression,
        formatStringFix(this.tokens[this.pos - 1], t),
      );
    }
    return !this.failed;
  }

  private fail(t: Token, message: string, rule: RuleDefinition = Rule.InvalidExpression, hint?: FixHint): void {
    if (this.failed) return;
    this.failed = true;
    if (this.alreadyReported.has(t.start)) return;
    if (t.kind === TokenKind.Other) {
      this.host.report({
        rule: Rule.StrayCharacter,
        start: t.start,
        end: t.end,
        message: `stray character '${t.text}'`,
        token: t.text,
      });
      return;
    }
    this.host.report({ rule, start: t.start, end: t.end, message, token: t.text, hint });
  }

  private failAtEnd(message: string): void {
    if (this.failed) return;
    const last = this.tokens[Math.min(this.to, this.tokens.length) - 1];
    const at = last ? last.end : 0;
    this.failed = true;
    this.host.report({ rule: Rule.InvalidExpression, start: at, end: at + 1, message, token: last ? last.text : '' });
  }

  private enter(): boolean {
    if (this.failed) return false;
    this.depth++;
    if (this.depth > MAX_EXPRESSION_DEPTH) {
      const t = this.atEnd ? tokenAt(this.tokens, this.to - 1) : this.peek();
      this.fail(t, `expression nested too deeply (more than ${MAX_EXPRESSION_DEPTH} levels)`, Rule.ExpressionTooDeep);
      return false;
    }
    return true;
  }

  private leave(): void {
    this.depth--;
  }

  private expression(): void {
    if (!this.enter()) return;
    this.orExpr();
    if (isWord(this.peek(), 'if')) {
      this.pos++;
      this.orExpr();
      if (!this.failed) {
        if (isWord(this.peek(), 'else')) {
          this.pos++;
          this.expression();
        } else if (!this.atEnd) {
          const t = this.peek();
          this.fail(t, `expected 'else' in conditional expression, found '${t.text}'`);
        } else {
          this.failAtEnd("expected 'else' to complete 'a if condition else b'");
        }
      }
    }
    this.leave();
  }

  /**
   * `or` and `and` chains of notExpr operands. One loop for both: the grammar's two levels (or over and) accept
   * the same tokens in the same order, and a checker that builds no tree has nothing else to tell them apart by.
   */
  private orExpr(): void {
    this.notExpr();
    for (;;) {
      if (this.failed) return;
      const t = this.peek();
      if (t.kind !== TokenKind.Ident || (t.text !== 'or' && t.text !== 'and')) return;
      this.pos++;
      this.notExpr();
    }
  }

  private notExpr(): void {
    if (!this.enter()) return;
    if (isWord(this.peek(), 'not')) {
      this.pos++;
      this.notExpr();
    } else {
      this.comparison();
    }
    this.leave();
  }

  /**
   * Unary operands joined by comparisons (`==`, `in`, `not in`, `is`, `is not`) and arithmetic (`+ - * / % **`):
   * one loop for the three levels of the grammar, which accept the same tokens in the same order.
   */
  private comparison(): void {
    this.unary();
    for (;;) {
      if (this.failed) return;
      const t = this.peek();
      if (t.kind === TokenKind.Op) {
        if (!isBinaryOperator(t.text)) return;
        this.pos++;
      } else if (t.kind === TokenKind.Ident) {
        const word = t.text;
        if (word === 'in') this.pos++;
        else if (word === 'not' && isWord(this.peek(1), 'in')) this.pos += 2;
        else if (word === 'is') {
          this.pos++;
          if (isWord(this.peek(), 'not')) this.pos++;
        } else return;
      } else return;
      this.unary();
    }
  }

  private unary(): void {
    if (!this.enter()) return;
    if (isOp(this.peek(), '-') || isOp(this.peek(), '+')) {
      this.pos++;
      this.unary();
    } else {
      this.postfix();
    }
    this.leave();
  }

  private postfix(): void {
    const first = this.peek();
    const bareName = first.kind === TokenKind.Ident && !isReserved(first.text);
    this.primary();
    let calledBare = false;
    while (!this.failed) {
      const t = this.peek();
      if (isPunct(t, '(')) {
        const argCount = this.sequence(')');
        if (bareName && !calledBare) this.host.noteCall(first, argCount);
        calledBare = true;
      } else if (isPunct(t, '[')) {
        this.pos++;
        this.subscript();
      } else if (isPunct(t, '.')) {
        this.pos++;
        const name = this.peek();
        if (name.kind !== TokenKind.Ident) {
          if (!this.atEnd) this.fail(name, `expected a name after '.', found '${name.text}'`);
          else this.failAtEnd("expected a name after '.'");
          return;
        }
        this.pos++;
        calledBare = true;
      } else {
        return;
      }
    }
  }

  private subscript(): void {
    // [index] or [start:end]
    if (!isPunct(this.peek(), ':')) this.expression();
    if (!this.failed && isPunct(this.peek(), ':')) {
      this.pos++;
      if (!isPunct(this.peek(), ']')) this.expression();
    }
    this.expectClose(']');
  }

  /** Parses `( a, b, … )` or `[ … ]`; returns the number of elements. */
  private sequence(close: string): number {
    if (!this.enter()) return 0;
    this.pos++; // the opener
    let count = 0;
    while (!this.failed && !isPunct(this.peek(), close)) {
      if (this.atEnd) break;
      this.expression();
      count++;
      if (isPunct(this.peek(), ',')) {
        this.pos++;
        continue;
      }
      break;
    }
    this.expectClose(close);
    this.leave();
    return count;
  }

  private dictionary(): void {
    if (!this.enter()) return;
    this.pos++; // {
    while (!this.failed && !isPunct(this.peek(), '}')) {
      if (this.atEnd) break;
      this.expression();
      if (this.failed) break;
      if (!isPunct(this.peek(), ':')) {
        const t = this.peek();
        if (!this.atEnd) this.fail(t, `expected ':' between a dictionary key and its value, found '${t.text}'`);
        else this.failAtEnd("expected ':' in dictionary literal");
        break;
      }
      this.pos++;
      this.expression();
      if (isPunct(this.peek(), ',')) {
        this.pos++;
        continue;
      }
      break;
    }
    this.expectClose('}');
    this.leave();
  }

  private expectClose(close: string): void {
    if (this.failed) return;
    const t = this.peek();
    if (isPunct(t, close)) {
      this.pos++;
      return;
    }
    if (!this.atEnd) this.fail(t, `expected '${close}', found '${t.text}'`);
    else this.failAtEnd(`missing '${close}'`);
  }

  private primary(): void {
    if (this.failed) return;
    const t = this.peek();
    if (this.atEnd) {
      this.failAtEnd('expression ends too early');
      return;
    }
    switch (t.kind) {
      case TokenKind.Number:
      case TokenKind.String:
        this.pos++;
        return;
      case TokenKind.Template:
        this.host.checkTemplate(t);
        this.pos++;
        return;
      case TokenKind.Global:
        this.pos++;
        return;
      case TokenKind.Ident:
        if (
          this.alreadyReported.size > 0 &&
          PREFIX_FOREIGN_WORDS.has(t.text) &&
          this.alreadyReported.has(t.start) &&
          this.pos + 1 < this.to
        ) {
          // `await fetch(url)`, `new Date()`: already reported; check what follows.
          this.pos++;
          this.postfix();
          return;
        }
        if (isReserved(t.text)) {
          this.fail(t, `unexpected keyword '${t.text}' in expression`);
          return;
        }
        this.pos++;
        return;
      case TokenKind.Punct:
        if (t.text === '(') {
          this.sequence(')');
          return;
        }
        if (t.text === '[') {
          this.sequence(']');
          return;
        }
        if (t.text === '{') {
          this.dictionary();
          return;
        }
        this.fail(t, `unexpected '${t.text}' in expression`);
        return;
      default:
        this.fail(t, `unexpected '${t.text}' in expression`);
    }
  }
}

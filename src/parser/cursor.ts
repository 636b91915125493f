/**
 * Reading a line's tokens without `undefined`: past the last token (or before
 * the first) is the end-of-line token, an empty token of its own kind right
 * after the line's last token. It is no word, punctuation or operator, so a
 * check such as `isPunct(tokenAt(t, i), '(')` is simply false there, and a
 * position taken from it stays on the line.
 */
import { TokenKind, type Token } from './scanner';

/** The end-of-line token after the first `count` of `tokens`: empty, where the last of them ends (0 for none). */
function endOfLine(tokens: readonly Token[], count = tokens.length): Token {
  const end = tokens[count - 1]?.end ?? 0;
  return { kind: TokenKind.EndOfLine, start: end, end, text: '' };
}

/** The token at `index`, or the end-of-line token when there is none. */
export function tokenAt(tokens: readonly Token[], index: number): Token {
  return tokens[index] ?? endOfLine(tokens);
}

/** The first token, or the end-of-line token of an empty line. */
export function firstOf(tokens: readonly Token[]): Token {
  return tokens[0] ?? endOfLine(tokens);
}

/** The last token, or the end-of-line token of an empty line. */
export function lastOf(tokens: readonly Token[]): Token {
  return tokens[tokens.length - 1] ?? endOfLine(tokens);
}

/** The last item of a list, if any. */
export function last<T>(items: readonly T[]): T | undefined {
  return items[items.length - 1];
}

/**
 * Reads tokens[from, to) in order: `peek` answers the token at the read
 * position (or `offset` after it), and the end-of-line token once past `to`.
 */
export class TokenCursor {
  protected pos: number;
  /** Where reading stops: `to`, or the end of the tokens if that comes first. */
  private readonly stop: number;
  /** What `peek` answers past `stop`. */
  private readonly end: Token;

  constructor(
    protected readonly tokens: readonly Token[],
    from: number,
    protected readonly to: number,
  ) {
    this.pos = from;
    this.stop = Math.min(to, tokens.length);
    this.end = endOfLine(tokens, this.stop);
  }

  /** Every token of the range has been read. */
  protected get atEnd(): boolean {
    return this.pos >= this.stop;
  }

  protected peek(offset = 0): Token {
    const i = this.pos + offset;
    return (i < this.stop ? this.tokens[i] : undefined) ?? this.end;
  }
}

/**
 * Code written without a fence: the lines a reader sees as a program in the
 * answer's text. Pure.
 *
 * Each line outside Markdown's code blocks is one of:
 * - `code`: a line the mode recognises as code (`loose`: it starts like a
 *   call, an assignment, a comment, a brace; `strict`: it is wholly code);
 * - `prose`: plainly a sentence (it ends like one, or opens with a
 *   capitalised word and goes on in words), or Markdown structure — a
 *   heading, a list item, a quote, a table row, a rule;
 * - `blank`;
 * - `other`: anything else — `while n > 0:`, `foreach item in items`,
 *   `end foreach`, `let out = hashed` — which a reader takes for code when
 *   it stands among code.
 *
 * A run of code, other and blank lines (a structure line sandwiched between
 * two code-looking lines included, as `# hash it` between two calls) is a
 * program when it holds a code line (in `strict` mode: a statement). Its
 * every line is validated — the parser, not this module, decides whether
 * `while n > 0:` is AVAP. Prose lines end a run.
 */

export type BareMode = 'loose' | 'strict';
type LineClass = 'code' | 'prose' | 'markup' | 'blank' | 'other';

const CODE_LINE = [
  /^[A-Za-z_$][\w.$]*\s*\(.*\)?\s*;?\s*(\{\s*)?(\/\/.*)?$/, // call, or function header
  /^[A-Za-z_$][\w.$]*(\[[^\]]*\])?\s*=\s*\S.*$/, // assignment
  /^(\/\/|\/\*|\*\/|\*\s|\*$)/, // comment lines
  /^[{}]\s*;?$/, // braces
  /^(return|function)\b.*$/,
];

export function isCodeLine(line: string): boolean {
  const text = line.trim();
  if (!text) return false;
  return CODE_LINE.some((re) => re.test(text));
}

/** Index just past the parenthesis that closes the one at `open` (strings respected); -1 if unbalanced. */
function closingParen(line: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let i = open; i < line.length; i += 1) {
    const c = line[i];
    if (quote) {
      if (c === '\\') i += 1;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth += 1;
    else if (c === ')' && --depth === 0) return i + 1;
  }
  return -1;
}

/**
 * A line that is code and nothing else: a whole call (nothing but `{`, `;` or
 * a comment after its closing parenthesis), an assignment, a comment, a brace.
 * Stricter than `isCodeLine`, so prose that starts with a command name
 * ("addParam(name, target) reads the parameter…") is not taken for code.
 * @internal
 */
export function isWholeCodeLine(line: string): boolean {
  const text = line.trim();
  if (!text) return false;
  const call = /^[A-Za-z_$][\w.$]*\s*\(/.exec(text);
  if (call) {
    const end = closingParen(text, call[0].length - 1);
    return end > 0 && /^\s*;?\s*(\{\s*)?(\/\/.*)?$/.test(text.slice(end));
  }
  return CODE_LINE.slice(1).some((re) => re.test(text));
}

/** A statement (a call or an assignment, not a comment, brace, `return` or header alone): what makes a run a program. */
const isStatement = (line: string) =>
  /^\s*[A-Za-z_$][\w.$]*\s*(\(|(\[[^\]]*\])?\s*=)/.test(line) && !/^\s*(return|function)\b/.test(line);

const COMMENT = /^\s*(\/\/|\/\*)/;
const MARKUP = [
  /^\s{0,3}#{1,6}(\s|$)/, // heading
  /^\s*([-*+]|\d{1,9}[.)])\s+\S/, // list item
  /^\s*>/, // quote
  /^\s*\|/, // table row
  /^\s{0,3}([-*_])(\s*\1){2,}\s*$/, // thematic break
  /^\s{0,3}(=+|-+)\s*$/, // setext underline
  /^\s*(\*\*|__|`|!?\[)/, // emphasis, inline code or a link opening a line of text
  /^\s*[\u2190-\u2bff\ud83c-\ud83e]/, // an arrow, a symbol or an emoji
];
/** Words in a line: runs of non-spaces (counted, not split, on the hot path). */
const words = (text: string) => text.match(/\S+/g)?.length ?? 0;
const PLAIN_WORDS = /^[\p{L}\p{N}\s,'’-]+$/u;
const CAPITALISED = /^\p{Lu}[\p{Ll}'’]*[,:.!?]?(\s|$)/u;

/** Words that open a statement in some programming language: a line of plain words led by one is code-like. */
const KEYWORDS = new Set(
  (
    'for foreach each while do loop repeat until if else elif elsif elseif end endif endfor endwhile endforeach then ' +
    'let var const val def fn func function return print echo import from include require switch case default try ' +
    'catch except finally raise throw begin dim set select goto break continue pass yield await async and or not'
  ).split(' '),
);

/**
 * Plainly a sentence: it ends like one with a few words; or it opens with a
 * capitalised word and goes on in words, without operators; or it is four
 * plain words or more that no keyword leads.
 */
function isProseLine(line: string): boolean {
  const text = line.trim();
  const count = words(text);
  if (count >= 3 && /[.!?]$/.test(text)) return true;
  if (count >= 4 && PLAIN_WORDS.test(text) && !KEYWORDS.has(text.slice(0, text.search(/\s/)).toLowerCase()))
    return true;
  // A capitalised opening, then words — but not operators or braces, which sentences do not hold (`While n > 0:`).
  if (!CAPITALISED.test(text) || /[=<>{}]/.test(text)) return false;
  return count >= 3 || /[.:!?]$/.test(text);
}

function classify(line: string, mode: BareMode): LineClass {
  const text = line.trim();
  if (!text) return 'blank';
  if (COMMENT.test(line)) return 'code';
  if (/[.!?]$/.test(text) && words(text) >= 3) return 'prose';
  if (mode === 'strict' ? isWholeCodeLine(line) : isCodeLine(line)) return 'code';
  if (MARKUP.some((re) => re.test(line))) return 'markup';
  if (isProseLine(line)) return 'prose';
  return 'other';
}

export interface BareBlock {
  /** 1-based line of the response of the first line. */
  startLine: number;
  lines: string[];
}

/**
 * The programs written without a fence among `lines` (the response's lines);
 * `skip` holds the 1-based lines that belong to Markdown's code blocks.
 */
export function bareBlocks(
  lines: readonly string[],
  mode: BareMode,
  skip: ReadonlySet<number> = new Set(),
): BareBlock[] {
  const classes = lines.map((line, i) => (skip.has(i + 1) ? 'skip' : classify(line, mode)));
  const codeLike = (c: LineClass | 'skip' | undefined) => c === 'code' || c === 'other';
  // A structure line with code-looking lines right above and below is part of the program (a `# comment` among calls).
  const joined = classes.map((c, i) =>
    c === 'markup' && codeLike(classes[i - 1]) && codeLike(classes[i + 1]) ? 'other' : c,
  );
  const out: BareBlock[] = [];
  let run: number[] = [];
  const flush = () => {
    const kept = run.filter((i) => joined[i] !== 'blank');
    const first = kept[0];
    const last = kept[kept.length - 1];
    const program =
      first !== undefined &&
      last !== undefined &&
      kept.some((i) => joined[i] === 'code' && (mode === 'loose' || isStatement(lines[i] ?? '')));
    if (program) out.push({ startLine: first + 1, lines: lines.slice(first, last + 1) });
    run = [];
  };
  joined.forEach((c, i) => {
    if (c === 'code' || c === 'other' || c === 'blank') run.push(i);
    else flush();
  });
  flush();
  return out;
}

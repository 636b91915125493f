/**
 * AVAP syntax highlighting for the chat view, driven by the extension's own
 * TextMate grammar (syntaxes/avap.tmLanguage.json): the same rules that colour
 * an .avap editor, interpreted here for the subset of TextMate the grammar uses
 * (`match` with `name`/`captures`, `begin`/`end` with nested `patterns`,
 * `include` of the repository). Each token becomes a span whose class names
 * its scope family (`tok-keyword`, `tok-string`, …); the webview's stylesheet
 * colours those classes with the theme's colours. Text is always escaped. Pure.
 */
import grammarJson from '../../../syntaxes/avap.tmLanguage.json';
import { escapeHtml } from '../../html';

interface RawCapture {
  name?: string;
}
interface RawRule {
  include?: string;
  name?: string;
  match?: string;
  begin?: string;
  end?: string;
  captures?: Record<string, RawCapture>;
  beginCaptures?: Record<string, RawCapture>;
  endCaptures?: Record<string, RawCapture>;
  patterns?: RawRule[];
}
export interface RawGrammar {
  patterns: RawRule[];
  repository?: Record<string, RawRule>;
}

type Rule =
  | { kind: 'match'; re: RegExp; name?: string; captures?: Record<string, RawCapture> }
  | {
      kind: 'block';
      begin: RegExp;
      end: string;
      name?: string;
      beginCaptures?: Record<string, RawCapture>;
      endCaptures?: Record<string, RawCapture>;
      patterns: Rule[];
    };

/** The scope families the chat colours, most specific first (the innermost scope with a family wins). */
const FAMILIES: [prefix: string, cls: string][] = [
  ['comment', 'tok-comment'],
  ['constant.character.escape', 'tok-escape'],
  ['punctuation.definition.template-expression', 'tok-punctuation'],
  ['string', 'tok-string'],
  ['constant.numeric', 'tok-number'],
  ['constant.language', 'tok-constant'],
  ['keyword.operator', 'tok-operator'],
  ['keyword', 'tok-keyword'],
  ['storage', 'tok-keyword'],
  ['support.function', 'tok-builtin'],
  ['entity.name.function', 'tok-function'],
  ['variable', 'tok-variable'],
];

function scopeClass(scope: string): string | undefined {
  return FAMILIES.find(([prefix]) => scope === prefix || scope.startsWith(`${prefix}.`))?.[1];
}

function compile(grammar: RawGrammar): Rule[] {
  const cache = new Map<RawRule, Rule[]>();
  const resolving = new Set<RawRule>();
  const rules = (list: RawRule[] | undefined): Rule[] => (list ?? []).flatMap(one);
  function one(raw: RawRule): Rule[] {
    const cached = cache.get(raw);
    if (cached) return cached;
    if (resolving.has(raw)) return [];
    resolving.add(raw);
    let out: Rule[];
    if (raw.include) {
      const target = raw.include.startsWith('#') ? grammar.repository?.[raw.include.slice(1)] : undefined;
      out = target ? one(target) : [];
    } else if (raw.match) {
      out = [
        {
          kind: 'match',
          re: new RegExp(raw.match, 'g'),
          ...(raw.name ? { name: raw.name } : {}),
          ...(raw.captures ? { captures: raw.captures } : {}),
        },
      ];
    } else if (raw.begin && raw.end) {
      const block: Rule = {
        kind: 'block',
        begin: new RegExp(raw.begin, 'g'),
        end: raw.end,
        patterns: [],
        ...(raw.name ? { name: raw.name } : {}),
        ...(raw.beginCaptures ? { beginCaptures: raw.beginCaptures } : {}),
        ...(raw.endCaptures ? { endCaptures: raw.endCaptures } : {}),
      };
      out = [block];
      cache.set(raw, out);
      block.patterns = rules(raw.patterns);
    } else {
      out = rules(raw.patterns);
    }
    resolving.delete(raw);
    cache.set(raw, out);
    return out;
  }
  return rules(grammar.patterns);
}

export interface Token {
  text: string;
  scopes: string[];
}

interface Frame {
  rule: Extract<Rule, { kind: 'block' }>;
  end: RegExp;
}

/** The first match at or after `from`. */
function exec(re: RegExp, line: string, from: number): RegExpExecArray | null {
  re.lastIndex = from;
  return re.exec(line);
}

/** @internal */
export class Highlighter {
  private readonly root: Rule[];

  constructor(grammar: RawGrammar) {
    this.root = compile(grammar);
  }

  /** Tokens of the whole source, line by line (a block comment may span lines). */
  tokenize(source: string): Token[][] {
    const stack: Frame[] = [];
    return source.split('\n').map((line) => this.tokenizeLine(line, stack));
  }

  private tokenizeLine(line: string, stack: Frame[]): Token[] {
    const tokens: Token[] = [];
    const scopes = () => stack.map((f) => f.rule.name).filter((n): n is string => Boolean(n));
    const push = (text: string, extra: (string | undefined)[] = []) => {
      if (!text) return;
      tokens.push({ text, scopes: [...scopes(), ...extra.filter((n): n is string => Boolean(n))] });
    };
    const withCaptures = (match: RegExpExecArray, captures: Record<string, RawCapture> | undefined, name?: string) => {
      const whole = captures?.['0']?.name;
      const groups = Object.keys(captures ?? {})
        .filter((k) => k !== '0')
        .map(Number)
        .sort((a, b) => a - b);
      if (!groups.length) {
        push(match[0], [name, whole]);
        return;
      }
      // Captured groups appear in order in this grammar; text between them keeps the rule's scope.
      let at = 0;
      const text = match[0];
      for (const group of groups) {
        const part = match[group];
        if (part === undefined) continue;
        const index = text.indexOf(part, at);
        if (index < 0) continue;
        push(text.slice(at, index), [name, whole]);
        push(part, [name, whole, captures?.[String(group)]?.name]);
        at = index + part.length;
      }
      push(text.slice(at), [name, whole]);
    };
    let pos = 0;
    while (pos <= line.length) {
      const frame = stack[stack.length - 1];
      const candidates = frame ? frame.rule.patterns : this.root;
      let best: { index: number; rule?: Rule; match: RegExpExecArray } | undefined;
      if (frame) {
        const m = exec(frame.end, line, pos);
        if (m) best = { index: m.index, match: m };
      }
      for (const rule of candidates) {
        const m = exec(rule.kind === 'match' ? rule.re : rule.begin, line, pos);
        if (m && (!best || m.index < best.index)) best = { index: m.index, rule, match: m };
      }
      if (!best || (best.match[0] === '' && !best.rule)) {
        push(line.slice(pos));
        break;
      }
      push(line.slice(pos, best.index));
      const { match, rule } = best;
      if (!rule) {
        // The open block ends here (its closing text still carries the block's scope).
        withCaptures(match, frame?.rule.endCaptures);
        stack.pop();
      } else if (rule.kind === 'match') {
        withCaptures(match, rule.captures, rule.name);
      } else {
        stack.push({ rule, end: new RegExp(rule.end, 'g') });
        withCaptures(match, rule.beginCaptures);
      }
      const next = match.index + match[0].length;
      if (next === pos && match[0] === '') {
        push(line.slice(pos, pos + 1));
        pos += 1;
      } else {
        pos = next;
      }
      if (pos >= line.length) break;
    }
    return tokens;
  }

  /** The source as HTML: escaped text in spans classed by scope family. */
  html(source: string): string {
    return this.tokenize(source)
      .map((line) => {
        // Neighbouring tokens of one colour make one span.
        const runs: { cls: string | undefined; text: string }[] = [];
        for (const token of line) {
          const cls = [...token.scopes].reverse().map(scopeClass).find(Boolean);
          const last = runs[runs.length - 1];
          if (last && last.cls === cls) last.text += token.text;
          else runs.push({ cls, text: token.text });
        }
        return runs
          .map(({ cls, text }) => (cls ? `<span class="${cls}">${escapeHtml(text)}</span>` : escapeHtml(text)))
          .join('');
      })
      .join('\n');
  }
}

let avap: Highlighter | undefined;

/** AVAP source as highlighted, escaped HTML (the grammar the editor uses). */
export function highlightAvap(source: string): string {
  avap ??= new Highlighter(grammarJson);
  return avap.html(source);
}

/**
 * Token colours of a colour theme for the AVAP grammar's scopes: reading a
 * theme file and choosing, per colour class of the chat (highlight.ts), the
 * foreground of the most specific matching `tokenColors` rule. Pure.
 */

/** A representative scope of the AVAP grammar per colour class (see highlight.ts). */
const CLASS_SCOPES: Record<string, string> = {
  'tok-comment': 'comment.line.double-slash.avap',
  'tok-keyword': 'keyword.control.avap',
  'tok-builtin': 'support.function.builtin.avap',
  'tok-function': 'entity.name.function.avap',
  'tok-string': 'string.quoted.double.avap',
  'tok-escape': 'constant.character.escape.avap',
  'tok-number': 'constant.numeric.avap',
  'tok-constant': 'constant.language.avap',
  'tok-variable': 'variable.other.global.avap',
  'tok-operator': 'keyword.operator.avap',
};

export interface TokenColorRule {
  scope?: string | string[];
  settings?: { foreground?: string };
}

/** Theme files are JSON with comments and trailing commas. Pure. */
export function parseJsonc(text: string): unknown {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i += 1;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2);
      if (i < 0) break;
      i += 1;
    } else {
      out += c;
    }
  }
  return JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
}

/**
 * The foreground of the most specific rule whose selector matches `scope`
 * (a selector `a.b` matches `a.b` and `a.b.c…`; the longer selector wins, a
 * later rule wins a tie; selectors with a parent scope are skipped). Pure.
 * @internal
 */
export function colorFor(scope: string, rules: readonly TokenColorRule[]): string | undefined {
  let best: { depth: number; color: string } | undefined;
  for (const rule of rules) {
    const color = rule.settings?.foreground;
    if (!color) continue;
    const selectors = (Array.isArray(rule.scope) ? rule.scope : (rule.scope ?? '').split(','))
      .map((s) => s.trim())
      .filter(Boolean);
    for (const selector of selectors) {
      if (selector.includes(' ')) continue;
      if (scope !== selector && !scope.startsWith(`${selector}.`)) continue;
      const depth = selector.split('.').length;
      if (!best || depth >= best.depth) best = { depth, color };
    }
  }
  return best?.color;
}

/** The colour per class for these rules (classes without a matching rule are left out). Pure. */
export function classColors(rules: readonly TokenColorRule[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [cls, scope] of Object.entries(CLASS_SCOPES)) {
    const color = colorFor(scope, rules);
    if (color && /^#[0-9a-f]{3,8}$/i.test(color)) out[cls] = color;
  }
  return out;
}

/**
 * Hover: a command's signature, parameters and documentation from the
 * catalogue; a user function's signature and where it is defined; a
 * variable's assignments — and, on a one-word argument, whether it is the
 * variable or the text itself there (the runtime's rule, ./symbols.ts).
 */
import { hoverMarkdown } from './commandDocs';
import type { AvapDocument } from './document';
import type { Occurrence } from './symbols';
import type { Position, Range } from './text';
import { wordAt } from './words';

export interface HoverResult {
  readonly markdown: string;
  readonly range: Range;
}

const lineList = (lines: readonly number[]) => {
  const unique = [...new Set(lines.map((l) => l + 1))];
  return `line${unique.length === 1 ? '' : 's'} ${unique.join(', ')}`;
};

function symbolMarkdown(doc: AvapDocument, o: Occurrence): string | undefined {
  if (o.symbol === 'function') {
    const fn = doc.symbols.functions.get(o.name);
    if (!fn) return undefined;
    return `    function ${fn.name}(${fn.params.map((p) => p.text).join(', ')})\n\nUser function, defined on line ${fn.line + 1}.`;
  }
  const defs = doc.symbols.definitions.get(o.name) ?? [];
  const assigned = defs.length > 0 ? `assigned on ${lineList(defs.map((d) => d.line))}` : 'never assigned';
  const head = `**${o.name}** — variable, ${assigned}`;
  if (o.how !== 'word') return head;
  switch (o.role) {
    case 'reference':
      return `${head}\n\nHere ${o.quoted ? `"${o.name}"` : o.name} is the variable's value${o.quoted ? ' (quotes are stripped before a command sees an argument)' : ''}.`;
    case 'text':
      return `**${o.name}** — text here: no variable '${o.name}' is assigned before this line, so ${o.command ?? 'the command'} gets the word itself.${defs.length > 0 ? ` (A variable '${o.name}' is ${assigned}.)` : ''}`;
    case 'either':
      return `${head}\n\nHere: the text '${o.name}' on the loop's first pass, the variable's value on the next ones.`;
    default:
      return head;
  }
}

export function hover(doc: AvapDocument, p: Position): HoverResult | undefined {
  const word = wordAt(doc.lines, p);
  if (!word) return undefined;
  const offset = doc.offsetAt(p);
  const o = doc.symbols.at(offset);
  if (o && (o.symbol === 'function' || o.role !== 'text' || o.how === 'word')) {
    const markdown = symbolMarkdown(doc, o);
    if (markdown) return { markdown, range: doc.rangeOf(o) };
  }
  const markdown = hoverMarkdown(word.text);
  return markdown ? { markdown, range: word.range } : undefined;
}

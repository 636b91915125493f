/**
 * Inlay hints: what an argument is, written where it stands.
 *
 * - Parameter names before positional arguments (`url:`), behind the setting
 *   `avap.inlayHints.parameterNames` (off by default), left out where the
 *   argument already says it (`addResult(sourceVariable)`).
 * - AVAP's trap, always: a one-word argument — bare, or quoted, since quotes
 *   are stripped before a command sees it — is resolved at run time. After it,
 *   `: variable` says it names a variable assigned earlier (its value is used,
 *   not the word), `: text` that a bare word names no variable set at that
 *   point (the command gets the word itself), and `: text, then variable` that
 *   the loop around it assigns the variable later. The same rules as the
 *   symbol index (./symbols.ts), which follows the runtime's semantics.
 */
import { findCommand, signaturesOf, type ParamSpec } from '../parser/catalogue';
import type { CallStatement } from '../syntax';
import type { AvapDocument } from './document';
import type { Occurrence } from './symbols';
import type { Position, Range } from './text';
import { argumentWord } from './words';

export interface InlayHintSpec {
  readonly position: Position;
  readonly label: string;
  readonly kind: 'parameter' | 'resolution';
  readonly tooltip: string;
  readonly paddingLeft?: boolean;
  readonly paddingRight?: boolean;
}

export interface InlayHintOptions {
  /** Parameter names before positional arguments (`avap.inlayHints.parameterNames`). */
  readonly parameterNames: boolean;
}

/** The names of the parameters of what `s` calls (a user function or a catalogue command), with each one's tooltip. */
function calledParameters(
  doc: AvapDocument,
  s: CallStatement,
): { names: readonly string[]; tooltip: (i: number) => string } | undefined {
  const fn = doc.symbols.functions.get(s.name.text);
  if (fn) return { names: fn.params.map((p) => p.text), tooltip: () => `parameter of ${fn.name}` };
  const spec = findCommand(s.name.text);
  if (!spec) return undefined;
  const all = signaturesOf(spec);
  const params: readonly ParamSpec[] = all.find((ps) => ps.length === s.args.length) ?? all[0] ?? [];
  return {
    names: params.map((p) => p.name),
    tooltip: (i) => `${spec.name}'s parameter ${params[i]?.name ?? ''} (${params[i]?.kind ?? ''})`,
  };
}

function parameterNames(doc: AvapDocument, s: CallStatement, out: InlayHintSpec[]): void {
  const called = calledParameters(doc, s);
  if (!called) return;
  for (let i = 0; i < s.args.length; i++) {
    const arg = s.args[i] as CallStatement['args'][number];
    const name = called.names[i];
    if (name === undefined || arg.text === '') continue;
    const word = argumentWord(arg.text, arg.span.start);
    if (word && word.word.toLowerCase() === name.toLowerCase()) continue;
    out.push({
      position: doc.lines.positionAt(arg.span.start),
      label: `${name}:`,
      kind: 'parameter',
      tooltip: called.tooltip(i),
      paddingRight: true,
    });
  }
}

function firstDefinitionLine(doc: AvapDocument, name: string): number | undefined {
  return doc.symbols.definitions.get(name)?.[0]?.line;
}

/** The trap hint for a one-word argument, or undefined when it needs none. */
function resolutionHint(doc: AvapDocument, o: Occurrence): InlayHintSpec | undefined {
  if (o.how !== 'word' || o.symbol !== 'variable' || !o.param) return undefined;
  const kind = o.param.kind;
  if (kind === 'target' || kind === 'comparator') return undefined;
  const end = doc.lines.positionAt(o.quoted ? o.end + 1 : o.end);
  const shown = o.quoted ? `"${o.name}"` : o.name;
  if (o.role === 'reference') {
    // A parameter that reads a variable is expected to name one: only a value that does is the trap.
    if (kind === 'name') return undefined;
    const defs = doc.symbols.definitions.get(o.name) ?? [];
    let before = defs[0];
    for (let i = defs.length - 1; i >= 0; i--)
      if ((defs[i] as Occurrence).start < o.start) {
        before = defs[i];
        break;
      }
    return {
      position: end,
      label: ': variable',
      kind: 'resolution',
      tooltip:
        `${shown} is the value of the variable '${o.name}'` +
        (before ? ` (assigned on line ${before.line + 1})` : '') +
        `, not the text '${o.name}'` +
        (o.quoted
          ? ' — quotes are stripped before a command sees an argument, so a quoted word names a variable too'
          : ''),
      paddingLeft: false,
    };
  }
  if (o.role === 'either') {
    const later = firstDefinitionLine(doc, o.name);
    return {
      position: end,
      label: ': text, then variable',
      kind: 'resolution',
      tooltip: `on the loop's first pass ${shown} is the text '${o.name}'; the loop assigns the variable '${o.name}'${later !== undefined ? ` (line ${later + 1})` : ''}, so on the next passes it is that variable's value`,
    };
  }
  // A bare word that names no variable set here: the command gets the word itself. A quoted one reads as text anyway.
  if (o.quoted) return undefined;
  const later = firstDefinitionLine(doc, o.name);
  return {
    position: end,
    label: ': text',
    kind: 'resolution',
    tooltip:
      `no variable '${o.name}' is assigned before this line, so ${o.command ?? 'the command'} gets the text '${o.name}'` +
      (later !== undefined ? ` (the variable is assigned later, on line ${later + 1})` : ''),
  };
}

export function inlayHints(doc: AvapDocument, range: Range, options: InlayHintOptions): InlayHintSpec[] {
  const out: InlayHintSpec[] = [];
  const first = Math.max(0, range.start.line);
  const last = Math.min(doc.tree.statements.length - 1, range.end.line);
  if (options.parameterNames) {
    for (let line = first; line <= last; line++) {
      const s = doc.tree.statements[line];
      if (s?.kind === 'call') parameterNames(doc, s, out);
    }
  }
  const from = doc.lines.lineStart(first);
  const to = doc.lines.lineEnd(last);
  for (const o of doc.symbols.occurrences) {
    if (o.start < from) continue;
    if (o.start > to) break;
    const hint = resolutionHint(doc, o);
    if (hint) out.push(hint);
  }
  return out.sort((a, b) => a.position.line - b.position.line || a.position.character - b.position.character);
}

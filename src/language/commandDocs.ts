/**
 * Hover text and completion entries for AVAP commands, from the parser's
 * catalogue (the single source of command names and signatures). Pure.
 */
import {
  COMMANDS,
  findCommand,
  findCommandIgnoringCase,
  findHallucination,
  signaturesOf,
  signatureOf,
  type CommandSpec,
} from '../parser/catalogue';

const PARAM_KIND_TEXT: Record<string, string> = {
  target: 'variable written',
  name: 'variable read',
  value: 'value',
  number: 'number',
  comparator: 'comparator',
};

/** Markdown for a hover over `word`, or undefined when it is no command (and no known mistake). */
export function hoverMarkdown(word: string): string | undefined {
  const spec = findCommand(word);
  if (spec) return commandMarkdown(spec);
  const hallucination = findHallucination(word);
  if (hallucination) {
    return hallucination.equivalent
      ? `**${word}** is not an AVAP command — use \`${hallucination.equivalent}\`.${hallucination.note ? `\n\n${hallucination.note}` : ''}`
      : `**${word}** is not an AVAP command.${hallucination.note ? `\n\n${hallucination.note}` : ''}`;
  }
  const caseMismatch = findCommandIgnoringCase(word);
  if (caseMismatch)
    return `**${word}** is not an AVAP command (AVAP is case-sensitive) — did you mean \`${caseMismatch.name}\`?`;
  return undefined;
}

/** @internal */
export function commandMarkdown(spec: CommandSpec): string {
  const signatures = signaturesOf(spec)
    .map((params) => `    ${signatureOf(spec, params)}`)
    .join('\n');
  const params =
    spec.params.length === 0
      ? ''
      : `\n\n${spec.params.map((p) => `- \`${p.name}\` — ${PARAM_KIND_TEXT[p.kind] ?? p.kind}${p.optional ? ' (may be empty)' : ''}`).join('\n')}`;
  return `${signatures}\n\n${spec.summary}${params}\n\nExample:\n\n    ${spec.example}\n\n*${spec.category} · AVAP command*`;
}

export interface CompletionEntry {
  label: string;
  detail: string;
  documentation: string;
  /** Snippet syntax (`${1:name}`) for the call. */
  snippet: string;
  sortText: string;
}

/** One entry per command, with a snippet of its main signature. */
export function completionEntries(): CompletionEntry[] {
  return COMMANDS.map((spec, index) => ({
    label: spec.name,
    detail: signatureOf(spec),
    documentation: commandMarkdown(spec),
    snippet: `${spec.name}(${spec.params.map((p, i) => `\${${i + 1}:${p.name}}`).join(', ')})`,
    sortText: String(index).padStart(3, '0'),
  }));
}

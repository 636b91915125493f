/**
 * The outcomes the knowledge base's documents state, one line after an example
 * (chapter-spec-and-reference.md, "How the examples state their outcome"):
 *
 *   Outcome[ (specification)]: no request parameters | request `?q` → status N, result `{…}`
 *
 * `Outcome:` is the answer under the specification that the reference
 * implementation gives too; `Outcome (specification):` the specification's
 * answer where the example uses a command the reference does not run or a
 * difference the text names.
 *
 * The next line that is not blank may declare the divergences the run depends
 * on (the runtime's portability rule ids), with a note in our words:
 *
 *   Divergences: `rule`[, `rule`…] — note
 */
import { avapCodeBlocks, type KnowledgeDoc } from '../../../src/knowledge';

const OUTCOME =
  /^Outcome(?: \((specification|reference implementation)\))?: (no request parameters|request `\?([^`]*)`) → status (\d{3}), result `(\{.*?\})`/;

const DIVERGENCES = /^Divergences?: (`[a-z]+(?:-[a-z]+)*`(?:, `[a-z]+(?:-[a-z]+)*`)*) — \S.*$/;

export interface Outcome {
  where: string;
  /** The document and the 1-based line of the outcome. */
  doc: string;
  line: number;
  code: string;
  /** `both`: plain `Outcome:`; `specification`: marked as the specification's. */
  marker: 'both' | 'specification' | 'reference implementation';
  /** The query string without its `?` ('' for no request parameters). */
  query: string;
  status: number;
  result: Record<string, unknown>;
  /** The divergences the `Divergences:` line after the outcome declares, as written (empty when there is none). */
  divergences: string[];
}

export function outcomes(doc: KnowledgeDoc): { found: Outcome[]; malformed: string[] } {
  const found: Outcome[] = [];
  const malformed: string[] = [];
  const blocks = avapCodeBlocks(doc.body);
  const lines = doc.body.split('\n');
  /** The line numbers (0-based) of the declarations that follow an outcome. */
  const declared = new Set<number>();
  const divergencesAfter = (index: number): string[] => {
    let next = index + 1;
    while (next < lines.length && (lines[next] as string).trim() === '') next++;
    const line = lines[next] ?? '';
    if (!line.startsWith('Divergence')) return [];
    declared.add(next);
    const m = DIVERGENCES.exec(line);
    if (!m) {
      malformed.push(`${doc.sourceDoc}:${next + 1}: ${line}`);
      return [];
    }
    return (m[1] as string).split(', ').map((id) => id.slice(1, -1));
  };
  lines.forEach((line, index) => {
    if (!line.startsWith('Outcome')) return;
    const m = OUTCOME.exec(line);
    const block = [...blocks].reverse().find((b) => b.line < index + 1);
    if (!m || !block) {
      malformed.push(`${doc.sourceDoc}:${index + 1}: ${line}`);
      return;
    }
    try {
      found.push({
        where: `${doc.sourceDoc}:${index + 1}`,
        doc: doc.sourceDoc,
        line: index + 1,
        code: block.code,
        marker: (m[1] as Outcome['marker'] | undefined) ?? 'both',
        query: m[3] ?? '',
        status: Number(m[4]),
        result: JSON.parse(m[5] as string) as Record<string, unknown>,
        divergences: divergencesAfter(index),
      });
    } catch {
      malformed.push(`${doc.sourceDoc}:${index + 1}: the result is not JSON`);
    }
  });
  lines.forEach((line, index) => {
    if (line.startsWith('Divergence') && !declared.has(index))
      malformed.push(`${doc.sourceDoc}:${index + 1}: a divergence declaration that follows no outcome`);
  });
  return { found, malformed };
}

/** A query string as the runtime's request takes it (a repeated parameter becomes a list). */
export function queryOf(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

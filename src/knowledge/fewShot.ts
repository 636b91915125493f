/**
 * Few-shot selection (docs/design.md D2): the K validated pool examples most similar to
 * a request, by BM25 over each example's description (weight 3), commands
 * (weight 2) and code (weight 1). Deterministic: same pool + same request →
 * same examples in the same order (score, then id).
 */
import { Bm25Index, type Bm25Options } from './bm25';
import { divergenceNote } from './divergences';
import type { ExamplePool, PoolExample } from './types';

export const DEFAULT_FEW_SHOT_K = 5;
const EXAMPLE_FIELD_WEIGHTS = { description: 3, commands: 2, code: 1 } as const;

export interface SelectedExample {
  example: PoolExample;
  score: number;
}

export interface ExampleSelector {
  /** Number of examples available. */
  readonly size: number;
  /**
   * The top-`k` examples with a positive similarity, best first. Fewer than `k`
   * come back when fewer examples share a term with the request; `k` is
   * truncated to an integer and `k <= 0` gives none.
   */
  selectExamples(request: string, k?: number): SelectedExample[];
  example(id: string): PoolExample | undefined;
}

export function createExampleSelector(
  pool: ExamplePool | readonly PoolExample[],
  options: Bm25Options = {},
): ExampleSelector {
  const examples = Array.isArray(pool) ? (pool as readonly PoolExample[]) : (pool as ExamplePool).examples;
  const byId = new Map<string, PoolExample>();
  for (const e of examples) if (!byId.has(e.id)) byId.set(e.id, e);
  const index = new Bm25Index(
    [...byId.values()].map((e) => ({
      id: e.id,
      fields: [
        { text: e.description, weight: EXAMPLE_FIELD_WEIGHTS.description },
        { text: e.commands.join(' '), weight: EXAMPLE_FIELD_WEIGHTS.commands },
        { text: e.code, weight: EXAMPLE_FIELD_WEIGHTS.code },
      ],
    })),
    options,
  );
  return {
    size: index.size,
    selectExamples(request: string, k: number = DEFAULT_FEW_SHOT_K): SelectedExample[] {
      return index.search(request, k).map(({ id, score }) => ({ example: byId.get(id) as PoolExample, score }));
    },
    example: (id) => byId.get(id),
  };
}

/**
 * Renders selected examples for a prompt: description as a comment, the divergences the example depends on (what
 * AVAP Lite does instead) as another, then the code.
 * @internal
 */
export function renderExamples(selected: readonly SelectedExample[]): string {
  return selected
    .map(({ example }) => {
      const note = divergenceNote(example.divergences);
      return `// Example: ${example.description}\n${note ? `// ${note}\n` : ''}${example.code.trimEnd()}`;
    })
    .join('\n\n');
}

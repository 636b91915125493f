/**
 * The run's few-shot examples for code generation: K validated examples from
 * the knowledge base's pool, selected once per run (the retry reuses them),
 * the injection recorded on the result (`enabled`, `disabled`, or `degraded`
 * when the selection failed and generation went on without them).
 */
import type { FewShotExample } from '../routing/prompts';
import type { RunContext } from './run';

/**
 * Logged when few-shot examples go into the code prompt; `how` is '' or ' by embedding similarity' / ' by BM25'.
 * @internal
 */
export const logFewShot = (k: number, injected: number, how = ''): string =>
  `few-shot: K=${k}, ${injected} validated example(s) injected${how}`;

export async function fewShotExamples(run: RunContext): Promise<FewShotExample[]> {
  if (run.fewShot) return run.fewShot;
  const { config, logger } = run.deps;
  const k = config.pipeline.fewShotExamples;
  const select = run.deps.examples;
  if (!select || k <= 0) {
    run.result.fewShot = { status: 'disabled', k, injected: 0 };
    logger.info(`few-shot: disabled (K=${k}${select ? '' : ', no example pool'})`);
    return (run.fewShot = []);
  }
  try {
    const choice = await select(run.request.query, k, run.signal);
    const picked = Array.isArray(choice) ? { examples: choice } : choice;
    const chosen = picked.examples;
    run.result.fewShot = {
      status: 'enabled',
      k,
      injected: chosen.length,
      ...('selection' in picked
        ? { selection: picked.selection, ...(picked.detail ? { selectionDetail: picked.detail } : {}) }
        : {}),
    };
    const how =
      'selection' in picked ? ` by ${picked.selection === 'embedding' ? 'embedding similarity' : 'BM25'}` : '';
    logger.info(logFewShot(k, chosen.length, how));
    if ('selection' in picked && picked.selection === 'lexical') {
      logger.warn(
        `few-shot: no embedding similarity (${picked.detail ?? 'unavailable'}) — examples chosen lexically; few_shot_selection: lexical`,
      );
    }
    return (run.fewShot = chosen);
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    run.result.fewShot = { status: 'degraded', k, injected: 0, detail };
    logger.warn(
      `few-shot example retrieval failed (${detail}) — generating without examples; few_shot_injection: degraded`,
    );
    return (run.fewShot = []);
  }
}

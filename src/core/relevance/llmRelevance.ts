/** The LLM relevance adapter: asks the model YES or NO. */
import type { LlmPort } from '../llm/port';
import { relevanceMessages } from '../routing/prompts';
import type { RelevanceOutcome, RelevancePort } from './port';

/**
 * Reads a YES/NO answer; anything unreadable counts as YES (never loop on a confused judge). Pure.
 * @internal
 */
export function readYesNo(text: string): { relevant: boolean; readable: boolean } {
  const word = /\b(yes|no|sí|si)\b/i.exec(text.replace(/<think>[\s\S]*?<\/think>/g, ''))?.[1]?.toLowerCase();
  if (word === 'no') return { relevant: false, readable: true };
  if (word) return { relevant: true, readable: true };
  return { relevant: true, readable: false };
}

export function createLlmRelevance(llm: LlmPort, model: string): RelevancePort {
  return {
    mode: 'llm',
    async judge(query, retrieved, signal): Promise<RelevanceOutcome> {
      if (retrieved.chunks.length === 0)
        return { ok: true, value: { relevant: false, detail: 'no context was retrieved' } };
      const result = await llm.chat({
        model,
        messages: relevanceMessages(query, retrieved.chunks),
        signal,
        maxTokens: 8,
      });
      if (!result.ok) return result;
      const verdict = readYesNo(result.value.text);
      const said = result.value.text.trim().slice(0, 40);
      return {
        ok: true,
        value: {
          relevant: verdict.relevant,
          detail: verdict.readable ? `LLM said ${said}` : `unreadable LLM answer '${said}' — treated as YES`,
        },
      };
    },
  };
}

/**
 * CONVERSATIONAL and PLATFORM: the conversational model answers, with no
 * retrieval; any code the answer shows is validated all the same.
 */
import type { ChatMessage } from '../../llm/port';
import { conversationalMessages, platformMessages } from '../../routing/prompts';
import type { ConversationTurn, PipelineResult } from '../../types';
import { answerLoop } from '../answerLoop';
import type { RunContext } from '../run';
import { proseSpec } from '../spec';

type Prompt = (query: string, history?: readonly ConversationTurn[]) => ChatMessage[];

function respondWith(node: string, prompt: Prompt): (run: RunContext) => Promise<PipelineResult> {
  return (run) =>
    answerLoop(
      run,
      proseSpec(run.deps.config.ollama.conversationalModel, node, prompt(run.request.query, run.request.history)),
    );
}

export const respondConversational = respondWith('respond_conversational', conversationalMessages);
export const respondPlatform = respondWith('respond_platform', platformMessages);

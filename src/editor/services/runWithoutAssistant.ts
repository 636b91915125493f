/**
 * The result of a run asked for while the editor has no assistant: why, as
 * data, with no status (it claims nothing). An unreadable parser URL is
 * `bad-parser-url` and no assistant yet (or one disposed) is `not-started` —
 * never `llm-failed`: no model was asked. Pure.
 */
import { resultWithoutRun, type PipelineRequest, type PipelineResult } from '../../core';
import type { BadParserUrl } from '../../protocol';

export function runWithoutAssistant(request: PipelineRequest, problem: BadParserUrl | undefined): PipelineResult {
  return resultWithoutRun(request, {
    generationId: 'not-started',
    error: problem
      ? { code: 'bad-parser-url', message: problem.message }
      : { code: 'not-started', message: 'the assistant is not set up' },
  });
}

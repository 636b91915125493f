/**
 * CODE_GENERATION: reformulate → retrieve → generate the program with K
 * validated few-shot examples → validate (the answer must hold code) → one
 * retry guided by the parser's trace. *Regenerate with Trace* starts at the
 * retry: the code the user has, with its trace, is attempt 1, and this run is
 * the request's retry.
 */
import { renderTrace, type TraceEntry } from '../../../parser';
import { codeAnswerBlocks } from '../../code/extract';
import type { ChatMessage } from '../../llm/port';
import type { RetrievedChunk } from '../../retrieval/port';
import { generateCodeMessages, generateCodeRetryMessages, type FewShotExample } from '../../routing/prompts';
import type { PipelineResult } from '../../types';
import { blocking } from '../../validation/errors';
import { errorsFromTrace } from '../../validation/fromTrace';
import { repairInstructions } from '../../validation/normalizer';
import { spendOnCorrection } from '../../validation/retryCycle';
import { answerLoop } from '../answerLoop';
import { cancelledError } from '../failure';
import { fewShotExamples } from '../fewShot';
import { FIRST_PASS, reformulateAndRetrieve } from '../retrieve';
import type { RunContext } from '../run';
import type { AnswerSpec } from '../spec';

/** The prompt of a code answer and what it was grounded on (its retry is grounded on the same). */
interface CodePrompt {
  messages: ChatMessage[];
  chunks: RetrievedChunk[];
  examples: FewShotExample[];
  /** The attempt the answer loop starts at (2 for Regenerate with Trace). */
  firstAttempt?: number;
}

function codeSpec(run: RunContext, prompt: CodePrompt): AnswerSpec {
  const { messages, chunks, examples, firstAttempt = 1 } = prompt;
  return {
    model: run.deps.config.ollama.model,
    node: 'generate_code',
    retryNode: 'generate_code_retry',
    messages,
    codeRequired: true,
    blocks: codeAnswerBlocks,
    retryMessages: (text, validation, traceLines, errors) =>
      generateCodeRetryMessages({
        query: run.request.query,
        chunks,
        examples,
        previousCode: validation.code || text,
        traceLines,
        repairInstructions: repairInstructions(errors),
      }),
    firstAttempt,
  };
}

export async function generateCode(run: RunContext): Promise<PipelineResult> {
  const retrieved = await reformulateAndRetrieve(run, FIRST_PASS);
  if (!retrieved.ok) return run.fail(retrieved.error, run.deps.config.ollama.model);
  const { chunks } = retrieved.value;
  const examples = await fewShotExamples(run);
  const messages = generateCodeMessages(run.request.query, chunks, examples, run.request.history);
  return answerLoop(run, codeSpec(run, { messages, chunks, examples }));
}

/** *Regenerate with Trace*: the given code and trace are attempt 1; this run is the retry (it uses the request's cycle). */
export async function correctCode(
  run: RunContext,
  correction: { code: string; trace: TraceEntry[] },
): Promise<PipelineResult> {
  run.result.queryType = 'CODE_GENERATION';
  run.result.classification = 'correction';
  spendOnCorrection(run.cycle);
  if (run.cancelled) return run.fail(cancelledError(), run.deps.config.ollama.model, 2);
  const errors = errorsFromTrace(correction.trace).errors;
  run.attemptLog.given(correction.code, correction.trace, !blocking(errors).length);
  const traceLines = renderTrace(correction.trace).split('\n').filter(Boolean);
  const examples = await fewShotExamples(run);
  const messages = generateCodeRetryMessages({
    query: run.request.query,
    chunks: [],
    examples,
    previousCode: correction.code,
    traceLines,
    repairInstructions: repairInstructions(errors),
  });
  const spec = codeSpec(run, { messages, chunks: [], examples, firstAttempt: 2 });
  return answerLoop(run, { ...spec, node: 'generate_code_retry' });
}

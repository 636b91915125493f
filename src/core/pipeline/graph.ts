/**
 * The routing and validation graph (the design's flow, docs/design.md D1):
 *
 *   classify ─┬─ CODE_GENERATION → reformulate → retrieve → generate_code → validate_code
 *             │                     VALID → return ""        INVALID → generate_code_retry → validate_code → return
 *             ├─ RETRIEVAL → reformulate → retrieve → check_context_relevance
 *             │                     YES → generate     NO → reformulate_with_hint → retrieve → generate (unconditionally)
 *             └─ CONVERSATIONAL / PLATFORM → respond (no retrieval)
 *
 * This module is the orchestrator: it classifies the request and hands the
 * run to its route's handler (routes/). What every route shares is the
 * answer loop (answerLoop.ts: generate → validate → repair → retry → review),
 * one run's state (run.ts), and the one place that records attempts
 * (attemptLog.ts).
 *
 * D1 RC-07, on every route: every AVAP code block an answer shows is validated
 * before the final message, and the status is earned (validation/status.ts):
 * `""` only when the parser validated all of them or there are none. Until
 * then the stream carries drafts (`draft: true`, no status, no code). The
 * final message's `text` is the answer delivered — exactly the text whose
 * code was validated — and an answer the parser's fixes repaired is streamed
 * again whole, as a draft that replaces the attempt's earlier ones.
 *
 * D1 RC-08: one retry cycle per request, whatever triggers it — the relevance
 * reformulation, the parser's trace, or the quality judge's hint (a reviewer
 * passed in RunOptions); the budget is 0 or 1 and validation/retryCycle.ts is
 * the only module that claims it. A retry that is due but not made is logged,
 * recorded in `result.retry` and in the telemetry's `stop_reason`. An
 * unavailable parser never triggers a retry and the answer is returned
 * PARSER_UNAVAILABLE. `request.correction` starts at the retry step. Every
 * failure comes back as data in the PipelineResult; a failed or cancelled run
 * has no status (it claims nothing).
 */
import { classify } from '../routing/classifier';
import type { PipelineRequest, PipelineResult, QueryType } from '../types';
import type { PipelineDeps, RunOptions } from './deps';
import { asFailure, cancelledError } from './failure';
import { withFirstAttempt } from './firstAttempt';
import { generateCode, correctCode } from './routes/codeGeneration';
import { respondConversational, respondPlatform } from './routes/conversation';
import { answerFromDocumentation } from './routes/documentation';
import { RunContext } from './run';

/** A route's handler: what the run does once the request is classified. */
type RouteHandler = (run: RunContext) => Promise<PipelineResult>;

const ROUTES: Readonly<Record<QueryType, RouteHandler>> = {
  CODE_GENERATION: generateCode,
  RETRIEVAL: answerFromDocumentation,
  CONVERSATIONAL: respondConversational,
  PLATFORM: respondPlatform,
};

async function route(run: RunContext): Promise<PipelineResult> {
  const { config, llm, logger } = run.deps;
  const { request } = run;
  if (request.correction) return correctCode(run, request.correction);
  if (run.cancelled) return run.fail(cancelledError(), config.ollama.model);
  const classified = await run.timed('classify', () =>
    classify(
      { llm, model: config.ollama.model, logger, signal: run.signal },
      { query: request.query, forceType: request.forceType, history: request.history },
    ),
  );
  if (!classified.ok) return run.fail(asFailure(classified.error), config.ollama.model);
  run.result.queryType = classified.value.type;
  run.result.classification = classified.value.how;
  return ROUTES[classified.value.type](run);
}

/** Runs one request through the graph. Never throws for expected failures: they come back in `result.error`. */
export async function runPipeline(
  deps: PipelineDeps,
  request: PipelineRequest,
  options: RunOptions = {},
): Promise<PipelineResult> {
  return withFirstAttempt(await route(new RunContext(deps, request, options)));
}

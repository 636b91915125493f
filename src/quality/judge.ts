/**
 * The LLM-as-judge adapter: one structured call scores a RETRIEVAL answer on
 * grounding, specificity and actionability. The answer shape is enforced at
 * the transport (Ollama's `format` with the JSON schema derived from the zod
 * schema) and re-checked here with the same pre-validation the tools use; a
 * transport failure or a malformed answer is a failure, never a score. The
 * composite is computed here from the weights, not taken from the model.
 */
import { z } from 'zod';
import type { ChatMessage, LlmPort } from '../core';
import { err, ok } from '../result';
import { defineContract, jsonSchemaOf, preValidateJsonText } from '../inputContract';
import type { DimensionScore, QualityInput, QualityValidator, QualityVerdict } from './port';
import { clampScore, composite, DEFAULT_THRESHOLD, DIMENSIONS, rubricText, weakestDimension } from './rubric';

const DimensionVerdict = z.strictObject({
  reason: z.string().max(1000).describe('One sentence: why this score, citing the rubric band.'),
  score: z.number().min(0).max(1).describe('0.0 to 1.0'),
});

const JudgeAnswerSchema = z.strictObject({
  grounding: DimensionVerdict,
  specificity: DimensionVerdict,
  actionability: DimensionVerdict,
});
type JudgeAnswer = z.infer<typeof JudgeAnswerSchema>;

const JudgeAnswerContract = defineContract('judge answer', JudgeAnswerSchema);

/**
 * Sent as Ollama's `format`.
 * @internal
 */
export const JUDGE_JSON_SCHEMA: Record<string, unknown> = jsonSchemaOf(JudgeAnswerContract as never);

/** @internal */
export const JUDGE_SYSTEM_HEADER =
  'You are a strict reviewer of answers about AVAP, a proprietary API-programming language.';

/** Characters of documentation put in front of the judge (the whole top-k usually fits). */
const MAX_CONTEXT_CHARS = 12_000;

function judgeMessages(input: QualityInput): ChatMessage[] {
  let budget = MAX_CONTEXT_CHARS;
  const passages: string[] = [];
  input.context.forEach((c, i) => {
    if (budget <= 0) return;
    const text = c.text.length > budget ? `${c.text.slice(0, budget)}…` : c.text;
    budget -= text.length;
    passages.push(`[${i + 1}] ${c.title}\n${text}`);
  });
  const system = [
    JUDGE_SYSTEM_HEADER,
    'Score the ANSWER to the QUESTION on three dimensions, each from 0.0 to 1.0, using this rubric:',
    '',
    rubricText(),
    '',
    'Judge only against the RETRIEVED DOCUMENTATION: AVAP is not a language you know, so a command or syntax that the documentation does not show counts as unsupported.',
    'Answer with one JSON object: {"grounding": {"reason": "...", "score": 0.0}, "specificity": {...}, "actionability": {...}} and nothing else.',
  ].join('\n');
  const user = [
    `QUESTION:\n${input.question}`,
    `RETRIEVED DOCUMENTATION:\n${passages.length ? passages.join('\n\n') : '(none was retrieved)'}`,
    `ANSWER:\n${input.answer}`,
  ].join('\n\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

export interface JudgeOptions {
  llm: LlmPort;
  model: string;
  threshold?: number;
  /** Caps the judge's answer. Default 1024 tokens. */
  maxTokens?: number;
}

/** Turns a checked judge answer into an assessment. Pure. */
function assessmentFromJudge(answer: JudgeAnswer, threshold: number, model: string): QualityVerdict {
  const scores = {
    grounding: clampScore(answer.grounding.score),
    specificity: clampScore(answer.specificity.score),
    actionability: clampScore(answer.actionability.score),
  };
  const total = composite(scores);
  const passed = total >= threshold;
  const dimensions: DimensionScore[] = DIMENSIONS.map((d) => ({
    name: d.name,
    score: scores[d.name],
    weight: d.weight,
    reason: answer[d.name].reason,
  }));
  return ok({
    validator: 'llm-judge',
    composite: total,
    threshold,
    passed,
    dimensions,
    findings: dimensions
      .filter((d) => d.score < threshold)
      .map((d) => `${d.name} ${d.score}: ${d.reason ?? ''}`.trim()),
    ...(passed ? {} : { hint: weakestDimension(scores).hint }),
    model,
  });
}

export function createLlmJudge(options: JudgeOptions): QualityValidator {
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  return {
    name: 'llm-judge',
    async assess(input, signal): Promise<QualityVerdict> {
      const reply = await options.llm.chat({
        model: options.model,
        messages: judgeMessages(input),
        format: JUDGE_JSON_SCHEMA,
        maxTokens: options.maxTokens ?? 1024,
        ...(signal ? { signal } : {}),
      });
      if (!reply.ok) {
        return err({
          validator: 'llm-judge',
          code: reply.error.code === 'cancelled' ? 'cancelled' : 'judge-unavailable',
          message: `the judge could not run: ${reply.error.message}`,
          detail: reply.error.code,
        });
      }
      const checked = preValidateJsonText(JudgeAnswerContract, reply.value.text);
      if (!checked.valid) {
        return err({
          validator: 'llm-judge',
          code: 'judge-malformed',
          message: `the judge's answer did not match the schema: ${checked.error}`,
          detail: reply.value.text.slice(0, 2000),
        });
      }
      return assessmentFromJudge(checked.value, threshold, options.model);
    },
  };
}

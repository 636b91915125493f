/**
 * The two LLM-judged metrics of the evaluation, defined as RAGAS defines them:
 *
 * - faithfulness = |statements of the answer supported by the retrieved context|
 *   / |statements of the answer|. One structured call breaks the answer into
 *   statements and gives a verdict for each against the context.
 * - answer_relevancy = mean cosine similarity between the embedding of the
 *   question and the embeddings of N questions generated from the answer, and 0
 *   when the answer is noncommittal ("I don't know").
 *
 * Judge output is enforced through Ollama's `format` (a JSON schema) and
 * re-checked with zod. A failed judge call is reported as a failure — the
 * caller excludes it and counts it — never as a score.
 */
import { z } from 'zod';
import type { LlmPort } from '../core';
import { err, fail, ok, type Failure, type Result } from '../result';
import { cosine } from './stats';

/**
 * Why a metric has no score: the judge model failed, its answer is not the JSON asked for, it found nothing to
 * judge, or the embedding model failed. The message goes into the entry's `judge_failures`.
 */
type JudgeFailure = Failure<'judge-failed' | 'judge-malformed' | 'nothing-to-judge' | 'embedding-failed'>;
export type JudgeOutcome = Result<{ score: number; detail: string }, JudgeFailure>;

const StatementsSchema = z.object({
  statements: z.array(z.object({ statement: z.string().min(1), supported: z.boolean() })).max(50),
});

const QuestionsSchema = z.object({
  questions: z.array(z.string().min(1)).min(1).max(5),
  noncommittal: z.boolean(),
});

/** @internal */
export const FAITHFULNESS_FORMAT = z.toJSONSchema(StatementsSchema) as Record<string, unknown>;
const RELEVANCY_FORMAT = z.toJSONSchema(QuestionsSchema) as Record<string, unknown>;

export interface JudgeModels {
  judgeModel: string;
  embeddingModel: string;
}

function parseJson<T>(schema: z.ZodType<T>, text: string): Result<T, JudgeFailure> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return fail('judge-malformed', `judge answer is not JSON: ${text.slice(0, 80)}`);
  }
  const checked = schema.safeParse(data);
  return checked.success
    ? ok(checked.data)
    : fail('judge-malformed', `judge answer has the wrong shape: ${checked.error.issues[0]?.message ?? 'invalid'}`);
}

/** Who judges: the model port, the pinned models, and the caller's cancellation. */
interface Judge {
  llm: LlmPort;
  models: JudgeModels;
  signal?: AbortSignal;
}

/** The share of the answer's statements that the retrieved context supports. */
export async function faithfulness(judge: Judge, input: { answer: string; context: string }): Promise<JudgeOutcome> {
  const { llm, models, signal } = judge;
  const { answer, context } = input;
  const result = await llm.chat({
    model: models.judgeModel,
    format: FAITHFULNESS_FORMAT,
    signal,
    messages: [
      {
        role: 'system',
        content:
          'You check answers about the AVAP language against documentation. Break the ANSWER into short, self-contained factual statements (code lines count as statements about which commands and arguments to use). For each statement, set supported=true only if the CONTEXT directly supports it. Answer only with JSON.',
      },
      { role: 'user', content: `CONTEXT:\n${context || '(no context was retrieved)'}\n\nANSWER:\n${answer}` },
    ],
  });
  if (!result.ok) return fail('judge-failed', `${result.error.code}: ${result.error.message}`);
  const parsed = parseJson(StatementsSchema, result.value.text);
  if (!parsed.ok) return err(parsed.error);
  const total = parsed.value.statements.length;
  if (total === 0) return fail('nothing-to-judge', 'judge found no statements in the answer');
  const supported = parsed.value.statements.filter((s) => s.supported).length;
  return ok({ score: supported / total, detail: `${supported}/${total} statements supported` });
}

/** How closely the questions the answer would answer match the question asked (0 when it is noncommittal). */
export async function answerRelevancy(
  judge: Judge,
  input: { question: string; answer: string },
): Promise<JudgeOutcome> {
  const { llm, models, signal } = judge;
  const { question, answer } = input;
  const result = await llm.chat({
    model: models.judgeModel,
    format: RELEVANCY_FORMAT,
    signal,
    messages: [
      {
        role: 'system',
        content:
          'Write 3 questions that the ANSWER would answer, as a developer would ask them. Set noncommittal=true if the answer is evasive or vague ("I don\'t know", "it depends" without specifics). Answer only with JSON.',
      },
      { role: 'user', content: `ANSWER:\n${answer}` },
    ],
  });
  if (!result.ok) return fail('judge-failed', `${result.error.code}: ${result.error.message}`);
  const parsed = parseJson(QuestionsSchema, result.value.text);
  if (!parsed.ok) return err(parsed.error);
  const vectors = await llm.embed(models.embeddingModel, [question, ...parsed.value.questions], signal);
  if (!vectors.ok) return fail('embedding-failed', `embedding failed: ${vectors.error.code}: ${vectors.error.message}`);
  const [q, ...generated] = vectors.value;
  if (!q || generated.length !== parsed.value.questions.length)
    return fail('embedding-failed', 'embedding returned the wrong number of vectors');
  const similarity = generated.reduce((acc, v) => acc + cosine(q, v), 0) / generated.length;
  const score = parsed.value.noncommittal ? 0 : Math.max(0, similarity);
  return ok({
    score,
    detail: `${generated.length} generated questions, mean cosine ${similarity.toFixed(3)}${parsed.value.noncommittal ? ', noncommittal' : ''}`,
  });
}

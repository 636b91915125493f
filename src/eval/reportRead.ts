/**
 * Reading a report.json written by `eval --out DIR` back, for the editor's
 * metrics view. The file comes from disk and may be anything: the shape is
 * checked and problems come back as data, never thrown. Only the fields a
 * viewer needs are required; unknown fields are ignored.
 */
import { z } from 'zod';
import { fail, ok, type Failure, type Result } from '../result';

const Stat = z.object({ mean: z.number().nullable(), std: z.number().nullable(), n: z.number() });
const Counts = z.record(z.string(), z.number());

const ReportSchema = z.object({
  config: z.object({
    seed: z.number(),
    model: z.string(),
    parserVersion: z.string(),
    retrievalMode: z.string(),
    fewShot: z.object({ status: z.string(), k: z.number(), selection: z.string().nullable().optional() }),
    index: z.object({ name: z.string(), version: z.string() }),
    runs: z.number(),
    goldenEntries: z.number(),
  }),
  /** Absent in reports written before warnings existed. */
  warnings: z.array(z.string()).optional(),
  runs: z.array(
    z.object({
      run: z.number(),
      codeBearing: z.number(),
      validCode: z.number(),
      syntactic_validity: z.number().nullable(),
      /** Absent in reports written before functional correctness. */
      functionalChecked: z.number().optional(),
      functionalPassed: z.number().optional(),
      functional_correctness: z.number().nullable().optional(),
      judge_failures: z.number(),
      pipeline_errors: z.number().optional(),
      quality_judged: z.number().optional(),
      quality_passed: z.number().optional(),
      quality_retried: z.number().optional(),
      quality_failures: z.number().optional(),
    }),
  ),
  syntactic_validity: Stat,
  /** Absent in reports written before functional correctness. */
  functional_correctness: Stat.optional(),
  faithfulness: Stat,
  answer_relevancy: Stat,
  convergence: z.record(z.string(), Stat),
  judge_failures: z.number(),
  confusion: z.object({
    categories: z.array(z.string()),
    byQuestion: z.record(z.string(), Counts),
    byCategory: Counts,
    /** Absent in reports written before rule codes. */
    byRule: z.array(z.tuple([z.string(), z.number()])).optional(),
    topTokens: z.array(z.tuple([z.string(), z.number()])),
  }),
  leakage: z.array(
    z.object({
      model: z.string(),
      avap_commands: z.number(),
      foreign_keywords: z.number(),
      unknown_identifiers: z.number(),
    }),
  ),
  finishedAt: z.string().optional(),
});

export type StoredEvalReport = z.infer<typeof ReportSchema>;

/** Largest report.json the viewer reads (a 5-run report over 60 questions is about 1 MiB). */
export const MAX_REPORT_BYTES = 32 * 1024 * 1024;

/** Why a file is not shown as an evaluation report: too large, not JSON, or not the shape `eval --out` writes. */
export type ReportReadFailure = Failure<'too-large' | 'not-json' | 'not-a-report'>;

export function readEvalReport(text: string): Result<StoredEvalReport, ReportReadFailure> {
  if (text.length > MAX_REPORT_BYTES)
    return fail('too-large', `the file is larger than ${MAX_REPORT_BYTES / 1024 / 1024} MiB; not an evaluation report`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return fail('not-json', `not JSON (${(err as Error).message})`);
  }
  const parsed = ReportSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail(
      'not-a-report',
      `not an evaluation report written by 'eval --out': ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'unexpected shape'}`,
    );
  }
  return ok(parsed.data);
}

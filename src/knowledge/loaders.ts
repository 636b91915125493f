/**
 * Loading the knowledge files: reference documents (docs/*.md), the example
 * pool (examples/pool.json) and the golden set (golden/golden-set.json).
 * Every loader returns a LoadResult; a bad file is reported with its path and
 * every problem found in it, never thrown.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { listField, parseFrontMatter } from './frontMatter';
import {
  AVAP_CONSTRUCTS,
  fail,
  ok,
  QUERY_TYPES,
  type DocKind,
  type ExamplePool,
  type GoldenSet,
  type KnowledgeDoc,
  type LoadResult,
} from './types';

const DOCS_SUBDIR = 'docs';
const POOL_FILE = path.join('examples', 'pool.json');
const GOLDEN_FILE = path.join('golden', 'golden-set.json');

const DOC_KINDS: readonly DocKind[] = ['command', 'chapter'];

function readText(file: string): LoadResult<string> {
  try {
    return ok(readFileSync(file, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const detail = err instanceof Error ? err.message : String(err);
    return fail(code === 'ENOENT' ? 'not-found' : 'unreadable', `cannot read ${file}: ${detail}`, file);
  }
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/**
 * Parses one document; `relative` is its path from the knowledge directory.
 * @internal
 */
export function parseDoc(text: string, relative: string): LoadResult<KnowledgeDoc> {
  const parsed = parseFrontMatter(text);
  if (!parsed.ok) return fail('malformed', `${relative}: ${parsed.error.message}`, relative);
  const { fields, body } = parsed.value;
  const problems: string[] = [];
  const id = fields.id ?? '';
  const title = fields.title ?? '';
  const kind = fields.kind ?? '';
  if (!/^[A-Za-z0-9][\w-]*$/.test(id)) problems.push(`id '${id}' must be letters, digits, '-' or '_'`);
  if (title === '') problems.push('title is missing');
  if (!(DOC_KINDS as readonly string[]).includes(kind))
    problems.push(`kind '${kind}' must be one of ${DOC_KINDS.join(', ')}`);
  if (body.trim() === '') problems.push('the document has no body');
  if (problems.length > 0) return fail('invalid', `${relative}: invalid front matter`, relative, problems);
  return ok({
    id,
    title,
    kind: kind as DocKind,
    category: fields.category ?? '',
    commands: listField(fields.commands),
    sourceDoc: toPosix(relative),
    body,
  });
}

/** Loads every `*.md` of `<dir>/docs`, sorted by file name; ids must be unique. */
export function loadDocs(knowledgeDir: string): LoadResult<KnowledgeDoc[]> {
  const docsDir = path.join(knowledgeDir, DOCS_SUBDIR);
  let names: string[];
  try {
    names = readdirSync(docsDir)
      .filter((n) => n.endsWith('.md'))
      .sort();
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    return fail('not-found', `cannot list ${docsDir}: ${detail}`, docsDir);
  }
  if (names.length === 0) return fail('invalid', `no Markdown documents in ${docsDir}`, docsDir);
  const docs: KnowledgeDoc[] = [];
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const name of names) {
    const relative = path.join(DOCS_SUBDIR, name);
    const text = readText(path.join(knowledgeDir, relative));
    if (!text.ok) {
      problems.push(text.error.message);
      continue;
    }
    const doc = parseDoc(text.value, relative);
    if (!doc.ok) {
      problems.push([doc.error.message, ...(doc.error.details ?? [])].join('; '));
      continue;
    }
    const previous = seen.get(doc.value.id);
    if (previous) problems.push(`${relative}: id '${doc.value.id}' already used by ${previous}`);
    seen.set(doc.value.id, relative);
    docs.push(doc.value);
  }
  if (problems.length > 0)
    return fail('invalid', `${problems.length} bad document(s) in ${docsDir}`, docsDir, problems);
  return ok(docs);
}

// ------------------------------------------------------------------ JSON files

const constructSchema = z.enum(AVAP_CONSTRUCTS);

const runCaseSchema = z
  .object({
    name: z.string().trim().min(1),
    request: z
      .object({
        method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
        query: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
        headers: z.record(z.string(), z.string()).optional(),
        body: z.unknown().optional(),
      })
      .strict()
      .optional(),
    fixtures: z
      .array(
        z
          .object({
            method: z.enum(['GET', 'POST']).optional(),
            url: z.string().regex(/^https?:\/\//, 'url must be an absolute http(s) URL'),
            status: z.number().int().min(100).max(599).optional(),
            headers: z.record(z.string(), z.string()).optional(),
            body: z.unknown().optional(),
          })
          .strict(),
      )
      .min(1)
      .optional(),
    sql: z.string().trim().min(1).optional(),
    now: z
      .string()
      .regex(
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?Z$/,
        'now must be an ISO 8601 UTC time such as 2026-03-01T10:00:00Z',
      )
      .optional(),
    seed: z.number().int().min(0).optional(),
    expect: z
      .object({
        status: z.number().int().min(100).max(599).optional(),
        result: z.record(z.string(), z.unknown()).optional(),
        error: z.union([z.boolean(), z.string()]).optional(),
      })
      .strict()
      .refine((e) => Object.keys(e).length > 0, 'expect must state a status, a result or an error'),
  })
  .strict();

/** Cases, or why there are none: never both. */
const withCases = <T extends { cases?: unknown[]; casesOmitted?: string }>(entry: T) =>
  !(entry.cases !== undefined && entry.casesOmitted !== undefined);
const CASES_OR_REASON = 'an entry has cases or casesOmitted, not both';

/** Portability rule ids (src/runtime/portability.ts; the unit suite checks each is one), sorted and unique. */
const divergencesSchema = z
  .array(z.string().regex(/^[a-z]+(-[a-z]+)*$/, 'a divergence is a portability rule id such as template'))
  .min(1)
  .refine((ids) => ids.every((id, i) => i === 0 || (ids[i - 1] as string) < id), 'divergences are sorted and unique')
  .optional();

const exampleSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'id must be lower-case words joined by "-"'),
    category: z.string().min(1),
    description: z
      .string()
      .trim()
      .min(1)
      .refine((s) => !s.includes('\n'), 'description must be one line'),
    commands: z.array(z.string().min(1)),
    constructs: z.array(constructSchema),
    code: z.string().trim().min(1),
    cases: z.array(runCaseSchema).min(1).optional(),
    casesOmitted: z.string().trim().min(1).optional(),
    divergences: divergencesSchema,
  })
  .strict()
  .refine(withCases, CASES_OR_REASON);

const poolSchema = z
  .object({
    poolVersion: z.string().min(1),
    validatedWith: z.string().min(1),
    examples: z.array(exampleSchema).min(1),
  })
  .strict();

const turnSchema = z.object({ role: z.enum(['user', 'assistant']), content: z.string().min(1) }).strict();

const goldenEntrySchema = z
  .object({
    id: z.string().regex(/^GD-[CRVKP]-\d{3}$/, 'id must look like GD-C-001'),
    category: z.string().min(1),
    queryType: z.enum(QUERY_TYPES as [string, ...string[]]),
    question: z.string().trim().min(1),
    history: z.array(turnSchema).optional(),
    expectedCommands: z.array(z.string().min(1)),
    referenceAnswer: z.string().trim().min(1),
    referenceCode: z.string().trim().min(1).optional(),
    cases: z.array(runCaseSchema).min(1).optional(),
    casesOmitted: z.string().trim().min(1).optional(),
    divergences: divergencesSchema,
  })
  .strict()
  .refine(withCases, CASES_OR_REASON);

const goldenSchema = z
  .object({
    goldenVersion: z.string().min(1),
    entries: z.array(goldenEntrySchema).min(1),
  })
  .strict();

function issuesOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`);
}

function loadJson<T>(file: string, schema: z.ZodType<T>, what: string): LoadResult<T> {
  const text = readText(file);
  if (!text.ok) return text;
  let data: unknown;
  try {
    data = JSON.parse(text.value);
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    return fail('malformed', `${what} is not valid JSON: ${detail}`, file);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) return fail('invalid', `${what} does not match its schema`, file, issuesOf(parsed.error));
  return ok(parsed.data);
}

function duplicates(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const id of ids) (seen.has(id) ? dup : seen).add(id);
  return [...dup].sort();
}

/** Loads examples/pool.json: schema-checked, ids unique. (Validity is checked by the tests.) */
export function loadExamplePool(knowledgeDir: string): LoadResult<ExamplePool> {
  const file = path.join(knowledgeDir, POOL_FILE);
  const loaded = loadJson(file, poolSchema, 'the example pool') as LoadResult<ExamplePool>;
  if (!loaded.ok) return loaded;
  const dup = duplicates(loaded.value.examples.map((e) => e.id));
  if (dup.length > 0)
    return fail(
      'invalid',
      'the example pool has duplicate ids',
      file,
      dup.map((d) => `duplicate id ${d}`),
    );
  return loaded;
}

/** Loads golden/golden-set.json: schema-checked, ids unique. */
export function loadGoldenSet(knowledgeDir: string): LoadResult<GoldenSet> {
  const file = path.join(knowledgeDir, GOLDEN_FILE);
  const loaded = loadJson(file, goldenSchema, 'the golden set') as LoadResult<GoldenSet>;
  if (!loaded.ok) return loaded;
  const dup = duplicates(loaded.value.entries.map((e) => e.id));
  if (dup.length > 0)
    return fail(
      'invalid',
      'the golden set has duplicate ids',
      file,
      dup.map((d) => `duplicate id ${d}`),
    );
  return loaded;
}

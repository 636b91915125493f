/**
 * The files beside a program and the outline of its test file, light enough for the editor to read at start-up
 * (the Testing view lists cases before anything runs): names and places only, no run-time code. A light entry of
 * this folder (LAYER_ENTRIES in eslint.config.mjs): it imports nothing but ./jsonTree and the Result type.
 *
 * - `NAME.avap.test.json` holds the program's test cases (`avap test`): `{"cases": [{name, request, expect}, …]}`.
 * - `NAME.avap.request.json` holds the request the editor's *Run File* sends: a test case without a name and
 *   expectations — `{"request": {method?, query?, headers?, body?}, "fixtures"?, "sql"?, "now"?, "seed"?}`.
 */
import { ok, type Failure, type Result } from '../result';
import { member, positionAt, readJsonTree, type JsonNode } from './jsonTree';

const PROGRAM_SUFFIX = '.avap';
export const TEST_SUFFIX = '.avap.test.json';
/** @internal */
export const REQUEST_SUFFIX = '.avap.request.json';

/** The test file of a program (`a/b.avap` → `a/b.avap.test.json`); works on paths and URI paths alike. */
export function testFileOf(program: string): string {
  return `${program}${TEST_SUFFIX.slice(PROGRAM_SUFFIX.length)}`;
}

/** The request file of a program (`a/b.avap` → `a/b.avap.request.json`). */
export function requestFileOf(program: string): string {
  return `${program}${REQUEST_SUFFIX.slice(PROGRAM_SUFFIX.length)}`;
}

/** The program a test or request file belongs to, or undefined for any other file. */
export function programOf(file: string): string | undefined {
  for (const suffix of [TEST_SUFFIX, REQUEST_SUFFIX])
    if (file.endsWith(suffix)) return file.slice(0, -suffix.length) + PROGRAM_SUFFIX;
  return undefined;
}

export interface Place {
  /** 0-based. */
  line: number;
  character: number;
}

interface CaseOutline {
  /** Its index in `cases`. */
  index: number;
  /** Its name, or `cases[i]` when it has none yet. */
  name: string;
  /** Where the case's object starts and ends in the file (offsets and places). */
  start: number;
  end: number;
  from: Place;
  to: Place;
}

export interface TestOutline {
  cases: CaseOutline[];
  /** Offset of the `]` that closes `cases` (a new case goes in before it). */
  casesClose: number;
}

export type OutlineError = Failure<'bad-test-file'> & { at: Place };

/** The cases of a test file's text, with where each sits; a file that cannot hold cases says where it goes wrong. */
export function outlineTestFile(text: string): Result<TestOutline, OutlineError> {
  const tree = readJsonTree(text);
  const bad = (message: string, offset: number): Result<TestOutline, OutlineError> => ({
    ok: false,
    error: { kind: 'bad-test-file', message, at: positionAt(text, offset) },
  });
  if (!tree.ok) return bad(tree.error.message, tree.error.offset);
  const cases = member(tree.value, 'cases')?.value;
  if (cases?.kind !== 'array') return bad('expected {"cases": [{name, request, expect}, …]}', tree.value.start);
  const seen = new Map<string, number>();
  const outline = cases.items.map((item: JsonNode, index): CaseOutline => {
    const named = member(item, 'name')?.value;
    const raw = named?.kind === 'string' && named.value.trim() !== '' ? named.value : `cases[${index}]`;
    // Names are how the Testing view knows a case across edits; a repeated name is told apart by its rank.
    const count = (seen.get(raw) ?? 0) + 1;
    seen.set(raw, count);
    return {
      index,
      name: count === 1 ? raw : `${raw} (${count})`,
      start: item.start,
      end: item.end,
      from: positionAt(text, item.start),
      to: positionAt(text, item.end),
    };
  });
  return ok({ cases: outline, casesClose: cases.end - 1 });
}

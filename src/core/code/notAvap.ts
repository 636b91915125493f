/**
 * Is an unlabelled code block plainly something other than AVAP? Pure and
 * deterministic.
 *
 * Answers often show a program's *output* or how to *call* it next to the
 * program: `{"hashed": "…"}` in a fence with no label, a `curl …` line, an
 * HTTP exchange. Those blocks are not AVAP, and validating them as AVAP would
 * turn a correct answer invalid. The classifier says "not AVAP" only when
 * every line of the block has a shape no AVAP statement can have:
 *
 * - `json`: the whole block (or every line of it, NDJSON) is a JSON value.
 *   An AVAP statement is a call (`name(…)`) or an assignment (`x = …`),
 *   neither of which is JSON.
 * - `shell`: every line is a command of a known command-line tool followed by
 *   its arguments (`curl -s …`, `npm test`, `$ …` prompts), a `\` continuation
 *   of one, or a `#` comment — with at least one command. AVAP never puts an
 *   argument after a name without parentheses, so `curl(url)` or `echo = 1`
 *   stay AVAP.
 * - `http`: a request or status line (`GET /v1/hash HTTP/1.1`, `HTTP/1.1 200
 *   OK`), header lines, and an empty or JSON body.
 * - `markup`: every line is a tag (`<…>`); no AVAP line starts with `<`.
 * - `digest`: every line is one long hexadecimal token (a hash printed as
 *   output).
 *
 * Anything else — including invalid or foreign code — is left to the parser.
 */

export type NotAvapKind = 'json' | 'shell' | 'http' | 'markup' | 'digest';

const nonBlank = (code: string): string[] =>
  code
    .split(/\r\n?|\n/)
    .map((l) => l.trim())
    .filter(Boolean);

function parsesAsJson(text: string): boolean {
  // Only what can start a JSON value is tried (a failed parse throws, which is not free).
  if (!/^[[{"\d-]/.test(text) && !/^(true|false|null)$/.test(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The whole block is a JSON value, or every line is a JSON object or array (NDJSON). */
function isJson(code: string): boolean {
  const text = code.trim();
  if (!text) return false;
  if (parsesAsJson(text)) return true;
  const lines = nonBlank(code);
  return lines.length > 1 && lines.every((l) => /^[[{]/.test(l) && parsesAsJson(l));
}

/**
 * Command-line tools an answer shows next to AVAP (how to call the API, run
 * the CLI, install something). A line is a command only when the name is
 * followed by whitespace and an argument that is not `=` or `(`.
 */
const SHELL_COMMANDS = [
  'curl',
  'wget',
  'http',
  'https',
  'httpie',
  'grpcurl',
  'npm',
  'npx',
  'node',
  'yarn',
  'pnpm',
  'avap',
  'git',
  'docker',
  'kubectl',
  'cd',
  'ls',
  'cat',
  'echo',
  'ollama',
  'pip',
  'pip3',
  'python',
  'python3',
  'apt',
  'apt-get',
  'brew',
  'chmod',
  'mkdir',
  'rm',
  'cp',
  'mv',
  'ssh',
  'scp',
  'tar',
  'make',
];
const COMMAND = new RegExp(`^(sudo\\s+)?(${SHELL_COMMANDS.join('|').replace(/-/g, '\\-')})\\s+(?![=(])\\S`);
/** `export NAME=value`: the shell's form (no spaces around `=`), never a JavaScript export. */
const EXPORT = /^export\s+[A-Za-z_][A-Za-z0-9_]*=\S*$/;
/** A prompt: `$ ` or `% ` before the command. */
const PROMPT = /^[$%]\s+\S/;

function isShell(code: string): boolean {
  const lines = code.split(/\r\n?|\n/);
  let commands = 0;
  let continued = false;
  for (const raw of lines) {
    const line = raw.trim();
    const continuation = continued;
    continued = line.endsWith('\\');
    if (!line || continuation) continue;
    if (line.startsWith('#')) {
      // A comment never continues onto the next line.
      continued = false;
      continue;
    }
    if (!(COMMAND.test(line) || EXPORT.test(line) || PROMPT.test(line))) return false;
    commands += 1;
  }
  return commands > 0;
}

const REQUEST_LINE = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+\S+(\s+HTTP\/\d(\.\d)?)?$/;
const STATUS_LINE = /^HTTP\/\d(\.\d)?\s+\d{3}\b.*$/;
const HEADER = /^[A-Za-z0-9-]+:\s*\S.*$/;

/** A request or status line, then headers, then (after a blank line) nothing or JSON. */
function isHttp(code: string): boolean {
  const lines = code.trim().split(/\r\n?|\n/);
  const first = lines[0]?.trim() ?? '';
  if (!REQUEST_LINE.test(first) && !STATUS_LINE.test(first)) return false;
  let i = 1;
  while (i < lines.length && (lines[i] ?? '').trim() !== '') {
    if (!HEADER.test((lines[i] ?? '').trim())) return false;
    i += 1;
  }
  const body = lines.slice(i).join('\n').trim();
  return body === '' || isJson(body);
}

function isMarkup(code: string): boolean {
  const lines = nonBlank(code);
  return lines.length > 0 && lines.every((l) => /^<[/!?A-Za-z][^]*>$/.test(l));
}

/** Every line one hexadecimal token of 16 characters or more, with a digit in it (a printed hash). */
function isDigest(code: string): boolean {
  const lines = nonBlank(code);
  return lines.length > 0 && lines.every((l) => /^[0-9a-fA-F]{16,}$/.test(l) && /\d/.test(l));
}

/** What the block plainly is when it is not AVAP; undefined when it may be AVAP (the parser decides). */
export function plainlyNotAvap(code: string): NotAvapKind | undefined {
  if (isJson(code)) return 'json';
  if (isHttp(code)) return 'http';
  if (isShell(code)) return 'shell';
  if (isMarkup(code)) return 'markup';
  if (isDigest(code)) return 'digest';
  return undefined;
}

/**
 * Whether a block that is still streaming could turn out plainly not AVAP:
 * its first line already has one of those shapes (a JSON opening, a command,
 * a request line, a tag). Findings on such a block are not evidence against
 * the answer's AVAP until the block is complete and classified.
 * @internal
 */
export function mayBeNotAvap(prefix: string): boolean {
  const first = nonBlank(prefix)[0];
  if (first === undefined) return false;
  return (
    /^[[{"]/.test(first) ||
    REQUEST_LINE.test(first) ||
    STATUS_LINE.test(first) ||
    COMMAND.test(first) ||
    EXPORT.test(first) ||
    PROMPT.test(first) ||
    /^<[/!?A-Za-z]/.test(first) ||
    plainlyNotAvap(prefix) !== undefined
  );
}

/** A streamed finding that is evidence against the answer's AVAP: its block cannot turn out to be plainly something else. */
export function isAvapFinding<T extends { code: string }>(finding: T | undefined): finding is T {
  return finding !== undefined && !mayBeNotAvap(finding.code);
}

/** How `run` shows a run: text (status, response body, error and portability notes) or one JSON object. */
import type { RunResult } from '../../runtime/host';

/** `--json`: exactly these keys, `error` null when the run completed. */
export function runJson(result: RunResult): Record<string, unknown> {
  return {
    status: result.status,
    result: result.result,
    variables: result.variables,
    logs: result.logs,
    error: result.error ?? null,
    portability: result.portability,
  };
}

function describeError(error: NonNullable<RunResult['error']>): string {
  const where = error.line > 0 ? `line ${error.line}${error.command ? ` (${error.command})` : ''}: ` : '';
  return `${where}${error.message} [${error.code}]`;
}

/** Text mode: `HTTP <status>` and the response body on stdout; the error and portability notes for stderr. */
export function runText(result: RunResult): { stdout: string; stderr: string } {
  const stdout = `HTTP ${result.status}\n${JSON.stringify(result.result, null, 2)}\n`;
  const notes = result.portability.map(
    (p) => `portability: line ${p.line}: ${p.rule} — the specification: ${p.spec}; AVAP Lite: ${p.reference}\n`,
  );
  const error = result.error ? [`error: ${describeError(result.error)}\n`] : [];
  return { stdout, stderr: [...error, ...notes].join('') };
}

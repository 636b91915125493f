/**
 * Running the Testing view's AVAP cases: every case asked for goes to the sandbox's pool at once (it queues
 * them), each judged by the rules of `avap test` (src/runs/judge.ts). A failure is a TestMessage.diff — the
 * expected fields against what the run gave for them — placed on the program line that produced the first wrong
 * value when the run's trace tells it, else on the case. A test file that does not read, or a case the sandbox
 * refuses, marks its cases errored with the reason. The gutter icons are VS Code's, from these outcomes.
 */
import * as vscode from 'vscode';
import type { Failure, Result } from '../../result';
import type { RunPool, TestCase } from '../../runtime/host';
import { caseSandbox } from '../../runtime/host';
import { allowList, judgeCase, loadTestCases, type RunSettings } from '../../runs';
import { SETTINGS } from '../../surface';
import type { OutputLog } from '../output/outputLog';
import type { TestSummary } from './bundleApi';
import { readBeside, textOf } from './files';
import type { AvapTests } from './testsView';

/** The first steps a case's run records (enough to place a wrong value; the rest are counted). */
const CASE_TRACE_STEPS = 20_000;

export interface TestRunDeps {
  tests: AvapTests;
  pool: () => Result<RunPool, Failure>;
  settings: () => RunSettings;
  output: OutputLog;
}

/** The case items a request names: a file item stands for its cases; excluded items are left out. */
async function casesOf(tests: AvapTests, request: vscode.TestRunRequest): Promise<vscode.TestItem[]> {
  if (!request.include) await tests.discover();
  const roots: vscode.TestItem[] = request.include ? [...request.include] : [];
  if (!request.include) tests.controller.items.forEach((item) => roots.push(item));
  const excluded = new Set((request.exclude ?? []).map((item) => item.id));
  const out: vscode.TestItem[] = [];
  for (const root of roots) {
    if (excluded.has(root.id)) continue;
    if (tests.caseData(root)) {
      out.push(root);
      continue;
    }
    const file = tests.testFileOf(root);
    const fresh = file ? await tests.refresh(file) : root;
    fresh?.children.forEach((child) => {
      if (!excluded.has(child.id)) out.push(child);
    });
  }
  return out;
}

interface FileRun {
  testFile: vscode.Uri;
  program: vscode.Uri;
  items: { item: vscode.TestItem; index: number }[];
}

function lineRange(doc: vscode.TextDocument | undefined, line: number): vscode.Range {
  const text = doc && line <= doc.lineCount ? doc.lineAt(line - 1).text : '';
  return new vscode.Range(line - 1, 0, line - 1, text.length);
}

export async function runTestRequest(
  deps: TestRunDeps,
  request: vscode.TestRunRequest,
  token: vscode.CancellationToken,
): Promise<TestSummary> {
  const { tests } = deps;
  const run = tests.controller.createTestRun(request, undefined, true);
  const summary: TestSummary = { total: 0, passed: 0, failed: 0, errored: 0 };
  const controller = new AbortController();
  const cancel = token.onCancellationRequested(() => controller.abort());
  try {
    const items = await casesOf(tests, request);
    summary.total = items.length;
    const byFile = new Map<string, FileRun>();
    for (const item of items) {
      const data = tests.caseData(item);
      if (!data) continue;
      run.enqueued(item);
      const key = data.testFile.toString();
      const entry = byFile.get(key) ?? { testFile: data.testFile, program: data.program, items: [] };
      entry.items.push({ item, index: data.index });
      byFile.set(key, entry);
    }
    const errored = (item: vscode.TestItem, message: string, location?: vscode.Location) => {
      const m = new vscode.TestMessage(message);
      if (location) m.location = location;
      run.errored(item, m);
      run.appendOutput(`ERROR ${item.label}: ${message}\r\n`, undefined, item);
      summary.errored++;
    };
    const pool = deps.pool();
    const allow = allowList(deps.settings());
    await Promise.all(
      [...byFile.values()].map(async (file) => {
        const where = (item: vscode.TestItem) =>
          new vscode.Location(file.testFile, item.range ?? new vscode.Range(0, 0, 0, 0));
        if (!pool.ok) return file.items.forEach(({ item }) => errored(item, pool.error.message));
        if (!allow.ok)
          return file.items.forEach(({ item }) =>
            errored(item, `${SETTINGS.run.allowHttp.key}: ${allow.error.message}`),
          );
        const [text, source] = await Promise.all([textOf(file.testFile), textOf(file.program)]);
        if (source === undefined)
          return file.items.forEach(({ item }) => errored(item, `cannot read the program ${file.program.fsPath}`));
        const cases: Result<TestCase[], Failure> =
          text === undefined
            ? { ok: false, error: { kind: 'bad-test-file', message: 'the test file cannot be read' } }
            : await loadTestCases(text, readBeside(file.testFile));
        if (!cases.ok) return file.items.forEach(({ item }) => errored(item, cases.error.message, where(item)));
        const programDoc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === file.program.toString());
        await Promise.all(
          file.items.map(async ({ item, index }) => {
            const testCase = cases.value[index];
            if (!testCase) return errored(item, `the test file has no case ${index} any more`, where(item));
            if (controller.signal.aborted) return run.skipped(item);
            run.started(item);
            const started = Date.now();
            const result = await pool.value.run({
              source,
              request: testCase.request,
              sandbox: { allowHttp: allow.value, ...caseSandbox(testCase) },
              trace: true,
              maxTraceSteps: CASE_TRACE_STEPS,
              signal: controller.signal,
            });
            const duration = Date.now() - started;
            if (result.error?.code === 'cancelled' && controller.signal.aborted) return run.skipped(item);
            const verdict = judgeCase(testCase, result, source);
            if (verdict.passed) {
              run.passed(item, duration);
              run.appendOutput(`ok    ${item.label}\r\n`, undefined, item);
              summary.passed++;
              return;
            }
            const message = vscode.TestMessage.diff(verdict.failures.join('\n'), verdict.expected, verdict.actual);
            message.location =
              verdict.line !== undefined
                ? new vscode.Location(file.program, lineRange(programDoc, verdict.line))
                : where(item);
            run.failed(item, message, duration);
            run.appendOutput(
              `FAIL  ${item.label}\r\n      ${verdict.failures.join('\r\n      ')}\r\n`,
              undefined,
              item,
            );
            summary.failed++;
          }),
        );
      }),
    );
    deps.output.info(
      `tests: ${summary.passed} passed, ${summary.failed} failed${summary.errored ? `, ${summary.errored} could not run` : ''}`,
    );
    return summary;
  } finally {
    cancel.dispose();
    run.end();
  }
}

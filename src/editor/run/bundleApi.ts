/**
 * The seam between the editor features (./register.ts, started after activation: commands, the Run lens, the
 * Testing view's items) and the runner bundle (./runner.ts, built to dist/runner.js and loaded on the first run:
 * the sandbox's worker pool, the result view, values in the code, run-time diagnostics, test runs). Types only.
 */
import type * as vscode from 'vscode';
import type { RunError } from '../../runtime/host';
import type { OutputLog } from '../output/outputLog';
import type { EditorSettings } from '../settings/editorSettings';
import type { AvapTests } from './testsView';
import type { UriLike } from './files';

export interface RunnerHost {
  readonly context: vscode.ExtensionContext;
  readonly output: OutputLog;
  settings(): EditorSettings;
  readonly tests: AvapTests;
}

/** AVAP: Run File's arguments (all optional: the active editor's document). */
export interface RunArgs {
  /** The document to run. */
  uri?: UriLike;
  /** Code to run instead of a document's (a chat code block); `uri`/`requestFrom` then only give the request. */
  source?: string;
  /** The result view's title for `source` runs (`chat block 2`). */
  title?: string;
  /** Whose request file to use for `source` runs. */
  requestFrom?: UriLike;
  /** Runs without the progress notification and without revealing the result view (tests of the extension). */
  quiet?: boolean;
}

/** What a run came to (the command resolves with it). */
export interface RunOutcome {
  status: number;
  result: Record<string, unknown>;
  error?: RunError;
  /** The document run (undefined for a chat block). */
  uri?: string;
  /** The request, in one line (`GET ?age=30`). */
  request: string;
  durationMs: number;
  /** Lines that show values now. */
  valueLines: number[];
}

/** The outcome of a file's cases (AVAP: Run the File's Test Cases, and the pending change's badge). */
export interface TestSummary {
  total: number;
  passed: number;
  failed: number;
  /** Cases that could not run (a test file that does not read, a case the sandbox refuses). */
  errored: number;
}

/** What the result view shows, as the e2e tests read it from its DOM. */
export interface RunViewProbe {
  title: string;
  status: string;
  request: string;
  body: string;
  error: string;
  logs: string[];
  portability: string[];
  steps: string[];
  running: boolean;
  /** Folding handles (▸/▾) in the response tree. */
  folds: number;
}

export interface RunTestHooks {
  probe(): Promise<RunViewProbe>;
  /** Clicks, in the result view, the first button or link whose text starts with `label`. */
  click(label: string): Promise<boolean>;
}

export interface Runner {
  runFile(args?: RunArgs): Promise<RunOutcome | undefined>;
  editRequest(args?: { uri?: UriLike }): Promise<string | undefined>;
  addCaseFromLastRun(args?: { uri?: UriLike; name?: string }): Promise<{ testFile: string; name: string } | undefined>;
  runTests(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<TestSummary>;
  testFile(args?: { uri?: UriLike }): Promise<TestSummary | undefined>;
  readonly testing: RunTestHooks | undefined;
  dispose(): Promise<void>;
}

/** The runner bundle's module: src/editor/run/runner.ts, built to dist/runner.js. */
export interface RunnerBundle {
  startRunner(host: RunnerHost): Runner;
}

/**
 * Asks the runner (outside the extension host) to look at the workbench in the
 * browser: a screenshot into test-output/ and DOM facts (squiggles, status bar).
 * support/webviews.ts reaches the extension's webviews the same way.
 */
import { existsSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { e2eConfig } from './config';

export interface StatusItemFacts {
  id: string;
  text: string;
  ariaLabel: string;
  className: string;
  icons: string[];
  background: string;
}

export interface WorkbenchFacts {
  ok: boolean;
  error?: string;
  squigglyErrors: number;
  squigglyWarnings: number;
  codeLenses: string[];
  /** The colour of each token text in the active editor (first occurrence), e.g. { addParam: 'rgb(…)' }. */
  editorTokenColors: Record<string, string>;
  statusItems: StatusItemFacts[];
  /** The signature help widget's text ('' when it is not on screen). */
  parameterHints: string;
  /** The rows of the Outline view, when it is open. */
  outlineRows: string[];
  /** The texts of the notification toasts on screen (message and buttons). */
  notifications: string[];
  /** The titles of the editor tabs on screen (as the workbench shows them: "Walkthrough: …" for walkthroughs). */
  editorTabs: string[];
  /** Text drawn after line ends in the active editor (decorations' `after`): values in the code after a run. */
  afterDecorations: string[];
  /** The Testing view's rows: each one's text, then ` — ` and its accessible label (which names its state). */
  testingRows: string[];
  /** The Testing peek on an editor: its title, the diff editors in it (TestMessage.diff), its text. */
  testingPeek: { title: string; diffEditors: number; text: string }[];
  /** Test outcome icons in the active editor's gutter (codicon-testing-passed-icon, codicon-testing-failed-icon, …). */
  testingGlyphs: string[];
  /** Each notification's severity (error, warning, info), in the order of `notifications`. */
  notificationSeverities: ('error' | 'warning' | 'info')[];
  screenshotPath?: string;
  /** The addresses of the browser tabs the workbench opened so far (links opened with env.openExternal). */
  openedPages: string[];
  /** alert/confirm/prompt dialogs seen in the browser so far. */
  dialogs: number;
  /** Frames (webviews included) where window.__avapXss is set. */
  xssMarkers: number;
}

let counter = 0;

/**
 * A key pressed (Playwright's names: `F12`, `Control+Space`) or text typed, then a wait: for `until` (a CSS
 * selector, visible within 15 s — what the key opens) or else until the workbench is quiet.
 */
export interface KeyStep {
  press?: string;
  type?: string;
  until?: string;
}

/**
 * `viewport`: the browser window's size for this capture (restored after it), e.g. to see a view at sidebar width.
 * `keys`: pressed and typed into the focused part of the workbench first, as a developer would.
 */
export async function captureWorkbench(
  options: {
    screenshot?: string;
    viewport?: { width: number; height: number };
    keys?: KeyStep[];
  } = {},
): Promise<WorkbenchFacts> {
  return askRunner<WorkbenchFacts>(options, 'capture');
}

/** One request to the runner through the bridge directory; its answer, or an error when it failed. */
export async function askRunner<T extends { ok: boolean; error?: string }>(request: unknown, what: string): Promise<T> {
  const { bridgeDir } = e2eConfig();
  const id = `${Date.now()}-${++counter}`;
  const file = path.join(bridgeDir, `${id}.request.json`);
  writeFileSync(`${file}.tmp`, JSON.stringify(request));
  renameSync(`${file}.tmp`, file);
  const response = path.join(bridgeDir, `${id}.response.json`);
  const deadline = Date.now() + 30_000;
  while (!existsSync(response)) {
    if (Date.now() > deadline) throw new Error(`the runner did not answer the ${what} request within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const answer = JSON.parse(readFileSync(response, 'utf8')) as T;
  if (!answer.ok) throw new Error(`${what} failed: ${answer.error}`);
  return answer;
}

/** The AVAP status bar item as the browser shows it. */
export function avapStatusItem(facts: WorkbenchFacts): StatusItemFacts | undefined {
  return facts.statusItems.find((item) => item.id.includes('avap.validationStatus') || item.text.startsWith('AVAP:'));
}

/**
 * Captures until `check` holds (the workbench has painted what the test waits for), at most `timeoutMs`; returns
 * the last capture either way, so the test's own assertions say what was missing. The screenshot is of that one.
 */
export async function captureUntil(
  check: (facts: WorkbenchFacts) => boolean,
  options: { screenshot?: string; timeoutMs?: number; notificationCentre?: boolean } = {},
): Promise<WorkbenchFacts> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const facts = await captureWorkbench();
    const done = check(facts) || Date.now() > deadline;
    if (done) return options.screenshot ? captureWorkbench({ screenshot: options.screenshot }) : facts;
    // A toast the workbench has already tucked away is still in the notification centre: show it there.
    if (options.notificationCentre) await vscode.commands.executeCommand('notifications.showList');
  }
}

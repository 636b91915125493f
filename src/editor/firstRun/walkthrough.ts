/**
 * First run: the "Get Started with AVAP Assistant" walkthrough
 * (`contributes.walkthroughs`, steps in media/walkthrough/) and the two
 * entry-side pieces it needs — opening the walkthrough once, on the first
 * activation in a profile, and **AVAP: Open an Example**. (Check Ollama, which
 * needs the Ollama client, lives in the assistant bundle: ./checkOllamaCommand.ts.)
 */
import * as vscode from 'vscode';
import type { OutputLog } from '../output/outputLog';
import { COMMANDS } from '../commandIds';
import { isWelcomeTab, MovedOn, type TabLike } from './movedOn';

/** The walkthrough's id in package.json; the workbench knows it as `<extension id>#avap.welcome`. */
export const WALKTHROUGH = 'avap.welcome';
export const OPEN_EXAMPLE_COMMAND = COMMANDS.openExample.id;
export const OPEN_WALKTHROUGH_COMMAND = COMMANDS.openWalkthrough.id;
const SHOWN_KEY = 'avap.walkthrough.shown';
/** How long after its first Welcome editor the workbench has registered the extensions' walkthroughs. */
const WALKTHROUGHS_REGISTERED_MS = 6000;
/** How long the Welcome editor gets to show ours after being asked again in place. */
const REPOINT_MS = 1500;
/** The tab label of our walkthrough (its title in contributes.walkthroughs). */
const WALKTHROUGH_TAB = 'Walkthrough: AVAP Assistant';

export function walkthroughId(context: vscode.ExtensionContext): string {
  return `${context.extension.id}#${WALKTHROUGH}`;
}

/**
 * Opens the walkthrough. Beside the file it opens without taking the focus (`toSide` implies `preserveFocus`);
 * `inactive` also leaves the group's active editor as it is when the Welcome editor is opened anew.
 */
function openWalkthrough(
  context: vscode.ExtensionContext,
  where: boolean | { toSide: boolean; inactive?: boolean },
): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openWalkthrough', walkthroughId(context), where);
}

const asTabLike = (tab: vscode.Tab): TabLike => ({ label: tab.label, hasInput: tab.input !== undefined });

/** The workbench's Welcome editor (walkthroughs): the API shows it as a tab with no input it knows. */
function welcomeTab(label?: (label: string) => boolean): vscode.Tab | undefined {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .find((tab) => isWelcomeTab(asTabLike(tab)) && (label?.(tab.label) ?? true));
}

const showsOurs = (label: string) => label === WALKTHROUGH_TAB;

/** Follows what the developer does meanwhile (see ./movedOn.ts), until disposed. */
function watchMovingOn(): vscode.Disposable & { movedOn: MovedOn } {
  const movedOn = new MovedOn(vscode.window.activeTextEditor?.document.uri.toString());
  const subscriptions = [
    vscode.window.tabGroups.onDidChangeTabs((e) => movedOn.tabs(e.opened.map(asTabLike), e.closed.map(asTabLike))),
    vscode.window.onDidChangeActiveTextEditor((editor) => movedOn.activeEditor(editor?.document.uri.toString())),
    vscode.window.onDidChangeTextEditorSelection((e) => movedOn.selection(e.kind !== undefined)),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.contentChanges.length > 0) movedOn.edit(e.document.uri.scheme);
    }),
    vscode.window.onDidOpenTerminal(() => movedOn.terminal()),
    vscode.window.onDidChangeActiveTerminal((terminal) => {
      if (terminal) movedOn.terminal();
    }),
  ];
  return {
    movedOn,
    dispose: () => {
      for (const s of subscriptions) s.dispose();
    },
  };
}

/** Resolves true when a Welcome tab shows our walkthrough (its label says so), false after `ms`. */
function welcomeShowsWalkthrough(ms: number): Promise<boolean> {
  if (welcomeTab(showsOurs)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (shown: boolean) => {
      clearTimeout(timer);
      sub.dispose();
      resolve(shown);
    };
    const sub = vscode.window.tabGroups.onDidChangeTabs(() => {
      if (welcomeTab(showsOurs)) done(true);
    });
    const timer = setTimeout(() => done(false), ms);
  });
}

/**
 * First run. The workbench's walkthrough service starts with the first Welcome editor and registers the
 * extensions' walkthroughs some seconds later (it waits up to 5 s for an experiment service); a walkthrough
 * asked for before then opens VS Code's own instead. So: open it beside the file, and once the registration is
 * surely done, point the Welcome editor at ours — only if the developer has not moved on meanwhile (another
 * file, a tab, the cursor, a terminal: ./movedOn.ts), and never taking the focus: first in place (asking again
 * while the Welcome editor is up re-renders it, no editor opens), else a fresh Welcome editor opened inactive.
 * Resolves with what was done, for the log.
 */
async function openOnFirstRun(context: vscode.ExtensionContext): Promise<string> {
  const SHOWN = 'the Get Started walkthrough is open';
  const CLOSED = 'the Welcome editor was closed; the walkthrough is not brought back (Help › Welcome)';
  const watch = watchMovingOn();
  try {
    await openWalkthrough(context, { toSide: true });
    await new Promise((resolve) => setTimeout(resolve, WALKTHROUGHS_REGISTERED_MS));
    if (welcomeTab(showsOurs)) return SHOWN;
    if (!welcomeTab()) return CLOSED;
    const movedOn = () =>
      watch.movedOn.why && `the walkthrough is not brought back: the developer has moved on (${watch.movedOn.why})`;
    const before = movedOn();
    if (before) return before;
    await openWalkthrough(context, { toSide: true, inactive: true });
    if (await welcomeShowsWalkthrough(REPOINT_MS)) return SHOWN;
    const after = movedOn();
    if (after) return after;
    const still = welcomeTab();
    if (!still) return CLOSED;
    await vscode.window.tabGroups.close(still, true);
    await openWalkthrough(context, { toSide: true, inactive: true });
    return `${SHOWN} (a fresh Welcome editor, opened without the focus)`;
  } finally {
    watch.dispose();
  }
}

export function registerFirstRun(context: vscode.ExtensionContext, output: OutputLog): vscode.Disposable {
  // Once per profile, beside the file that activated the extension. Not in test runs, where tests open it themselves.
  if (context.extensionMode !== vscode.ExtensionMode.Test && !context.globalState.get<boolean>(SHOWN_KEY)) {
    void context.globalState.update(SHOWN_KEY, true);
    void openOnFirstRun(context).then(
      (what) => output.info(`first run: ${what}`),
      (err: unknown) =>
        output.warn(
          `first run: the walkthrough could not be opened: ${err instanceof Error ? err.message : String(err)}`,
        ),
    );
  }
  return vscode.Disposable.from(
    vscode.commands.registerCommand(OPEN_WALKTHROUGH_COMMAND, () => openWalkthrough(context, false)),
    vscode.commands.registerCommand(OPEN_EXAMPLE_COMMAND, () => openExample(context, output)),
  );
}

interface ExamplePick extends vscode.QuickPickItem {
  uri: vscode.Uri;
  bundled: boolean;
}

/**
 * Lets the developer pick an example: the workspace's .avap files when it has
 * some (`npm start` seeds its workspace with examples/), else the examples the
 * extension ships, opened as untitled copies so nothing edits the installation.
 * Resolves with the opened document's URI (undefined when dismissed).
 */
async function openExample(context: vscode.ExtensionContext, output: OutputLog): Promise<vscode.Uri | undefined> {
  try {
    const inWorkspace = await vscode.workspace.findFiles('**/*.avap', '**/node_modules/**', 50);
    let picks: ExamplePick[];
    if (inWorkspace.length > 0) {
      picks = inWorkspace
        .map((uri) => ({ label: vscode.workspace.asRelativePath(uri), description: 'workspace', uri, bundled: false }))
        .sort((a, b) => a.label.localeCompare(b.label));
    } else {
      const dir = vscode.Uri.joinPath(context.extensionUri, 'examples');
      const entries = await vscode.workspace.fs.readDirectory(dir);
      picks = entries
        .filter(([name, type]) => type === vscode.FileType.File && name.endsWith('.avap'))
        .map(([name]) => ({
          label: name,
          description: 'example shipped with the extension',
          uri: vscode.Uri.joinPath(dir, name),
          bundled: true,
        }))
        .sort((a, b) => a.label.localeCompare(b.label));
    }
    if (picks.length === 0) {
      void vscode.window.showWarningMessage(
        'AVAP: no example found (neither .avap files in the workspace nor examples in the extension).',
      );
      return undefined;
    }
    const picked =
      picks.length === 1
        ? picks[0]
        : await vscode.window.showQuickPick(picks, {
            title: 'AVAP: Open an Example',
            placeHolder: 'An AVAP program to open',
          });
    if (!picked) return undefined;
    const document = picked.bundled
      ? await vscode.workspace.openTextDocument({
          language: 'avap',
          content: new TextDecoder().decode(await vscode.workspace.fs.readFile(picked.uri)),
        })
      : await vscode.workspace.openTextDocument(picked.uri);
    await vscode.window.showTextDocument(document, { preview: false });
    return document.uri;
  } catch (err) {
    output.warn(`open an example: ${err instanceof Error ? err.message : String(err)}`);
    void vscode.window.showErrorMessage(
      `AVAP: the example could not be opened — ${err instanceof Error ? err.message : String(err)}`,
    );
    return undefined;
  }
}

/**
 * First run: the "Get Started with AVAP Assistant" walkthrough
 * (`contributes.walkthroughs`, steps in media/walkthrough/) and the two
 * entry-side pieces it needs — offering the walkthrough once, on the first
 * activation in a profile, and **AVAP: Open an Example**. (Check Ollama, which
 * needs the Ollama client, lives in the assistant bundle: ./checkOllamaCommand.ts.)
 *
 * Activation never opens an editor: the file that activated the extension stays the active editor, with its
 * status item, Ctrl+I and Fix All. The first run is a notification with a *Get Started* button; the
 * walkthrough opens when the developer asks for it there, with **AVAP: Get Started**, or from the Welcome page
 * (`featuredFor: **\/*.avap`).
 */
import * as vscode from 'vscode';
import type { OutputLog } from '../output/outputLog';
import { COMMANDS } from '../commandIds';
import { isWelcomeTab, MovedOn, type TabLike } from './movedOn';

/** The walkthrough's id in package.json; the workbench knows it as `<extension id>#avap.welcome`. */
const WALKTHROUGH = 'avap.welcome';
const SHOWN_KEY = 'avap.walkthrough.shown';
/** The first-run notification and its one button. */
const FIRST_RUN_MESSAGE =
  'AVAP Assistant is on: .avap files are checked by the AVAP parser as you type. New here? Get Started checks that ' +
  'Ollama is ready and shows how to generate validated code at the cursor.';
const GET_STARTED = 'Get Started';
/** How long the workbench may take to register the extensions' walkthroughs (it waits up to 5 s for an experiment service). */
const WALKTHROUGHS_REGISTERED_MS = 10_000;
/** How long the Welcome editor gets to show ours after each ask. */
const REPOINT_MS = 2000;
/** The tab label of our walkthrough (its title in contributes.walkthroughs). */
const WALKTHROUGH_TAB = 'Walkthrough: AVAP Assistant';

function walkthroughId(context: vscode.ExtensionContext): string {
  return `${context.extension.id}#${WALKTHROUGH}`;
}

/** Opens the walkthrough in the active editor group, with the focus: only ever because the developer asked. */
function openWalkthrough(context: vscode.ExtensionContext): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openWalkthrough', walkthroughId(context), false);
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
function watchMovingOn(startUri: string | undefined): vscode.Disposable & { movedOn: MovedOn } {
  const movedOn = new MovedOn(startUri);
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

/** Whether the Welcome editor is the active tab of the active group: the one the developer is looking at. */
function welcomeIsActive(): boolean {
  const active = vscode.window.tabGroups.activeTabGroup.activeTab;
  return active !== undefined && isWelcomeTab(asTabLike(active));
}

/**
 * The walkthrough, because the developer asked for it (the first-run notification's button, AVAP: Get Started).
 * The workbench registers the extensions' walkthroughs some seconds after it starts; asked for before then, the
 * Welcome editor shows VS Code's own walkthrough instead, and asking again while it shows one does nothing. So,
 * until ours shows: close that Welcome editor and open ours afresh — only while the Welcome editor is the active
 * tab and the developer has not moved on (another file, a tab, the cursor, a terminal: ./movedOn.ts), so that
 * this never takes an editor or the focus from anything but the Welcome editor they asked for.
 * Resolves with what happened, for the log.
 */
async function showWalkthrough(context: vscode.ExtensionContext): Promise<string> {
  const SHOWN = 'the Get Started walkthrough is open';
  // The file the developer was in: it shows again for a moment while the Welcome editor is replaced.
  const startUri = vscode.window.activeTextEditor?.document.uri.toString();
  await openWalkthrough(context);
  // Ours at once: the usual case, once the workbench has registered it.
  if (await welcomeShowsWalkthrough(REPOINT_MS)) return SHOWN;
  const watch = watchMovingOn(startUri);
  try {
    const deadline = Date.now() + WALKTHROUGHS_REGISTERED_MS;
    for (;;) {
      const welcome = welcomeTab();
      if (!welcome) return 'the Welcome editor was closed before it showed the walkthrough';
      if (!welcomeIsActive()) return 'the walkthrough is not asked for again: the Welcome editor is no longer active';
      const why = watch.movedOn.why;
      if (why) return `the walkthrough is not asked for again: the developer has moved on (${why})`;
      if (Date.now() > deadline) return 'the Welcome editor did not show the walkthrough (Help › Welcome lists it)';
      await vscode.window.tabGroups.close(welcome);
      await openWalkthrough(context);
      if (await welcomeShowsWalkthrough(REPOINT_MS)) return `${SHOWN} (asked for again once registered)`;
    }
  } finally {
    watch.dispose();
  }
}

/** The first run's one action: a notification; the walkthrough opens only from its button. Never opens an editor. */
async function offerWalkthrough(context: vscode.ExtensionContext, output: OutputLog): Promise<void> {
  output.info('first run: the Get Started walkthrough is offered in a notification (no editor is opened)');
  const choice = await vscode.window.showInformationMessage(FIRST_RUN_MESSAGE, GET_STARTED);
  if (choice !== GET_STARTED) return;
  output.info(`first run: ${await showWalkthrough(context)}`);
}

export function registerFirstRun(context: vscode.ExtensionContext, output: OutputLog): vscode.Disposable {
  // Once per profile, in every mode (the e2e suite dismisses it before its tests, as a user would); the
  // first-minute test answers it in a fresh profile with the packaged extension (test/browser/firstMinute.test.ts).
  if (!context.globalState.get<boolean>(SHOWN_KEY)) {
    void context.globalState.update(SHOWN_KEY, true);
    void offerWalkthrough(context, output).catch((err: unknown) =>
      output.warn(
        `first run: the walkthrough could not be opened: ${err instanceof Error ? err.message : String(err)}`,
      ),
    );
  }
  return vscode.Disposable.from(
    vscode.commands.registerCommand(COMMANDS.openWalkthrough.id, async () => {
      const what = await showWalkthrough(context);
      output.info(`Get Started: ${what}`);
      return what;
    }),
    vscode.commands.registerCommand(COMMANDS.openExample.id, () => openExample(context, output)),
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

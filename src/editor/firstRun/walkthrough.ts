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

/** The walkthrough's id in package.json; the workbench knows it as `<extension id>#avap.welcome`. */
export const WALKTHROUGH = 'avap.welcome';
export const OPEN_EXAMPLE_COMMAND = COMMANDS.openExample.id;
export const OPEN_WALKTHROUGH_COMMAND = COMMANDS.openWalkthrough.id;
const SHOWN_KEY = 'avap.walkthrough.shown';
/** How long after its first Welcome editor the workbench has registered the extensions' walkthroughs. */
const WALKTHROUGHS_REGISTERED_MS = 6000;

export function walkthroughId(context: vscode.ExtensionContext): string {
  return `${context.extension.id}#${WALKTHROUGH}`;
}

function openWalkthrough(context: vscode.ExtensionContext, toSide: boolean): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openWalkthrough', walkthroughId(context), toSide);
}

/** The workbench's Welcome editor (walkthroughs): the API shows it as a tab labelled "Welcome" with no input it knows. */
function welcomeTab(): vscode.Tab | undefined {
  return vscode.window.tabGroups.all.map((g) => g.activeTab).find((tab) => tab && tab.input === undefined && tab.label === 'Welcome');
}

/**
 * First run. The workbench's walkthrough service starts with the first Welcome editor and registers the
 * extensions' walkthroughs some seconds later (it waits up to 5 s for an experiment service); a walkthrough
 * asked for before then opens VS Code's own instead, and that editor keeps it. So: open it beside the file,
 * and once the registration is surely done, replace that Welcome editor with a fresh one, which shows ours.
 */
async function openOnFirstRun(context: vscode.ExtensionContext): Promise<void> {
  await openWalkthrough(context, true);
  await new Promise((resolve) => setTimeout(resolve, WALKTHROUGHS_REGISTERED_MS));
  const tab = welcomeTab();
  if (!tab) return; // closed meanwhile: the developer has seen it
  await vscode.window.tabGroups.close(tab, true);
  await openWalkthrough(context, true);
}

export function registerFirstRun(context: vscode.ExtensionContext, output: OutputLog): vscode.Disposable {
  // Once per profile, beside the file that activated the extension. Not in test runs, where tests open it themselves.
  if (context.extensionMode !== vscode.ExtensionMode.Test && !context.globalState.get<boolean>(SHOWN_KEY)) {
    void context.globalState.update(SHOWN_KEY, true);
    void openOnFirstRun(context).then(
      () => output.info('first run: the Get Started walkthrough is open'),
      (err: unknown) => output.warn(`first run: the walkthrough could not be opened: ${err instanceof Error ? err.message : String(err)}`),
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
        .map(([name]) => ({ label: name, description: 'example shipped with the extension', uri: vscode.Uri.joinPath(dir, name), bundled: true }))
        .sort((a, b) => a.label.localeCompare(b.label));
    }
    if (picks.length === 0) {
      void vscode.window.showWarningMessage('AVAP: no example found (neither .avap files in the workspace nor examples in the extension).');
      return undefined;
    }
    const picked = picks.length === 1 ? picks[0] : await vscode.window.showQuickPick(picks, { title: 'AVAP: Open an Example', placeHolder: 'An AVAP program to open' });
    if (!picked) return undefined;
    const document = picked.bundled
      ? await vscode.workspace.openTextDocument({ language: 'avap', content: new TextDecoder().decode(await vscode.workspace.fs.readFile(picked.uri)) })
      : await vscode.workspace.openTextDocument(picked.uri);
    await vscode.window.showTextDocument(document, { preview: false });
    return document.uri;
  } catch (err) {
    output.warn(`open an example: ${err instanceof Error ? err.message : String(err)}`);
    void vscode.window.showErrorMessage(`AVAP: the example could not be opened — ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

/**
 * The Testing view's AVAP tests (VS Code's TestController API): each program with a `NAME.avap.test.json` is an
 * item (its gutter icon on the program's first line), each case of that file a child (its icon on the case's
 * line in the test file). Items come from the files' text alone (src/runs/outline: names and places, nothing
 * that runs), so listing tests loads no runtime: the workspace is searched when the Testing view first asks,
 * and open documents and file changes keep the items current. Running them is the runner's (./runner.ts),
 * loaded on the first run.
 */
import * as vscode from 'vscode';
import { outlineTestFile, programOf, TEST_SUFFIX } from '../../runs/outline';
import { baseName, programUri, testFileUri, textOf } from './files';

/** What the runner needs to know about a case item. */
export interface CaseItemData {
  testFile: vscode.Uri;
  program: vscode.Uri;
  /** Its index in the file's `cases`. */
  index: number;
}

const TEST_CONTROLLER_ID = 'avap';

export class AvapTests implements vscode.Disposable {
  readonly controller: vscode.TestController;
  private readonly cases = new WeakMap<vscode.TestItem, CaseItemData>();
  private readonly files = new WeakMap<vscode.TestItem, vscode.Uri>();
  private readonly disposables: vscode.Disposable[] = [];
  private watching = false;
  private discovered: Promise<void> | undefined;

  constructor(run: (request: vscode.TestRunRequest, token: vscode.CancellationToken) => Promise<void>) {
    this.controller = vscode.tests.createTestController(TEST_CONTROLLER_ID, 'AVAP');
    this.controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, run, true);
    this.controller.resolveHandler = async (item) => {
      if (item) await this.refresh(this.files.get(item) ?? item.uri ?? vscode.Uri.parse(item.id));
      else await this.discover();
    };
    this.controller.refreshHandler = async () => {
      this.discovered = undefined;
      await this.discover();
    };
    this.disposables.push(
      this.controller,
      vscode.workspace.onDidOpenTextDocument((doc) => void this.opened(doc)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.path.endsWith(TEST_SUFFIX)) void this.refresh(e.document.uri);
      }),
    );
    for (const doc of vscode.workspace.textDocuments) void this.opened(doc);
  }

  /** A test file or a program opened: its cases are listed (and their gutter icons shown) without the view. */
  private async opened(doc: vscode.TextDocument): Promise<void> {
    if (doc.uri.path.endsWith(TEST_SUFFIX)) await this.refresh(doc.uri);
    else if (doc.languageId === 'avap' && (doc.uri.scheme === 'file' || doc.uri.scheme === 'vscode-remote')) {
      const tests = testFileUri(doc.uri);
      if (!this.controller.items.get(tests.toString())) await this.refresh(tests);
    }
  }

  /** Every test file of the workspace, once; then file changes are followed. */
  discover(): Promise<void> {
    this.discovered ??= (async () => {
      this.watch();
      const found = await vscode.workspace.findFiles(`**/*${TEST_SUFFIX}`, '**/node_modules/**');
      await Promise.all(found.map((uri) => this.refresh(uri)));
    })();
    return this.discovered;
  }

  private watch(): void {
    if (this.watching) return;
    this.watching = true;
    const watcher = vscode.workspace.createFileSystemWatcher(`**/*${TEST_SUFFIX}`);
    this.disposables.push(
      watcher,
      watcher.onDidCreate((uri) => void this.refresh(uri)),
      watcher.onDidChange((uri) => void this.refresh(uri)),
      watcher.onDidDelete((uri) => this.controller.items.delete(uri.toString())),
    );
  }

  /** (Re)reads one test file into its item and case items; a file that is gone takes its item with it. */
  async refresh(testFile: vscode.Uri): Promise<vscode.TestItem | undefined> {
    const program = programUri(testFile);
    if (!program || programOf(testFile.path) === undefined) return undefined;
    const text = await textOf(testFile);
    const id = testFile.toString();
    if (text === undefined) {
      this.controller.items.delete(id);
      return undefined;
    }
    let item = this.controller.items.get(id);
    if (!item) {
      item = this.controller.createTestItem(id, baseName(program), program);
      item.range = new vscode.Range(0, 0, 0, 0);
      item.description = baseName(testFile);
      this.files.set(item, testFile);
      this.controller.items.add(item);
    }
    const outline = outlineTestFile(text);
    if (!outline.ok) {
      // A file being typed keeps its cases until it reads again; the error says where it stops.
      item.error = `${baseName(testFile)}, line ${outline.error.at.line + 1}: ${outline.error.message}`;
      return item;
    }
    item.error = undefined;
    const children: vscode.TestItem[] = [];
    for (const one of outline.value.cases) {
      const child =
        item.children.get(`${id}#${one.name}`) ??
        this.controller.createTestItem(`${id}#${one.name}`, one.name, testFile);
      child.range = new vscode.Range(one.from.line, one.from.character, one.to.line, one.to.character);
      this.cases.set(child, { testFile, program, index: one.index });
      children.push(child);
    }
    item.children.replace(children);
    return item;
  }

  caseData(item: vscode.TestItem): CaseItemData | undefined {
    return this.cases.get(item);
  }

  testFileOf(item: vscode.TestItem): vscode.Uri | undefined {
    return this.files.get(item);
  }

  /** The item of a program's test file (read now), or undefined when the program has none. */
  itemForProgram(program: vscode.Uri): Promise<vscode.TestItem | undefined> {
    return this.refresh(program.path.endsWith(TEST_SUFFIX) ? program : testFileUri(program));
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

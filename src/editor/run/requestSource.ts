/**
 * The request a document runs with: its `NAME.avap.request.json` (read as the developer sees it, unsaved edits
 * included), else — for an untitled document — the request file the developer opened for it with *Edit Run
 * Request…* or, for an untitled copy of an example the extension ships (AVAP: Open an Example), that example's;
 * else a GET without parameters. A request file that does not read is an error that names the field: nothing is
 * run with a request other than the one written.
 */
import * as vscode from 'vscode';
import { ok, type Failure, type Result } from '../../result';
import { defaultSetup, describeRequest, loadRunSetup, type RunSetup } from '../../runs';
import { readBeside, requestFileUri, textOf } from './files';

export interface RequestSource {
  setup: RunSetup;
  /** The request file's fields as written (what a test case made from the run keeps), undefined without one. */
  fields: Record<string, unknown> | undefined;
  /** Where they came from (undefined: the default GET). */
  file?: vscode.Uri;
  /** One line: `GET ?age=30`. */
  summary: string;
}

export type BadRequest = Failure<'bad-request-file'> & { file: vscode.Uri };

/** Request files opened for untitled documents, by the document's URI (kept for the session). */
export const untitledRequests = new Map<string, vscode.Uri>();

async function bundledExampleRequest(
  doc: vscode.TextDocument,
  extensionUri: vscode.Uri,
): Promise<vscode.Uri | undefined> {
  const dir = vscode.Uri.joinPath(extensionUri, 'examples');
  let entries: [string, vscode.FileType][];
  try {
    entries = await vscode.workspace.fs.readDirectory(dir);
  } catch {
    return undefined;
  }
  const text = doc.getText();
  for (const [name] of entries.filter(([n]) => n.endsWith('.avap'))) {
    const example = vscode.Uri.joinPath(dir, name);
    // The same text as a shipped example, byte for byte: a copy Open an Example made.
    if ((await textOf(example)) !== text) continue;
    const request = requestFileUri(example);
    return (await textOf(request)) === undefined ? undefined : request;
  }
  return undefined;
}

/** Where a document's request file is (or would be). Untitled documents have none unless one was opened for them. */
async function requestFileFor(
  doc: vscode.TextDocument | undefined,
  program: vscode.Uri | undefined,
  extensionUri: vscode.Uri,
): Promise<vscode.Uri | undefined> {
  if (!program) return undefined;
  if (program.scheme !== 'untitled') return requestFileUri(program);
  const kept = untitledRequests.get(program.toString());
  if (kept && vscode.workspace.textDocuments.some((d) => d.uri.toString() === kept.toString() && !d.isClosed))
    return kept;
  return doc ? bundledExampleRequest(doc, extensionUri) : undefined;
}

export async function requestFor(
  doc: vscode.TextDocument | undefined,
  program: vscode.Uri | undefined,
  extensionUri: vscode.Uri,
): Promise<Result<RequestSource, BadRequest>> {
  const file = await requestFileFor(doc, program, extensionUri);
  const text = file ? await textOf(file) : undefined;
  if (!file || text === undefined) {
    const setup = defaultSetup();
    return ok({ setup, fields: undefined, summary: describeRequest(setup) });
  }
  const loaded = await loadRunSetup(text, readBeside(file));
  if (!loaded.ok) return { ok: false, error: { ...loaded.error, file } };
  // The text read as JSON above; its fields as written go into a test case made from the run.
  const fields = JSON.parse(text) as Record<string, unknown>;
  return ok({ setup: loaded.value, fields, file, summary: describeRequest(loaded.value) });
}

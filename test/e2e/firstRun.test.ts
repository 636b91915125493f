/**
 * First run: the Get Started walkthrough is contributed and
 * opens; AVAP: Check Ollama tells a ready server, a server without the
 * configured models (with the exact `ollama pull` line) and no server apart,
 * in the real workbench (notifications read from the DOM, screenshots in
 * test-output/); AVAP: Open an Example opens an .avap file the parser checks.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { OllamaCheck } from '../../src/core/llm/ollamaCheck';
import { startScriptedOllama, type ScriptedOllama } from '../support/scriptedOllama';
import { unusedPort } from '../support/ports';
import {
  avapApi,
  closeAllEditors,
  EXTENSION_ID,
  parserDiagnostics,
  setSetting,
  waitFor,
} from './support/vscodeHelpers';
import { captureWorkbench } from './support/workbench';
import { MODELS } from './support/world';

async function notificationWith(text: string, screenshot?: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const facts = await captureWorkbench({ settleMs: 300, ...(screenshot ? { screenshot } : {}) });
    const found = facts.notifications.find((n) => n.includes(text));
    if (found) return found;
    // A toast the workbench has already tucked away is still in the notification centre: show it there.
    await vscode.commands.executeCommand('notifications.showList');
    if (Date.now() > deadline)
      throw new Error(`no notification with "${text}"; on screen: ${JSON.stringify(facts.notifications)}`);
  }
}

describe('first run: walkthrough, Check Ollama, Open an Example', () => {
  let server: ScriptedOllama | undefined;

  afterEach(async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('notifications.hideList');
    await server?.close();
    server = undefined;
    await closeAllEditors();
  });

  after(async () => {
    await setSetting('ollama.url', undefined);
  });

  it('contributes the Get Started walkthrough and opens it', async () => {
    await avapApi();
    const json = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as {
      contributes: { walkthroughs?: { id: string; title: string; steps: unknown[] }[] };
    };
    const walkthrough = json.contributes.walkthroughs?.find((w) => w.id === 'avap.welcome');
    assert.ok(walkthrough, 'contributes.walkthroughs has avap.welcome');
    assert.equal(walkthrough.steps.length, 5);
    // The workbench registers extension walkthroughs up to 5 s after startup: until then the command shows
    // another walkthrough, so it is asked again until the tab on screen is ours.
    let opened = 0;
    let facts = await captureWorkbench({ settleMs: 0 });
    await waitFor(
      'the AVAP walkthrough tab',
      async () => {
        await closeAllEditors();
        await vscode.commands.executeCommand('avap.openWalkthrough');
        opened += 1;
        facts = await captureWorkbench({ settleMs: 1000 });
        return facts.editorTabs.includes('Walkthrough: AVAP Assistant') ? true : undefined;
      },
      30_000,
    );
    assert.ok(opened >= 1);
    await captureWorkbench({ screenshot: 'first-run-walkthrough', settleMs: 1500 });
    assert.deepEqual(facts.editorTabs, ['Walkthrough: AVAP Assistant']);
  });

  it('Check Ollama: a server with every configured model says ready', async () => {
    server = await startScriptedOllama({ models: MODELS });
    await setSetting('ollama.url', server.url);
    const check = await vscode.commands.executeCommand<OllamaCheck>('avap.checkOllama');
    assert.equal(check.status, 'ready', check.summary);
    assert.equal(check.host, server.url);
    assert.deepEqual(
      check.models.map((m) => m.name),
      MODELS,
    );
    assert.ok(server.calls('tags').length >= 1, 'the list of pulled models was asked for over the socket');
    await notificationWith('every model the assistant needs is pulled', 'check-ollama-ready');
  });

  it('Check Ollama: a server without the generation model offers the exact ollama pull line', async () => {
    server = await startScriptedOllama({ models: MODELS.filter((m) => m !== 'qwen3:1.7b') });
    await setSetting('ollama.url', server.url);
    const check = await vscode.commands.executeCommand<OllamaCheck>('avap.checkOllama');
    assert.equal(check.status, 'models-missing');
    assert.deepEqual(check.pullCommands, ['ollama pull qwen3:1.7b']);
    const toast = await notificationWith('ollama pull qwen3:1.7b', 'check-ollama-missing');
    assert.match(toast, /Copy Pull Command/);
    assert.match(toast, /Run in Terminal/);
    assert.ok(
      (await avapApi()).outputLines().some((l) => l.includes('Ollama check:') && l.includes('ollama pull qwen3:1.7b')),
    );
  });

  it('Check Ollama: no server says so as an error, with Check Again', async () => {
    await setSetting('ollama.url', `http://127.0.0.1:${await unusedPort()}`);
    const check = await vscode.commands.executeCommand<OllamaCheck>('avap.checkOllama');
    assert.equal(check.status, 'unreachable');
    assert.equal(check.error?.code, 'llm-unreachable');
    const toast = await notificationWith('Ollama does not answer', 'check-ollama-down');
    assert.match(toast, /ollama serve/);
    assert.match(toast, /Check Again/);
  });

  it('Open an Example opens a workspace .avap file, which the parser validates', async () => {
    let settled = false;
    const opened = Promise.resolve(vscode.commands.executeCommand<vscode.Uri | undefined>('avap.openExample')).finally(
      () => {
        settled = true;
      },
    );
    // The workspace has several: a quick pick asks which; accept its first item once it is up.
    await waitFor('the example picked', async () => {
      if (!settled) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      return settled ? true : undefined;
    });
    const uri = await opened;
    assert.ok(uri && uri.path.endsWith('.avap'), String(uri));
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), uri.toString());
    const api = await avapApi();
    await waitFor('a verdict', () =>
      api.statusLook()?.kind === 'valid' || parserDiagnostics(uri).length > 0 ? true : undefined,
    );
  });
});

/**
 * The chat view renders model output that tries every trick — <script>,
 * <img onerror>, javascript: links — and none of it runs: checked from inside
 * the webview (its DOM) and from the browser (markers and dialogs in every frame).
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { parseSignals } from '../../src/signals';
import { avapApi, chatHooks, extensionFile, waitFor } from './support/vscodeHelpers';
import { captureWorkbench } from './support/workbench';
import { scriptedOllama, task } from './support/world';

const HOSTILE = [
  'Sure! <script>window.__avapXss = "script"; alert("xss-script")</script>',
  '',
  '<img src="x" onerror="window.__avapXss = \'img\'; alert(\'xss-img\')">',
  '',
  "[click for docs](javascript:window.__avapXss='link';alert('xss-link'))",
  '',
  'Real docs: [AVAP reference](https://example.com/avap-reference)',
].join('\n');

/** Adds a domain to the workbench's trusted domains through its editor (AVAP: nothing; the workbench's own command). */
async function trustDomain(domain: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.manageTrustedDomain');
  const doc = await waitFor('the Trusted Domains editor', () =>
    vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'trustedDomains'),
  );
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), JSON.stringify([domain]));
  assert.equal(await vscode.workspace.applyEdit(edit), true, 'the Trusted Domains editor takes the edit');
  assert.equal(await doc.save(), true, 'the trusted domains are saved');
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
}

describe('chat view: untrusted output never runs', () => {
  it('renders the hostile answer inert, shows the route, and opens links only through the extension', async () => {
    const ollama = await scriptedOllama();
    ollama.on({ endpoint: 'chat', when: task('classify') }, { content: '{"type":"CONVERSATIONAL"}' });
    ollama.on({ endpoint: 'chat', when: task('conversational') }, { content: HOSTILE });
    await avapApi();
    // The conversation persists per workspace: start from an empty one.
    await vscode.commands.executeCommand('avap.clearChat');
    const result = await vscode.commands.executeCommand<{ queryType: string; text: string }>('avap.ask', 'hello there');
    assert.equal(result.queryType, 'CONVERSATIONAL');
    assert.equal(result.text, HOSTILE);

    const hooks = await chatHooks();
    const probe = await hooks.probe();
    assert.equal(probe.answers, 1);
    assert.equal(probe.scripts, 0, 'no script element from the answer');
    assert.equal(probe.inlineHandlers, 0);
    assert.equal(probe.javascriptLinks, 0);
    assert.equal(probe.images, 0);
    assert.equal(probe.iframes, 0);
    assert.equal(probe.xssMarker, false);
    assert.match(probe.lastAnswerText, /<script>window.__avapXss/, 'the tags are shown as text');
    assert.deepEqual(probe.links, ['https://example.com/avap-reference']);

    // The workbench opens external links only to trusted domains (it asks first, and the test workbench refuses to
    // ask): the domain is trusted as a user does, in the Trusted Domains editor.
    await trustDomain('https://example.com');
    assert.equal(await hooks.click('AVAP reference'), true, 'the link is there to click');
    // The browser opens the link in a tab of its own: the runner sees the tab's address.
    const opened = await waitFor('the link opened', async () => {
      const pages = (await captureWorkbench()).openedPages;
      return pages.length ? pages : undefined;
    });
    assert.deepEqual(opened, ['https://example.com/avap-reference']);

    const facts = await captureWorkbench({ screenshot: 'chat-hostile-answer' });
    assert.equal(facts.xssMarkers, 0, 'no frame has the marker set');
    assert.equal(facts.dialogs, 0, 'no alert() ran');
  });

  it('records each answer as a training signal and the thumbs on it', async () => {
    const api = await avapApi();
    const ollama = await scriptedOllama();
    ollama.on({ endpoint: 'chat', when: task('classify') }, { content: '{"type":"CONVERSATIONAL"}' });
    ollama.on({ endpoint: 'chat', when: task('conversational') }, { content: 'You are welcome.' });
    const result = await api.chat.ask('thanks');
    const signalOf = () => {
      const file = extensionFile(api, 'signals');
      const read = parseSignals(existsSync(file) ? readFileSync(file, 'utf8') : '');
      return read.signals.find((s) => s.id === result.generationId);
    };
    const recorded = signalOf();
    assert.ok(recorded, 'the answer is recorded as a signal');
    assert.equal(recorded.signal_type, 'conversational');
    assert.equal(recorded.source, 'editor');
    assert.equal(recorded.input.query, 'thanks');
    assert.equal(recorded.feedback, null);
    assert.equal(await (await chatHooks()).click('▲ helpful'), true);
    const voted = await waitFor('the thumbs on the signal', () => (signalOf()?.feedback ? signalOf() : undefined));
    assert.equal(voted.feedback?.thumbs, 'up');
    assert.equal(voted.feedback?.source, 'editor');
  });
});

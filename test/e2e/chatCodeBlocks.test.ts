/**
 * The chat's code blocks in the real editor: highlighted
 * with the extension's grammar, a verdict badge per block, the actions by
 * their labels — Insert at Cursor, Open in Editor, Copy, Regenerate with
 * Trace — the trace under an invalid block, sources that open the knowledge
 * document read-only, the conversation kept across a reload of the view,
 * Clear Chat, Enter / Shift+Enter, and no model at all. The model is the
 * scripted Ollama; the parser is the real service.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatProbe } from '../../src/editor/api';
import { unusedPort } from '../support/ports';
import { avapApi, chatHooks, closeAllEditors, openUntitledAvap, setSetting, waitFor } from './support/vscodeHelpers';
import { captureWorkbench } from './support/workbench';
import { fenced, INVALID_CODE, scriptedOllama, scriptReformulate, task, VALID_CODE } from './support/world';
import type { ScriptedOllama } from '../support/scriptedOllama';

const ACTIONS = ['Insert at Cursor', 'Run', 'Open in Editor', 'Copy'];

function scriptCodeRoute(ollama: ScriptedOllama): void {
  ollama.on({ endpoint: 'chat', when: task('classify') }, { content: '{"type":"CODE_GENERATION"}' });
  scriptReformulate(ollama);
  ollama.on({ endpoint: 'chat', when: task('relevance') }, { content: 'YES' });
}

/** The chat once its last answer is final. */
async function finalProbe(): Promise<ChatProbe> {
  const hooks = await chatHooks();
  return waitFor('the final answer in the chat', async () => {
    const probe = await hooks.probe();
    return probe.lastAnswerFinal ? probe : undefined;
  });
}

function activeEditorWhere(what: string, test: (editor: vscode.TextEditor) => boolean): Promise<vscode.TextEditor> {
  return waitFor(what, () => {
    const editor = vscode.window.activeTextEditor;
    return editor && test(editor) ? editor : undefined;
  });
}

describe('chat view: code blocks with actions, verdicts and traces', function () {
  this.timeout(120_000);

  before(async () => {
    await avapApi();
    await closeAllEditors();
    await vscode.commands.executeCommand('avap.clearChat');
  });

  after(async () => {
    await closeAllEditors();
  });

  it('a valid block: highlighted, badge "AVAP: valid", Insert at Cursor / Open in Editor / Copy by their labels, sources by document', async () => {
    const ollama = await scriptedOllama();
    scriptCodeRoute(ollama);
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE), chunkDelayMs: 250 });
    const target = await openUntitledAvap('// before\n\n// after\n');
    target.selection = new vscode.Selection(1, 0, 1, 0);
    const hooks = await chatHooks();
    const asking = (await avapApi()).chat.ask('hash the password parameter');
    // While it streams, its code reads "validating…" and offers nothing to insert.
    const draft = await waitFor('the streaming code block', async () => {
      const p = await hooks.probe();
      return p.lastAnswerDraft && p.blocks.length ? p : undefined;
    });
    assert.equal(draft.blocks[0]?.badge, '⋯ validating…');
    assert.deepEqual(draft.blocks[0]?.actions, []);
    const result = await asking;
    assert.equal(result.validationStatus, '');

    const probe = await finalProbe();
    assert.equal(probe.blocks.length, 1);
    const [block] = probe.blocks;
    assert.equal(block?.badge, '✓ AVAP: valid');
    assert.deepEqual(block?.actions, ACTIONS, 'a valid block has no Regenerate with Trace');
    assert.deepEqual(block?.trace, []);
    assert.ok((block?.highlighted ?? 0) >= 3, 'commands are coloured by the grammar');
    assert.equal(block?.code, VALID_CODE);
    assert.ok(probe.sources.length > 0, 'the retrieved documents are listed');
    assert.doesNotMatch(probe.lastAnswerMeta, /\(\d+\.\d+\)/, 'no raw scores');
    await captureWorkbench({ screenshot: 'chat-valid-code-block', settleMs: 800 });

    // Insert at Cursor: into the editor the user was in, at its cursor.
    assert.equal(await hooks.click('Insert at Cursor', 0), true);
    await waitFor('the code inserted at the cursor', () =>
      target.document.getText() === `// before\n${VALID_CODE}\n// after\n` ? true : undefined,
    );

    // Copy: the block's code on the clipboard.
    await vscode.env.clipboard.writeText('');
    assert.equal(await hooks.click('Copy', 0), true);
    await waitFor('the code on the clipboard', async () =>
      (await vscode.env.clipboard.readText()) === VALID_CODE ? true : undefined,
    );

    // Open in Editor: an untitled AVAP document with the code.
    assert.equal(await hooks.click('Open in Editor', 0), true);
    const opened = await activeEditorWhere(
      'an untitled AVAP editor with the code',
      (e) => e.document.isUntitled && e.document.getText() === VALID_CODE,
    );
    assert.equal(opened.document.languageId, 'avap');
    // The chat colours the code as the editor does (the theme's colours for the grammar's scopes).
    const editorColors = await waitFor('the editor tokenized', async () => {
      const facts = await captureWorkbench({ settleMs: 300 });
      return facts.editorTokenColors.encodeSHA256 ? facts.editorTokenColors : undefined;
    });
    for (const word of ['addParam', 'encodeSHA256', 'addResult']) {
      assert.equal(
        block?.tokenColors[word],
        editorColors[word],
        `${word}: chat ${block?.tokenColors[word]}, editor ${editorColors[word]}`,
      );
    }

    // A source opens its knowledge document, read-only.
    const title = probe.sources[0] ?? '';
    assert.equal(await hooks.click(title), true);
    const source = await activeEditorWhere('the knowledge document', (e) => e.document.uri.scheme === 'avap-knowledge');
    assert.match(source.document.getText(), /^# /);
    assert.ok(source.document.uri.path.includes(title), `${source.document.uri.path} is named after ${title}`);
  });

  it('an invalid block: badge "AVAP: invalid", its trace lines (a click opens the code at that line), and Regenerate with Trace', async () => {
    const ollama = await scriptedOllama();
    scriptCodeRoute(ollama);
    // The answer and its one retry are invalid; the regeneration from the chat is valid.
    ollama.on({ endpoint: 'chat', when: task('generate_code'), times: 2 }, { content: fenced(INVALID_CODE) });
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    const hooks = await chatHooks();
    const result = await (await avapApi()).chat.ask('hash the password parameter, again');
    assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');

    const probe = await finalProbe();
    const [block] = probe.blocks;
    assert.equal(block?.badge, '✗ AVAP: invalid');
    assert.deepEqual(block?.actions, [...ACTIONS, 'Regenerate with Trace']);
    assert.ok(
      block?.trace.some((line) => /^Line 2:1 .*sha256Encode/.test(line)),
      `trace lines: ${block?.trace.join(' | ')}`,
    );
    const facts = await captureWorkbench({ screenshot: 'chat-code-blocks', settleMs: 800 });
    assert.equal(facts.xssMarkers, 0);

    // A trace line opens the code in an editor at that line.
    assert.equal(await hooks.click('Line 2', 0), true);
    const atLine = await activeEditorWhere(
      'the block opened at line 2',
      (e) => e.document.isUntitled && e.document.getText() === INVALID_CODE,
    );
    assert.equal(atLine.selection.start.line, 1);
    assert.equal(atLine.document.languageId, 'avap');

    // Regenerate with Trace: a new turn, the correction prompt carries the trace, the answer is valid.
    const before = ollama.calls('chat').filter(task('generate_code')).length;
    assert.equal(await hooks.click('Regenerate with Trace', 0), true);
    const regenerated = await waitFor(
      'the regenerated answer',
      async () => {
        const p = await hooks.probe();
        return p.questions.at(-1)?.startsWith('Regenerate with Trace') && p.lastAnswerFinal ? p : undefined;
      },
      60_000,
    );
    assert.equal(regenerated.lastTurnInSight, true, `the new turn is in sight: ${regenerated.scroll}`);
    assert.equal(regenerated.blocks[0]?.badge, '✓ AVAP: valid');
    assert.equal(regenerated.blocks[0]?.code, VALID_CODE);
    const calls = ollama.calls('chat').filter(task('generate_code'));
    assert.equal(calls.length, before + 1, 'one correction call');
    assert.match(
      JSON.stringify(calls.at(-1)?.body),
      /sha256Encode/,
      'the correction prompt carries the invalid code and its trace',
    );
    await captureWorkbench({ screenshot: 'chat-regenerate-with-trace', settleMs: 800 });
  });

  it('no validation: the block is "AVAP: unvalidated" in the amber look, never valid', async () => {
    const api = await avapApi();
    const ollama = await scriptedOllama();
    scriptCodeRoute(ollama);
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    await setSetting('parser.timeout', 0);
    try {
      await api.ready();
      const result = await api.chat.ask('hash the password parameter without a parser');
      assert.equal(result.validationStatus, 'PARSER_UNAVAILABLE');
      const probe = await finalProbe();
      assert.equal(probe.blocks[0]?.badge, '⚠ AVAP: unvalidated');
      assert.deepEqual(probe.blocks[0]?.actions, ACTIONS);
    } finally {
      await setSetting('parser.timeout', undefined);
      await api.ready();
    }
  });

  it('no model at all: the answer says so, with no code block and no verdict', async () => {
    const api = await avapApi();
    await scriptedOllama();
    await setSetting('ollama.url', `http://127.0.0.1:${await unusedPort()}`);
    const result = await api.chat.ask('hash the password parameter with no model');
    assert.equal(result.validationStatus, undefined);
    const probe = await finalProbe();
    assert.equal(probe.blocks.length, 0);
    assert.ok(probe.lastAnswerMeta.includes(`(${result.error?.code})`), probe.lastAnswerMeta);
    assert.doesNotMatch(probe.lastAnswerMeta, /AVAP: valid/);
  });

  it('the conversation survives a reload of the view; Clear Chat forgets it; Enter sends and Shift+Enter adds a line', async () => {
    const hooks = await chatHooks();
    const before = await finalProbe();
    assert.ok(before.answers >= 4, `answers so far: ${before.answers}`);
    // Reload the webview: its script starts afresh and shows the conversation kept in the workspace.
    await vscode.commands.executeCommand('workbench.action.webview.reloadWebviewAction');
    const after = await waitFor('the conversation shown again', async () => {
      const p = await hooks.probe().catch(() => undefined);
      return p && p.answers === before.answers ? p : undefined;
    });
    assert.deepEqual(after.questions, before.questions);
    assert.ok(after.questions.some((q) => q.startsWith('Regenerate with Trace')));

    await vscode.commands.executeCommand('avap.clearChat');
    await waitFor('an empty chat', async () => ((await hooks.probe()).answers === 0 ? true : undefined));
    await vscode.commands.executeCommand('workbench.action.webview.reloadWebviewAction');
    await waitFor('still empty after a reload', async () => {
      const p = await hooks.probe().catch(() => undefined);
      return p && p.answers === 0 ? true : undefined;
    });

    const ollama = await scriptedOllama();
    ollama.on({ endpoint: 'chat', when: task('classify') }, { content: '{"type":"CONVERSATIONAL"}' });
    ollama.on({ endpoint: 'chat', when: task('conversational') }, { content: 'Hello! Ask me about AVAP.' });
    // The model's address changed back (the previous test had none): let the assistant pick it up.
    await (await avapApi()).ready();
    assert.equal(await hooks.type('first line', true), 'first line\n', 'Shift+Enter adds a line and sends nothing');
    assert.equal((await hooks.probe()).answers, 0);
    assert.equal(await hooks.type('hello', false), '', 'Enter sends');
    const sent = await waitFor('the question sent with Enter', async () => {
      const p = await hooks.probe();
      return p.answers === 1 && p.lastAnswerFinal ? p : undefined;
    });
    assert.deepEqual(sent.questions, ['hello']);
    assert.match(sent.lastAnswerText, /Ask me about AVAP/, sent.lastAnswerMeta);
  });
});

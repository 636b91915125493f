/**
 * Activation stays thin: an opened .avap file loads the extension's
 * entry bundle, the editor features (started right after activation) and the
 * parser connection, not the assistant; the assistant's bundle loads on first
 * use and answers through the commands registered at activation. This file runs first (the suite loads its files in name order),
 * before any other test has used the assistant.
 */
import * as assert from 'node:assert/strict';
import path from 'node:path';
import * as vscode from 'vscode';
import { ASSISTANT_COMMANDS } from '../../src/editor/assistant/ids';
import { e2eConfig } from './support/config';
import { avapApi, closeAllEditors, EXTENSION_ID, openAvap, parserDiagnostics, waitFor } from './support/vscodeHelpers';

/** The extension's bundles the extension host has loaded (dist/*.js in Node's module cache). */
function loadedBundles(): string[] {
  const dist = path.join(e2eConfig().extensionPath, 'dist') + path.sep;
  return Object.keys(require.cache)
    .filter((file) => file.startsWith(dist))
    .map((file) => path.basename(file))
    .sort();
}

describe('activation', () => {
  afterEach(closeAllEditors);

  it('an opened .avap file loads the entry, the editor features, the language features and the parser connection, not the assistant; its first command loads it', async () => {
    assert.equal(
      vscode.extensions.getExtension(EXTENSION_ID)?.isActive,
      false,
      'nothing activated the extension before this test',
    );
    const editor = await openAvap('invalid.avap');
    const api = await avapApi();
    await waitFor('parser diagnostics', () => (parserDiagnostics(editor.document.uri).length > 0 ? true : undefined));
    await waitFor('the invalid look', () => (api.statusLook()?.kind === 'invalid' ? true : undefined));
    // The editor asks a shown file for its colouring, folds and outline: the language features load for them.
    await waitFor('the language features', () => (loadedBundles().includes('language-features.js') ? true : undefined));
    assert.deepEqual(
      loadedBundles(),
      ['editor-features.js', 'extension.js', 'language-features.js', 'parser-connection.js'],
      'diagnostics, the status item and the language features need no more',
    );
    assert.ok(
      api.outputLines().some((l) => /editor features loaded in \d+ ms/.test(l)),
      api.outputLines().slice(-10).join('\n'),
    );

    // The commands the assistant implements are registered without it.
    const commands = await vscode.commands.getCommands(true);
    for (const id of ASSISTANT_COMMANDS)
      assert.ok(commands.includes(id), `${id} is registered before the assistant loads`);
    assert.deepEqual(loadedBundles(), [
      'editor-features.js',
      'extension.js',
      'language-features.js',
      'parser-connection.js',
    ]);

    // First use: the stand-in loads the assistant and the real command answers.
    const cancelled = await vscode.commands.executeCommand<number>('avap.cancelGeneration');
    assert.equal(cancelled, 0, 'no generation was running');
    assert.deepEqual(loadedBundles(), [
      'assistant.js',
      'editor-features.js',
      'extension.js',
      'language-features.js',
      'parser-connection.js',
    ]);
    assert.ok(
      api.outputLines().some((l) => /assistant loaded in \d+ ms/.test(l)),
      api.outputLines().slice(-10).join('\n'),
    );
    // The bundle registered every command in place of its stand-in.
    const after = await vscode.commands.getCommands(true);
    for (const id of ASSISTANT_COMMANDS) assert.ok(after.includes(id), `${id} is answered by the assistant bundle`);
    await api.ready();
    assert.ok(
      api.outputLines().some((l) => l.includes('[ptvl] assistant ready: model')),
      api.outputLines().slice(-10).join('\n'),
    );
  });
});

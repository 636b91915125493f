/**
 * In the real editor: what the chat and Generate Code show is what
 * the parser validated. An answer repaired by the parser's fixes shows the
 * repaired code; a fence indented in a list item carries its own verdict;
 * output shown after a correct program does not turn it invalid. The model is
 * the scripted Ollama; the parser is the real service.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatProbe } from '../../src/editor/api';
import type { GenerateOutcome } from '../../src/editor/generate/generateCommands';
import { avapApi, chatHooks, closeAllEditors, waitFor } from './support/vscodeHelpers';
import { scriptedOllama, scriptReformulate, task } from './support/world';
import type { ScriptedOllama } from '../support/scriptedOllama';

const avap = (code: string, label = 'avap') => `\`\`\`${label}\n${code}\n\`\`\``;

function scriptDocsRoute(ollama: ScriptedOllama, answer: string): void {
  ollama.on({ endpoint: 'chat', when: task('classify') }, { content: '{"type":"RETRIEVAL"}' });
  scriptReformulate(ollama);
  ollama.on({ endpoint: 'chat', when: task('relevance') }, { content: 'YES' });
  ollama.on({ endpoint: 'chat', when: task('generate') }, { content: answer });
}

async function finalProbe(): Promise<ChatProbe> {
  const hooks = await chatHooks();
  return waitFor('the final answer in the chat', async () => {
    const probe = await hooks.probe();
    return probe.lastAnswerFinal ? probe : undefined;
  });
}

describe('the chat and Generate Code show what was validated', function () {
  this.timeout(120_000);

  before(async () => {
    await avapApi();
    await closeAllEditors();
    await vscode.commands.executeCommand('avap.clearChat');
  });

  after(async () => {
    await closeAllEditors();
  });

  it("chat: an answer the parser's fixes repaired shows the repaired code in both blocks, each valid", async () => {
    const ollama = await scriptedOllama();
    scriptDocsRoute(
      ollama,
      `Hash it:\n${avap('addParam(pwd, pwd)\nhashed = getSHA256(pwd)')}\nThen return it:\n${avap('let out = hashed\naddResult(out);')}\n`,
    );
    const result = await (await avapApi()).chat.ask('How do I hash a password?');
    assert.equal(result.validationStatus, '');
    assert.equal(result.repair?.by, 'parser-fixes');
    const probe = await finalProbe();
    assert.deepEqual(
      probe.blocks.map((b) => [b.code, b.badge]),
      [
        ['addParam(pwd, pwd)\nencodeSHA256(pwd, hashed)', '✓ AVAP: valid'],
        ['out = hashed\naddResult(out)', '✓ AVAP: valid'],
      ],
    );
    assert.doesNotMatch(probe.lastAnswerText, /getSHA256|let out/);
  });

  it('chat: a fence indented in a list item is validated and shows its verdict', async () => {
    const ollama = await scriptedOllama();
    scriptDocsRoute(ollama, '1. Count down:\n\n    ```avap\n    addParam(n, n)\n    while n > 0:\n    ```\n');
    const result = await (await avapApi()).chat.ask('How do I loop while n is positive?');
    assert.equal(result.validationStatus, 'INVALID_UNRESOLVED');
    const probe = await finalProbe();
    assert.equal(probe.blocks.length, 1);
    assert.equal(probe.blocks[0]?.badge, '✗ AVAP: invalid');
    assert.ok(
      probe.blocks[0]?.trace.some((line) => /while/.test(line)),
      probe.blocks[0]?.trace.join(' | '),
    );
    assert.match(probe.lastAnswerMeta, /AVAP: invalid/);
  });

  it('Generate Code: a correct program followed by its JSON output is valid, and the preview holds the program only', async () => {
    const ollama = await scriptedOllama();
    scriptReformulate(ollama);
    const program = 'addParam(pwd, p)\nencodeSHA256(p, hashed)\naddResult(hashed)';
    const gen = ollama.on(
      { endpoint: 'chat', when: task('generate_code') },
      { content: `${avap(program)}\nOutput:\n${avap('{"hashed": "5e88"}', '')}\n` },
    );
    const outcome = await vscode.commands.executeCommand<GenerateOutcome>('avap.generateCode', {
      request: 'hash the password',
      accept: 'none',
    });
    assert.equal(outcome.status, '');
    assert.equal(outcome.code, program);
    assert.equal(gen.used, 1, 'no retry');
    // The preview (a content provider's document) settles on the validated code once the run has ended.
    const preview = vscode.Uri.parse(outcome.previewUri ?? '');
    await waitFor('the preview holding the program', async () =>
      (await vscode.workspace.openTextDocument(preview)).getText() === program ? true : undefined,
    );
  });
});

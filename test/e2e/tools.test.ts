/** The language-model tools are registered in the real editor and answer through the real parser. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { avapApi } from './support/vscodeHelpers';

const textOf = (result: vscode.LanguageModelToolResult) =>
  result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');

describe('language-model tools', () => {
  it('registers avap_validate and avap_search_docs, and avap_validate returns the parser trace', async () => {
    await avapApi();
    const names = vscode.lm.tools.map((t) => t.name);
    assert.ok(names.includes('avap_validate') && names.includes('avap_search_docs'), names.join(', '));
    const token = new vscode.CancellationTokenSource().token;
    const result = await vscode.lm.invokeTool(
      'avap_validate',
      { input: { code: 'addParam(password, p)\ngetSHA256(p, h)\n' }, toolInvocationToken: undefined },
      token,
    );
    const text = textOf(result);
    assert.match(text, /getSHA256/);
    assert.match(text, /encodeSHA256/);
    const docs = textOf(
      await vscode.lm.invokeTool(
        'avap_search_docs',
        { input: { query: 'encodeSHA256' }, toolInvocationToken: undefined },
        token,
      ),
    );
    assert.match(docs, /encodeSHA256/);
  });
});

import assert from 'node:assert/strict';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

const root = path.resolve(__dirname, '..', '..', '..');

async function messagesFor(relativePath: string, code: string): Promise<string[]> {
  // The files linted here exist only in memory, outside the TypeScript program: the project's config without
  // its type-aware rules (which need the program), so the import and syntax rules under test run alone.
  const eslint = new ESLint({ cwd: root, overrideConfig: [{ files: ['**/*.ts'], ...tseslint.configs.disableTypeChecked }] });
  const [result] = await eslint.lintText(code, { filePath: path.join(root, relativePath) });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('lint: editor-free layering', function () {
  this.timeout(60_000);
  const editorFree = ['src/parser/x.ts', 'src/server/x.ts', 'src/core/x.ts', 'src/protocol/x.ts', 'src/cli/x.ts', 'src/knowledge/x.ts', 'src/quality/x.ts', 'src/signals/x.ts', 'src/rest/x.ts', 'src/tools/x.ts', 'src/eval/x.ts', 'src/html/x.ts', 'src/jsonl/x.ts', 'src/net/x.ts'];

  for (const file of editorFree) {
    it(`refuses an import of vscode in ${file}`, async () => {
      const messages = await messagesFor(file, "import * as vscode from 'vscode';\nexport const x = vscode.version;\n");
      assert.ok(messages.some((m) => m.startsWith('no-restricted-imports') && m.includes('Editor-free')), messages.join('\n'));
    });
  }

  it('refuses a type-only import and a require of vscode in the core', async () => {
    const typeOnly = await messagesFor('src/core/x.ts', "import type { Uri } from 'vscode';\nexport type U = Uri;\n");
    assert.ok(typeOnly.some((m) => m.startsWith('no-restricted-imports')), typeOnly.join('\n'));
    const required = await messagesFor('src/core/x.ts', "// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const v: unknown = require('vscode');\n");
    assert.ok(required.some((m) => m.startsWith('no-restricted-syntax') && m.includes('Editor-free')), required.join('\n'));
  });

  it('allows vscode in the editor adapters', async () => {
    const messages = await messagesFor('src/editor/x.ts', "import * as vscode from 'vscode';\nexport const x = vscode.version;\n");
    assert.deepEqual(messages, []);
  });

  it('refuses focused tests anywhere', async () => {
    const focused = ['describe', 'only'].join('.'); // spelled apart so repository greps for focused tests stay quiet
    const messages = await messagesFor('test/unit/x.test.ts', `${focused}('x', () => undefined);\n`);
    assert.ok(messages.some((m) => m.startsWith('no-restricted-syntax')), messages.join('\n'));
  });
});

import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

const root = path.resolve(__dirname, '..', '..', '..');

interface LayerTable {
  LAYERS: { folders: string[] }[];
  LAYER_ENTRIES: Record<string, string[]>;
}

async function messagesFor(relativePath: string, code: string): Promise<string[]> {
  // The files linted here exist only in memory, outside the TypeScript program: the project's config without
  // its type-aware rules (which need the program), so the import and syntax rules under test run alone.
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: [{ files: ['**/*.ts'], ...tseslint.configs.disableTypeChecked }],
  });
  const [result] = await eslint.lintText(code, { filePath: path.join(root, relativePath) });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('lint: editor-free layering', function () {
  this.timeout(60_000);
  const editorFree = [
    'src/parser/x.ts',
    'src/server/x.ts',
    'src/core/x.ts',
    'src/protocol/x.ts',
    'src/cli/x.ts',
    'src/knowledge/x.ts',
    'src/quality/x.ts',
    'src/signals/x.ts',
    'src/rest/x.ts',
    'src/tools/x.ts',
    'src/eval/x.ts',
    'src/html/x.ts',
    'src/jsonl/x.ts',
    'src/net/x.ts',
    'src/inputContract/x.ts',
    'src/result/x.ts',
  ];

  for (const file of editorFree) {
    it(`refuses an import of vscode in ${file}`, async () => {
      const messages = await messagesFor(file, "import * as vscode from 'vscode';\nexport const x = vscode.version;\n");
      assert.ok(
        messages.some((m) => m.startsWith('no-restricted-imports') && m.includes('Editor-free')),
        messages.join('\n'),
      );
    });
  }

  it('refuses a type-only import and a require of vscode in the core', async () => {
    const typeOnly = await messagesFor('src/core/x.ts', "import type { Uri } from 'vscode';\nexport type U = Uri;\n");
    assert.ok(
      typeOnly.some((m) => m.startsWith('no-restricted-imports')),
      typeOnly.join('\n'),
    );
    const required = await messagesFor(
      'src/core/x.ts',
      "// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const v: unknown = require('vscode');\n",
    );
    assert.ok(
      required.some((m) => m.startsWith('no-restricted-syntax') && m.includes('Editor-free')),
      required.join('\n'),
    );
  });

  it('allows vscode in the editor adapters', async () => {
    const messages = await messagesFor(
      'src/editor/x.ts',
      "import * as vscode from 'vscode';\nexport const x = vscode.version;\n",
    );
    assert.deepEqual(messages, []);
  });

  it('refuses focused tests anywhere', async () => {
    const focused = ['describe', 'only'].join('.'); // spelled apart so repository greps for focused tests stay quiet
    const messages = await messagesFor('test/unit/x.test.ts', `${focused}('x', () => undefined);\n`);
    assert.ok(
      messages.some((m) => m.startsWith('no-restricted-syntax')),
      messages.join('\n'),
    );
  });
});

describe('lint: the folder layers (eslint.config.mjs LAYERS, rule layers/imports)', function () {
  this.timeout(60_000);
  const layerRule = (messages: string[]): string[] => messages.filter((m) => m.startsWith('layers/imports'));

  it('refuses an upward import: knowledge (below core) importing the core', async () => {
    const messages = await messagesFor(
      'src/knowledge/x.ts',
      "import { createAssistant } from '../core';\nexport const x = createAssistant;\n",
    );
    assert.equal(layerRule(messages).length, 1, messages.join('\n'));
    assert.match(layerRule(messages)[0]!, /src\/knowledge may not import src\/core/);
  });

  it('refuses an upward import inside a layer: quality importing tools (listed after it), and a type-only one', async () => {
    const value = await messagesFor(
      'src/quality/x.ts',
      "import { runTool } from '../tools';\nexport const x = runTool;\n",
    );
    assert.match(layerRule(value)[0] ?? '', /src\/quality may not import src\/tools/, value.join('\n'));
    const typeOnly = await messagesFor(
      'src/parser/x.ts',
      "import type { Assistant } from '../core';\nexport type A = Assistant;\n",
    );
    assert.match(layerRule(typeOnly)[0] ?? '', /src\/parser may not import src\/core/, typeOnly.join('\n'));
  });

  it('refuses a deep import that bypasses index.ts, and says which path to use', async () => {
    const messages = await messagesFor(
      'src/quality/sub/x.ts',
      "import { runPipeline } from '../../core/pipeline/graph';\nexport const x = runPipeline;\n",
    );
    assert.equal(layerRule(messages).length, 1, messages.join('\n'));
    assert.match(
      layerRule(messages)[0]!,
      /through its index\.ts \('\.\.\/\.\.\/core'\), not its inner module 'pipeline\/graph'/,
    );
  });

  it('refuses upward or deep imports in every form: export…from, import(), require()', async () => {
    const reExport = await messagesFor('src/parser/x.ts', "export { x } from '../protocol';\n");
    assert.equal(layerRule(reExport).length, 1, reExport.join('\n'));
    const dynamic = await messagesFor('src/core/x.ts', "export const x = import('../editor');\n");
    assert.equal(layerRule(dynamic).length, 1, dynamic.join('\n'));
    const required = await messagesFor(
      'src/cli/x.ts',
      "// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const x: unknown = require('../core/assistant');\n",
    );
    assert.equal(layerRule(required).length, 1, required.join('\n'));
  });

  it('refuses a folder that is in no layer, and imports of it', async () => {
    const inside = await messagesFor('src/newthing/x.ts', 'export const x = 1;\n');
    assert.match(layerRule(inside)[0] ?? '', /src\/newthing is in no layer/, inside.join('\n'));
    const importing = await messagesFor('src/core/x.ts', "import { y } from '../newthing';\nexport const x = y;\n");
    assert.match(layerRule(importing)[0] ?? '', /src\/newthing is in no layer/, importing.join('\n'));
  });

  it('allows a downward import through index.ts, a declared light entry, and any import inside a folder', async () => {
    const allowed = [
      ['src/quality/x.ts', "import { createAssistant } from '../core';\nexport const x = createAssistant;\n"],
      [
        'src/editor/services/x.ts',
        "import { openParserConnection } from '../../core/parser/connection';\nexport const x = openParserConnection;\n",
      ],
      [
        'src/core/pipeline/x.ts',
        "import { runPipeline } from './graph';\nimport { createOllamaLlm } from '../llm/ollamaLlm';\nexport const x = [runPipeline, createOllamaLlm];\n",
      ],
      ['src/extension.ts', "import { activateAvap } from './editor';\nexport const x = activateAvap;\n"],
      ['src/signals/x.ts', "import { qualityGate } from '../quality';\nexport const x = qualityGate;\n"],
    ];
    for (const [file, code] of allowed) {
      const messages = await messagesFor(file!, code!);
      assert.deepEqual(layerRule(messages), [], `${file}: ${messages.join('\n')}`);
    }
  });

  it('every folder of src/ is in exactly one layer, and every light entry exists', async () => {
    const { LAYERS, LAYER_ENTRIES } = (await import(
      pathToFileURL(path.join(root, 'eslint.config.mjs')).href
    )) as LayerTable;
    const placed = LAYERS.flatMap((l) => l.folders);
    assert.equal(new Set(placed).size, placed.length, 'a folder in two layers');
    const folders = readdirSync(path.join(root, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== 'proto')
      .map((e) => e.name);
    assert.deepEqual(
      folders.filter((f) => !placed.includes(f)),
      [],
      'folders of src/ in no layer',
    );
    for (const [folder, entries] of Object.entries(LAYER_ENTRIES)) {
      for (const entry of entries) {
        const file = path.join(root, 'src', folder, entry);
        assert.ok(
          existsSync(`${file}.ts`) || existsSync(path.join(file, 'index.ts')),
          `light entry src/${folder}/${entry}`,
        );
      }
    }
  });
});

describe('lint: the layer rule for test/ (rule layers/test-imports)', function () {
  this.timeout(60_000);
  const testRule = (messages: string[]): string[] => messages.filter((m) => m.startsWith('layers/test-imports'));

  it('refuses a deep import from a test, and says which entry to use and how to mark an internal on purpose', async () => {
    const messages = await messagesFor(
      'test/unit/core/x.test.ts',
      "import { extractCode } from '../../../src/core/code/extract';\nexport const x = extractCode;\n",
    );
    assert.equal(testRule(messages).length, 1, messages.join('\n'));
    assert.match(
      testRule(messages)[0]!,
      /through its entry \('\.\.\/\.\.\/\.\.\/src\/core'\), not its inner module 'code\/extract'/,
    );
    assert.match(testRule(messages)[0]!, /internal-import: <why>/);
  });

  it('allows an internal on purpose under a marker that says why; a bare marker is not enough', async () => {
    const marked = await messagesFor(
      'test/unit/core/x.test.ts',
      "// internal-import: the extractor's line helpers, case by case\nimport { isCodeLine } from '../../../src/core/code/extract';\nexport const x = isCodeLine;\n",
    );
    assert.deepEqual(testRule(marked), [], marked.join('\n'));
    const bare = await messagesFor(
      'test/unit/core/x.test.ts',
      "// internal-import: because\nimport { isCodeLine } from '../../../src/core/code/extract';\nexport const x = isCodeLine;\n",
    );
    assert.equal(testRule(bare).length, 1, bare.join('\n'));
  });

  it('reports a marker above an import that goes through an entry', async () => {
    const messages = await messagesFor(
      'test/unit/core/x.test.ts',
      "// internal-import: not needed here at all\nimport { extractCode } from '../../../src/core';\nexport const x = extractCode;\n",
    );
    assert.match(testRule(messages)[0] ?? '', /drop its internal-import marker/, messages.join('\n'));
  });

  it('refuses a test importing above the folder it is about, in every form', async () => {
    const upward = await messagesFor(
      'test/unit/parser/x.test.ts',
      "import { createAssistant } from '../../../src/core';\nexport const x = createAssistant;\n",
    );
    assert.match(testRule(upward)[0] ?? '', /a test of src\/parser may not import src\/core/, upward.join('\n'));
    const typeOnly = await messagesFor(
      'test/integration/pipeline/x.test.ts',
      "import type { GenerateOutcome } from '../../../src/editor';\nexport type G = GenerateOutcome;\n",
    );
    assert.match(testRule(typeOnly)[0] ?? '', /a test of src\/core may not import src\/editor/, typeOnly.join('\n'));
    const dynamic = await messagesFor(
      'test/unit/knowledge/x.test.ts',
      "export const x = import('../../../src/runtime');\n",
    );
    assert.equal(testRule(dynamic).length, 1, dynamic.join('\n'));
  });

  it('allows a test its folder, the folders below, light entries, and the whole-extension suites everything', async () => {
    const allowed = [
      [
        'test/unit/core/x.test.ts',
        "import { validateAvap } from '../../../src/parser';\nimport { prefixed } from '../../../src/core/ports';\nimport { createAssistant } from '../../../src/core';\nexport const x = [validateAvap, prefixed, createAssistant];\n",
      ],
      [
        'test/e2e/x.test.ts',
        "import { runPipeline } from '../../src/core';\nimport type { AvapExtensionApi } from '../../src/editor';\nexport const x = runPipeline;\nexport type A = AvapExtensionApi;\n",
      ],
      ['test/support/x.ts', "import { readEvalReport } from '../../src/eval';\nexport const x = readEvalReport;\n"],
      [
        'test/integration/pipeline/x.test.ts',
        "import { runPipeline } from '../../../src/core';\nexport const x = runPipeline;\n",
      ],
    ];
    for (const [file, code] of allowed) {
      const messages = await messagesFor(file!, code!);
      assert.deepEqual(testRule(messages), [], `${file}: ${messages.join('\n')}`);
    }
  });

  it('refuses a test directory about no folder of src/, and every mapped path exists', async () => {
    const messages = await messagesFor(
      'test/unit/nothing/x.test.ts',
      "import { ok } from '../../../src/result';\nexport const x = ok;\n",
    );
    assert.match(testRule(messages)[0] ?? '', /about no src\/ folder/, messages.join('\n'));
    const { TEST_SUBJECTS, LAYERS } = (await import(pathToFileURL(path.join(root, 'eslint.config.mjs')).href)) as {
      TEST_SUBJECTS: [string, string][];
      LAYERS: { folders: string[] }[];
    };
    const folders = LAYERS.flatMap((l) => l.folders);
    for (const [place, folder] of TEST_SUBJECTS) {
      assert.ok(existsSync(path.join(root, place)), `${place} exists`);
      assert.ok(folders.includes(folder), `${folder} is a layered folder`);
    }
  });
});

describe('lint: options objects instead of long positional argument lists (max-params in src/)', function () {
  this.timeout(60_000);
  const maxParams = (messages: string[]) => messages.filter((m) => m.startsWith('max-params'));
  const five =
    'export function f(a: string, b: string, c: number, d: boolean, e: boolean): string {\n  return `${a}${b}${c}${d}${e}`;\n}\n';
  const four =
    'export function f(a: string, b: { c: string; d: number; e: boolean }, g: number, h: boolean): string {\n  return `${a}${b.c}${g}${h}`;\n}\n';
  const method =
    'export class K {\n  m(a: number, b: number, c: number, d: number, e: number): number {\n    return a + b + c + d + e;\n  }\n}\n';
  const arrow =
    'export const f = (a: number, b: number, c: number, d: number, e: number): number => a + b + c + d + e;\n';

  it('refuses a function, a method or an arrow with more than four parameters in src/', async () => {
    for (const code of [five, method, arrow]) {
      const messages = await messagesFor('src/core/x.ts', code);
      assert.equal(maxParams(messages).length, 1, `${code}\n${messages.join('\n')}`);
    }
  });

  it('accepts four, and leaves tests free', async () => {
    assert.deepEqual(maxParams(await messagesFor('src/core/x.ts', four)), []);
    assert.deepEqual(maxParams(await messagesFor('test/unit/core/x.test.ts', five)), []);
  });
});

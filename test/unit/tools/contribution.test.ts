import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { languageModelToolsContribution, withLanguageModelTools } from '../../../src/tools/packageContribution';

const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes?: { languageModelTools?: unknown };
};

describe('tools: package.json contribution', () => {
  it('package.json contributes exactly the generated languageModelTools (run: npm run contributes)', () => {
    assert.deepEqual(manifest.contributes?.languageModelTools, languageModelToolsContribution());
  });

  it('declares avap_validate and avap_search_docs with JSON-schema inputs and usage guidance', () => {
    const tools = languageModelToolsContribution();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['avap_validate', 'avap_search_docs'],
    );
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal(tool.inputSchema.additionalProperties, false, 'unknown parameters are refused');
      assert.match(tool.modelDescription, /Use it:/);
      assert.match(tool.modelDescription, /Do not use it:/);
    }
    const [validate, search] = tools;
    assert.deepEqual(validate?.inputSchema.required, ['code']);
    assert.deepEqual(search?.inputSchema.required, ['query']);
    const props = search?.inputSchema.properties as Record<string, Record<string, unknown>>;
    assert.deepEqual(props.max_results, { ...props.max_results, type: 'integer', minimum: 1, maximum: 10 });
    assert.deepEqual(props.kind?.enum, ['any', 'command', 'chapter']);
  });

  it('replaces only contributes.languageModelTools', () => {
    const before = {
      name: 'x',
      contributes: { commands: [{ command: 'a' }], languageModelTools: ['old'] },
      scripts: { b: 'c' },
    };
    const after = withLanguageModelTools(before) as typeof before;
    assert.deepEqual(Object.keys(after), ['name', 'contributes', 'scripts']);
    assert.deepEqual(after.contributes.commands, before.contributes.commands);
    assert.deepEqual(after.scripts, before.scripts);
    assert.deepEqual(after.contributes.languageModelTools, languageModelToolsContribution());
  });
});

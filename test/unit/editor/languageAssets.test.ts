/**
 * The static language assets (grammar, snippets, language configuration, examples,
 * package.json contributions) agree with the parser's catalogue and with each other.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { catalogue, renderTrace, validateAvap } from '../../../src/parser';
import { generatedFiles } from '../../../scripts/lib/contributes';
import { readManifest } from '../../support/manifest';

const ROOT = path.join(__dirname, '..', '..', '..');
const readJson = (file: string): unknown => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));

interface Grammar {
  scopeName: string;
  repository: Record<string, { match?: string; patterns?: { match?: string; name?: string; begin?: string }[] }>;
}

describe('editor: language assets', () => {
  const grammar = readJson('syntaxes/avap.tmLanguage.json') as Grammar;

  it('the grammar highlights every catalogue command and block keyword', () => {
    const commands = new RegExp(grammar.repository.commands?.match ?? '(?!)');
    const blocks = new RegExp(grammar.repository['block-keywords']?.match ?? '(?!)');
    for (const spec of catalogue.COMMANDS) {
      const call = `${spec.name}(x)`;
      assert.ok(spec.block ? blocks.test(call) : commands.test(call), `${spec.name} is not highlighted`);
    }
    assert.ok(!commands.test('getSHA256(x)'), 'an invented name must not look like a command');
  });

  it('the grammar knows comments, strings, numbers and constants', () => {
    const comment = grammar.repository.comments?.patterns?.map((p) => p.match ?? p.begin) ?? [];
    assert.deepEqual(comment, ['///.*$', '//.*$', '/\\*']);
    const number = new RegExp(grammar.repository.numbers?.match ?? '(?!)');
    assert.ok(number.test('42') && number.test('-3.14') && !number.test('var2'));
    const constants = new RegExp(grammar.repository.constants?.match ?? '(?!)');
    assert.ok(['true', 'False', 'None'].every((c) => constants.test(c)));
  });

  it('every snippet expands to valid AVAP', () => {
    const snippets = readJson('snippets/avap.code-snippets') as Record<string, { prefix: string; body: string[] }>;
    assert.ok(Object.keys(snippets).length >= 6);
    for (const [name, snippet] of Object.entries(snippets)) {
      // Take each placeholder's default (or first choice); empty tab stops stay empty.
      const text = snippet.body
        .join('\n')
        .replace(/\$\{\d+\|([^,|]+)[^}]*\|\}/g, '$1')
        .replace(/\$\{\d+:([^{}]*(?:\$\{\d+:[^}]*\}[^{}]*)*)\}/g, (_m, inner: string) =>
          inner.replace(/\$\{\d+:([^}]*)\}/g, '$1'),
        )
        .replace(/\$\{\d+\}|\$\d+/g, '');
      const result = validateAvap(text);
      assert.equal(result.valid, true, `snippet "${name}":\n${text}\n${renderTrace(result.trace)}`);
    }
  });

  it('the examples folder has valid programs and invalid ones that say so', () => {
    const dir = path.join(ROOT, 'examples');
    const files = readdirSync(dir).filter((f) => f.endsWith('.avap'));
    assert.ok(files.filter((f) => f.startsWith('invalid-')).length >= 2);
    assert.ok(files.filter((f) => !f.startsWith('invalid-')).length >= 3);
    for (const file of files) {
      const result = validateAvap(readFileSync(path.join(dir, file), 'utf8'));
      assert.equal(result.valid, !file.startsWith('invalid-'), `${file}: ${renderTrace(result.trace)}`);
    }
  });

  it('language-configuration.json uses AVAP comments and brackets', () => {
    const config = readJson('language-configuration.json') as {
      comments: unknown;
      indentationRules: { increaseIndentPattern: string; decreaseIndentPattern: string };
    };
    assert.deepEqual(config.comments, { lineComment: '//', blockComment: ['/*', '*/'] });
    const increase = new RegExp(config.indentationRules.increaseIndentPattern);
    const decrease = new RegExp(config.indentationRules.decreaseIndentPattern);
    assert.ok(increase.test('if(a, 1, ==)') && increase.test('startLoop(i, 1, 3)') && increase.test('try()'));
    assert.ok(decrease.test('end()') && decrease.test('endLoop()') && decrease.test('else()'));
  });

  it('package.json carries the contributions generated from src/surface and the documented settings', () => {
    const manifest = generatedFiles(ROOT).find((f) => f.path.endsWith('package.json'));
    assert.equal(readFileSync(manifest?.path ?? '', 'utf8'), manifest?.text, 'package.json: run npm run contributes');
    const pkg = readManifest();
    const settings = Object.keys(pkg.contributes.configuration.properties);
    for (const name of [
      'avap.parser.url',
      'avap.parser.timeout',
      'avap.parser.circuitBreaker.threshold',
      'avap.parser.circuitBreaker.cooldown',
      'avap.ollama.url',
      'avap.ollama.model',
      'avap.ollama.embeddingModel',
      'avap.elasticsearch.url',
      'avap.elasticsearch.index',
      'avap.relevance.mode',
    ]) {
      assert.ok(settings.includes(name), `missing setting ${name}`);
      assert.ok(pkg.contributes.configuration.properties[name]?.markdownDescription, `${name} has no description`);
    }
    const titles = pkg.contributes.commands.map((c) => `${c.category}: ${c.title}`);
    for (const title of [
      'AVAP: Validate Document',
      'AVAP: Show Output',
      'AVAP: Reset Parser Circuit',
      'AVAP: Generate Code…',
      'AVAP: Ask…',
      'AVAP: Regenerate with Trace',
      'AVAP: Show Validation Metrics',
    ]) {
      assert.ok(titles.includes(title), `missing command ${title}`);
    }
    assert.deepEqual(pkg.contributes.languages[0]?.extensions, ['.avap']);
  });
});

/**
 * The JSON schemas the editor gives the request and test files (contributes.jsonValidation: completion and checks
 * in VS Code's JSON editor) name exactly the fields the readers accept, and the examples' files keep to them.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REQUEST_FILE_KEYS, REQUEST_SUFFIX, TEST_SUFFIX } from '../../../src/runs';
import { readManifest } from '../../support/manifest';

const root = path.resolve(__dirname, '..', '..', '..');
const json = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8')) as Record<string, unknown>;
type Schema = { properties: Record<string, Schema>; items?: Schema; required?: string[] };

describe('runs: the JSON schemas of the request and test files', () => {
  const manifest = readManifest() as unknown as {
    contributes: { jsonValidation: { fileMatch: string; url: string }[] };
  };
  const schemaFor = (suffix: string) => {
    const entry = manifest.contributes.jsonValidation.find((v) => v.fileMatch === `*${suffix}`);
    assert.ok(entry, `contributes.jsonValidation has *${suffix}`);
    return json(entry.url) as unknown as Schema;
  };

  it('the request file schema names the request file fields, and the request its four', () => {
    const schema = schemaFor(REQUEST_SUFFIX);
    assert.deepEqual(Object.keys(schema.properties).sort(), [...REQUEST_FILE_KEYS].sort());
    assert.deepEqual(Object.keys(schema.properties.request?.properties ?? {}).sort(), [
      'body',
      'headers',
      'method',
      'query',
    ]);
  });

  it("the test file schema's case is a request file with a name and expectations", () => {
    const schema = schemaFor(TEST_SUFFIX);
    const testCase = schema.properties.cases?.items;
    assert.ok(testCase);
    assert.deepEqual(Object.keys(testCase.properties).sort(), [...REQUEST_FILE_KEYS, 'expect', 'name'].sort());
    assert.deepEqual(testCase.required, ['name', 'expect']);
    assert.deepEqual(Object.keys(testCase.properties.expect?.properties ?? {}).sort(), ['error', 'result', 'status']);
  });

  it("the examples' request and test files use only the fields the schemas name", () => {
    const request = schemaFor(REQUEST_SUFFIX);
    const tests = schemaFor(TEST_SUFFIX);
    const files = readdirSync(path.join(root, 'examples'));
    assert.ok(files.some((f) => f.endsWith(REQUEST_SUFFIX)) && files.some((f) => f.endsWith(TEST_SUFFIX)));
    for (const file of files) {
      if (file.endsWith(REQUEST_SUFFIX)) {
        const data = json(`examples/${file}`);
        for (const key of Object.keys(data)) assert.ok(key in request.properties, `${file}: ${key}`);
      } else if (file.endsWith(TEST_SUFFIX)) {
        const cases = json(`examples/${file}`).cases as Record<string, unknown>[];
        const known = tests.properties.cases?.items?.properties ?? {};
        for (const one of cases) for (const key of Object.keys(one)) assert.ok(key in known, `${file}: ${key}`);
      }
    }
  });
});

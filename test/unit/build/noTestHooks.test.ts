/**
 * Nothing test-only ships: no test hooks in src/ or the webviews' scripts, nothing in the public API
 * type that exists for the tests, and no behaviour that depends on running under the test runner. The e2e suite
 * reaches the webviews from outside the extension host (scripts/lib/webviews.mjs, test/e2e/support/webviews.ts)
 * and everything else through the commands users have.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '..', '..', '..');

function filesUnder(dir: string, ext: RegExp): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && ext.test(e.name))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

/** What the removed hooks were called, and the ways an extension tells it runs under its tests. */
const TEST_ONLY = [
  /\b(AvapTestHooks|ChatTestBridge|RunTestHooks|chatTestHooks|runTestHooks|avapChatTestHooks|avapRunTestHooks)\b/,
  /\b(testHooks|testBridge|runTesting|openedLinks)\b/,
  /\b(ChatProbe|RunViewProbe)\b/,
  /['"]test\.(result|probe|click|type)['"]/,
  /ExtensionMode\.Test\b/,
  /test\/e2e|'test',\s*'e2e'/,
];

describe('nothing test-only ships', () => {
  it('src/ and the webviews’ scripts hold no test hook, no test message and no test-mode branch', () => {
    const found: string[] = [];
    for (const file of [...filesUnder('src', /\.ts$/), ...filesUnder('media', /\.js$/)]) {
      const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        for (const pattern of TEST_ONLY) if (pattern.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(found, []);
  });

  it('the public API type (what activate returns) has no member for the tests, at any depth of its own members', () => {
    const file = path.join(root, 'src', 'editor', 'api.ts');
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
    });
    const checker = program.getTypeChecker();
    const source = program.getSourceFile(file);
    assert.ok(source);
    const api = source.statements.find(
      (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'AvapExtensionApi',
    );
    assert.ok(api, 'src/editor/api.ts declares AvapExtensionApi');
    // The API's members, and the members of the objects it holds (chat, files): not the core's result types.
    const names: string[] = [];
    const visit = (type: ts.Type, prefix: string, depth: number) => {
      for (const member of checker.getPropertiesOfType(type)) {
        names.push(`${prefix}${member.name}`);
        const declaration = member.valueDeclaration ?? member.declarations?.[0];
        if (!declaration || depth === 0 || declaration.getSourceFile() !== source) continue;
        const memberType = checker.getTypeOfSymbolAtLocation(member, declaration);
        if (memberType.getCallSignatures().length === 0) visit(memberType, `${prefix}${member.name}.`, depth - 1);
      }
    };
    visit(checker.getTypeAtLocation(api.name), '', 2);
    assert.ok(names.includes('chat.ask'), `the walk reaches nested members: ${names.join(', ')}`);
    assert.deepEqual(
      names.filter((n) => /test|hook|probe|click|opened/i.test(n)),
      [],
      names.join(', '),
    );
    // The declarations of the file, exported or not, carry no test-only name either.
    assert.deepEqual(TEST_ONLY.filter((pattern) => pattern.test(source.text)).map(String), []);
  });
});

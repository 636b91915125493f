/**
 * The places in a program's files the editor reads at start-up: which files belong to a program, and where each
 * case of a test file sits (the Testing view's items and their gutter icons), tolerant of a file being typed.
 */
import assert from 'node:assert/strict';
import { outlineTestFile, positionAt, programOf, readJsonTree, requestFileOf, testFileOf } from '../../../src/runs';

describe('runs: the files beside a program and the outline of its test file', () => {
  it('names the test and request files of a program and finds the program back from either', () => {
    assert.equal(testFileOf('/w/api/age-check.avap'), '/w/api/age-check.avap.test.json');
    assert.equal(requestFileOf('/w/api/age-check.avap'), '/w/api/age-check.avap.request.json');
    assert.equal(programOf('/w/api/age-check.avap.test.json'), '/w/api/age-check.avap');
    assert.equal(programOf('/w/api/age-check.avap.request.json'), '/w/api/age-check.avap');
    assert.equal(programOf('/w/api/age-check.json'), undefined);
  });

  it('places every case of a multi-line file, by name, from its opening to its closing brace', () => {
    const text = [
      '{',
      '  "cases": [',
      '    {',
      '      "name": "an adult",',
      '      "request": { "query": { "age": "30" } },',
      '      "expect": { "result": { "verdict": "adult" } }',
      '    },',
      '    { "name": "a minor", "request": { "query": { "age": "17" } }, "expect": { "status": 200 } }',
      '  ]',
      '}',
    ].join('\n');
    const outline = outlineTestFile(text);
    assert.ok(outline.ok);
    assert.deepEqual(
      outline.value.cases.map((c) => [c.name, c.from.line, c.to.line, c.from.character]),
      [
        ['an adult', 2, 6, 4],
        ['a minor', 7, 7, 4],
      ],
    );
    const first = outline.value.cases[0];
    assert.ok(first);
    assert.equal(text.slice(first.start, first.end).startsWith('{'), true);
    assert.equal(text.slice(first.start, first.end).endsWith('}'), true);
    assert.equal(text[outline.value.casesClose], ']');
    assert.deepEqual(positionAt(text, outline.value.casesClose), { line: 8, character: 2 });
  });

  it('tells apart cases of the same name and names a case without one by its index', () => {
    const outline = outlineTestFile(
      '{"cases": [{"name": "same", "expect": {}}, {"name": "same", "expect": {}}, {"expect": {}}, {"name": " "}]}',
    );
    assert.ok(outline.ok);
    assert.deepEqual(
      outline.value.cases.map((c) => c.name),
      ['same', 'same (2)', 'cases[2]', 'cases[3]'],
    );
  });

  it('says where a file being typed stops being JSON, and that a file without a cases list cannot hold cases', () => {
    const typing = outlineTestFile('{\n  "cases": [\n    { "name": "a", }\n  ]\n}');
    assert.equal(typing.ok, false);
    if (!typing.ok) {
      assert.equal(typing.error.kind, 'bad-test-file');
      assert.deepEqual(typing.error.at, { line: 2, character: 19 });
      assert.match(typing.error.message, /not JSON: expected a key in quotes/);
    }
    const noCases = outlineTestFile('{"tests": []}');
    assert.equal(noCases.ok, false);
    if (!noCases.ok) assert.match(noCases.error.message, /"cases"/);
    assert.equal(outlineTestFile('').ok, false);
  });

  it('reads JSON as JSON.parse does: escapes, numbers, literals, a byte-order mark; rejects what it rejects', () => {
    const texts = [
      '\ufeff{"a": [1, -2.5e3, true, false, null, "x\\"y\\u00e9"]}',
      '[]',
      '"just a string"',
      '{"nested": {"deep": [[[]]]}}',
    ];
    for (const text of texts) assert.equal(readJsonTree(text).ok, true, text);
    for (const bad of ['{"a": 01}', '{"a": 1,}', "{'a': 1}", '[1 2]', '{"a": "\\x"}', '{"a": 1} x', 'nul'])
      assert.equal(readJsonTree(bad).ok, false, bad);
    const tree = readJsonTree('{"a": "x\\"y"}');
    assert.ok(tree.ok && tree.value.kind === 'object');
    if (tree.ok && tree.value.kind === 'object') {
      const value = tree.value.members[0]?.value;
      assert.equal(value?.kind === 'string' ? value.value : undefined, 'x"y');
    }
  });

  it('never throws on any text (a document is read on every keystroke)', () => {
    const pieces = ['{', '}', '[', ']', '"', ':', ',', '"cases"', '"name"', '1', 'true', '\\', '\n', ' ', 'x'];
    let seed = 7;
    for (let n = 0; n < 2000; n++) {
      let text = '';
      const length = n % 40;
      for (let i = 0; i < length; i++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        text += pieces[seed % pieces.length];
      }
      const outline = outlineTestFile(text);
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      // Whatever JSON.parse refuses, the outline refuses too.
      if (!parses) assert.equal(outline.ok, false, text);
    }
  });
});

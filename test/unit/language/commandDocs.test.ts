import assert from 'node:assert/strict';
import { catalogue } from '../../../src/parser';
import { completionEntries, hoverMarkdown } from '../../../src/language';

describe('editor: hover and completion from the catalogue', () => {
  it('documents a command with its signature and example', () => {
    const text = hoverMarkdown('encodeSHA256');
    assert.ok(text);
    assert.match(text, /encodeSHA256\(/);
    assert.match(text, /Example:/);
  });

  it('explains invented and mis-cased names', () => {
    assert.match(hoverMarkdown('getSHA256') ?? '', /not an AVAP command — use `encodeSHA256`/);
    assert.match(hoverMarkdown('addvar') ?? '', /did you mean `addVar`/);
    assert.equal(hoverMarkdown('myVariable'), undefined);
  });

  it('offers every catalogue command with a snippet of its parameters', () => {
    const entries = completionEntries();
    assert.deepEqual(
      entries.map((e) => e.label),
      catalogue.COMMANDS.map((c) => c.name),
    );
    const get = entries.find((e) => e.label === 'RequestGet');
    assert.equal(get?.snippet, 'RequestGet(${1:url}, ${2:querystring}, ${3:headers}, ${4:o_result})');
  });
});

import assert from 'node:assert/strict';
// internal-import: the outcome on save, tested without VS Code
import { outcomeOnSave } from '../../../src/editor/generate/outcome';

describe('editor: outcome of accepted generated code on save', () => {
  const code = 'addParam("password", p)\nencodeSHA256(p, h)\naddResult(h)';

  it('is unchanged when the code is saved as accepted, inside other code or re-indented', () => {
    assert.equal(outcomeOnSave(code, code), undefined);
    assert.equal(outcomeOnSave(code, `// handler\n${code}\n\naddVar(x, 1)\n`), undefined);
    assert.equal(
      outcomeOnSave(
        code,
        code
          .split('\n')
          .map((l) => `    ${l}`)
          .join('\r\n'),
      ),
      undefined,
    );
  });

  it('is edited when the accepted code was changed before saving', () => {
    assert.equal(outcomeOnSave(code, code.replace('encodeSHA256(p, h)', 'encodeSHA256(p, digest)')), 'edited');
    assert.equal(outcomeOnSave(code, ''), 'edited');
  });

  it('never calls empty accepted code edited', () => {
    assert.equal(outcomeOnSave('  \n', 'anything'), undefined);
  });
});

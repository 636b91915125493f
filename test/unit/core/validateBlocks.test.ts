import assert from 'node:assert/strict';
import { validateAnswer } from '../../../src/core/code/validateBlocks';
import { extractCode } from '../../../src/core/code/extract';
import { applyTextEdits } from '../../../src/parser';
import { fakeParser } from '../../support/fakes/parser';

/** The parser library behind the port, as the bundled service would answer. */
const inProcess = fakeParser();

describe('core/code validateAnswer: fixes follow their entries onto the joined program and the answer', () => {
  it("shifts the edits of a later block's fixes with its lines", async () => {
    const answer =
      'First read it:\n```avap\naddParam("user", user)\n```\nThen hash it:\n```avap\nhashed = getSHA256(user)\naddResult(hashed)\n```\n';
    const validation = await validateAnswer(inProcess, extractCode(answer), 'answer.avap');
    assert.equal(validation.verdict.kind, 'invalid');
    if (validation.verdict.kind !== 'invalid') return;
    const [entry] = validation.verdict.trace;
    assert.equal(entry?.line, 2, 'line 2 of the joined program');
    assert.ok(entry?.fix);
    assert.deepEqual(
      entry.fix.edits.map((e) => [e.line, e.endLine]),
      [[2, 2]],
    );
    assert.equal(
      applyTextEdits(validation.code, entry.fix.edits),
      'addParam("user", user)\nencodeSHA256(user, hashed)\naddResult(hashed)',
    );
    const [inAnswer] = validation.verdict.responseTrace;
    assert.deepEqual(
      inAnswer?.fix?.edits.map((e) => [e.line, e.endLine]),
      [[7, 7]],
      'line 7 of the answer text',
    );
    assert.match(applyTextEdits(answer, inAnswer?.fix?.edits ?? []) ?? '', /\nencodeSHA256\(user, hashed\)\naddResult/);
  });
});

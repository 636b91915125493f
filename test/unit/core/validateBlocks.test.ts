import assert from 'node:assert/strict';
import { validateAnswer } from '../../../src/core/code/validateBlocks';
import { blockEntries, extractCode } from '../../../src/core/code/extract';
import { applyTextEdits, renderTrace, validateAvap } from '../../../src/parser';
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

describe('core/code validateAnswer: what is delivered joined is validated joined', () => {
  const DOUBLE = 'function double(a) {\n  return a * 2\n}';

  it('two blocks that each define function double(a): each is valid, the joined program is not — invalid, on the second block', async () => {
    const answer = `First:\n\`\`\`avap\n${DOUBLE}\n\`\`\`\nThen use it:\n\`\`\`avap\n${DOUBLE}\naddVar(x, 2)\ny = double(x)\naddResult(y)\n\`\`\`\n`;
    const parser = fakeParser();
    const validation = await validateAnswer(parser, extractCode(answer), 'answer.avap');
    assert.equal(validation.verdict.kind, 'invalid');
    if (validation.verdict.kind !== 'invalid') return;
    assert.deepEqual(validation.blocks, ['valid', 'invalid']);
    assert.equal(validation.calls, 3, 'each block, then the program they are joined into');
    assert.equal(parser.sources[2], validation.code);
    const [dup] = validation.verdict.trace.filter((e) => e.severity === 'error');
    assert.match(dup?.message ?? '', /already defined on line 1/);
    assert.equal(dup?.line, 4, 'line 4 of the joined program');
    assert.equal(validation.verdict.responseTrace.find((e) => e.severity === 'error')?.line, 9, 'line 9 of the answer');
  });

  it('blocks that are valid joined cost one more call and stay valid; a parser that cannot judge the join claims nothing', async () => {
    const answer = '```avap\naddParam(a, a)\n```\nand\n```avap\naddResult(a)\n```';
    const valid = await validateAnswer(fakeParser(), extractCode(answer), 'a.avap');
    assert.equal(valid.verdict.kind, 'valid');
    assert.equal(valid.calls, 3);
    let calls = 0;
    const flaky = fakeParser((source, filename) => {
      calls += 1;
      return calls < 3
        ? { kind: 'validated', result: validateAvap(source, { filename }) }
        : { kind: 'unavailable', reason: 'timeout', detail: 'deadline' };
    });
    const unjudged = await validateAnswer(flaky, extractCode(answer), 'a.avap');
    assert.equal(unjudged.verdict.kind, 'unavailable');
  });

  it('a block inside a list item: the trace and the fixes land on the answer at the code, past the indentation', async () => {
    const answer =
      '1. Hash it:\n\n   ```avap\n   addParam(pwd, pwd)\n   hashed = getSHA256(pwd)\n   addResult(hashed)\n   ```\n';
    const validation = await validateAnswer(inProcess, extractCode(answer), 'answer.avap');
    assert.equal(validation.verdict.kind, 'invalid');
    if (validation.verdict.kind !== 'invalid') return;
    const [entry] = validation.verdict.responseTrace;
    assert.equal(entry?.line, 5);
    assert.equal(entry?.column, 13, 'getSHA256 starts at (1-based) column 13 of the answer line');
    const repaired = applyTextEdits(answer, entry?.fix?.edits ?? []);
    assert.equal(
      repaired,
      '1. Hash it:\n\n   ```avap\n   addParam(pwd, pwd)\n   encodeSHA256(pwd, hashed)\n   addResult(hashed)\n   ```\n',
    );
  });

  it('a fix that splits a line inside a list item keeps the new line in the item (the prefix goes with it)', async () => {
    const answer = '- Set both:\n  ```avap\n  addVar(a, 1); addVar(b, 2)\n  addResult(a)\n  ```\n';
    const [block] = extractCode(answer);
    assert.ok(block);
    const validation = await validateAnswer(inProcess, [block], 'answer.avap');
    assert.equal(validation.verdict.kind, 'invalid');
    if (validation.verdict.kind !== 'invalid') return;
    const onAnswer = validation.verdict.responseTrace.find((e) => e.fix);
    assert.ok(onAnswer?.fix, renderTrace(validation.verdict.responseTrace));
    const repaired = applyTextEdits(answer, onAnswer.fix.edits) ?? '';
    assert.equal(repaired, '- Set both:\n  ```avap\n  addVar(a, 1)\n  addVar(b, 2)\n  addResult(a)\n  ```\n');
    assert.equal((await validateAnswer(inProcess, extractCode(repaired), 'answer.avap')).verdict.kind, 'valid');
    // Back on the block, the fix is the one the parser proved on the block's own code.
    const [own] = blockEntries(block, [onAnswer]);
    assert.equal(applyTextEdits(block.code, own?.fix?.edits ?? []), 'addVar(a, 1)\naddVar(b, 2)\naddResult(a)');
  });
});

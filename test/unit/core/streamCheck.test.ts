/**
 * The early abort while streaming fires only on what no later line and no
 * proven fix can change, and checking a streamed answer costs the new lines'
 * work, not a parse of the fence per line. Counted, not
 * timed: speed is `npm run bench`'s.
 */
import assert from 'node:assert/strict';
import { StreamCheck } from '../../../src/core/code/streamCheck';
import { runPipeline } from '../../../src/core/pipeline/graph';
import { promptTask } from '../../../src/core/routing/prompts';
import { validateAvap } from '../../../src/parser';
import { fakeParser } from '../../support/fakes/parser';
import { streamingLlm } from '../../support/fakes/streamingLlm';
import { deps } from './pipelineFakes';
import { adversarialShapes } from '../../../bench/parser/shapes';

const CODE = { query: 'sum', forceType: 'CODE_GENERATION' as const };

/** Streams `text` in three-character pieces. */
function stream(text: string): StreamCheck {
  const watch = new StreamCheck();
  for (const piece of text.match(/[\s\S]{1,3}/g) ?? []) watch.push(piece);
  return watch;
}

const fenced = (code: string, after = '') => `Here it is:\n\`\`\`avap\n${code}\n\`\`\`\n${after}`;

/** F6: Python loops whose proven fix needs the indented body. */
const RANGE_LOOP = 'addParam(n, n)\naddVar(total, 0)\nfor i in range(1, n):\n    total = total + i\naddResult(total)';
const LIST_LOOP =
  'addParam(items, items)\naddVar(count, 0)\nfor item in items:\n    count = count + 1\naddResult(count)';
/** F7: a call above the function it calls. */
const CALL_ABOVE = [
  'addParam(password, pwd)',
  'hashed = readParam(pwd)',
  'addResult(hashed)',
  'function readParam(s) {',
  '  encodeSHA256(s, h)',
  '  return(h)',
  '}',
].join('\n');
const VALID = 'addParam(n, n)\nstartLoop(i, 1, n)\n  addVar(x, i)\nendLoop()\naddResult(x)';

const generations = (llm: ReturnType<typeof streamingLlm>) =>
  llm.calls.filter((c) => promptTask(c.messages[0]?.content ?? '') === 'generate_code').length;

describe('early abort while streaming', () => {
  describe('F6: never on a finding a proven fix can still repair once more lines arrive', () => {
    it('a Python loop whose body has not streamed yet does not stop the stream, nor does it once the body is there', () => {
      for (const code of [RANGE_LOOP, LIST_LOOP]) {
        const header = code.split('\n').slice(0, 3).join('\n');
        assert.equal(stream(fenced(header)).finding, undefined, `after the header: ${header}`);
        assert.equal(stream(fenced(code)).finding, undefined, code);
        // Not even when the answer ends inside the body: the fence closes before the loop is complete.
        assert.equal(stream(fenced(code.split('\n').slice(0, 4).join('\n'))).finding, undefined);
      }
    });

    it('nor a brace block, an else-if chain or a def before their closing line', () => {
      const braces = 'addParam(a, a)\nif (a > 1) {\n  addVar(r, 1)\n} else {\n  addVar(r, 2)\n}\naddResult(r)';
      assert.equal(stream(fenced(braces)).finding, undefined);
      const def = 'def double(x):\n    y = x * 2\n    return(y)\naddParam(a, a)\nd = double(a)\naddResult(d)';
      assert.equal(stream(fenced(def)).finding, undefined);
    });

    it('still stops on what no fix repairs — once its construct is complete, on the line that completed it', () => {
      const whileLoop = stream(fenced('addParam(n, n)\nwhile n > 0:\n    n = n - 1\naddResult(n)'));
      assert.equal(whileLoop.finding?.entry.code, 'foreign-keyword');
      assert.equal(whileLoop.finding?.entry.line, 2);
      assert.equal(whileLoop.finding?.responseLine, 4);
      assert.equal(whileLoop.finding?.lastLine, 6, 'the dedented line completed the loop');
      const print = stream(fenced('addParam(n, n)\nprint(n)\naddResult(n)'));
      assert.equal(print.finding?.entry.code, 'foreign-keyword');
      assert.equal(print.finding?.lastLine, 4, 'a line on its own is complete at once');
    });

    it('the pipeline: the answer streams to the end and is repaired by the proven fixes, no model call spent', async () => {
      for (const code of [RANGE_LOOP, LIST_LOOP]) {
        const llm = streamingLlm([fenced(code), fenced(VALID)]);
        const result = await runPipeline(deps(llm, fakeParser()).deps, CODE);
        assert.equal(result.earlyAbort, undefined, code);
        assert.equal(llm.aborted[0], false);
        assert.equal(result.validationStatus, '');
        assert.equal(result.repair?.by, 'parser-fixes');
        assert.equal(generations(llm), 1, 'no retry generated');
        assert.match(result.code, /startLoop\(/);
      }
    });

    it('with AVAP_MAX_RETRIES=0 the same answers end "" as well (nothing was ever aborted)', async () => {
      for (const code of [RANGE_LOOP, LIST_LOOP]) {
        const llm = streamingLlm([fenced(code)]);
        const result = await runPipeline(deps(llm, fakeParser(), { pipeline: { maxRetries: 0 } }).deps, CODE);
        assert.equal(result.validationStatus, '');
        assert.equal(result.repair?.by, 'parser-fixes');
      }
    });
  });

  describe('F7: never on a call to a name not defined yet', () => {
    it('a call above the function it calls is valid, and the stream is never stopped at the call', async () => {
      assert.equal(validateAvap(CALL_ABOVE).valid, true);
      for (let n = 1; n <= CALL_ABOVE.split('\n').length; n++) {
        const prefix = CALL_ABOVE.split('\n').slice(0, n).join('\n');
        assert.equal(stream(`\`\`\`avap\n${prefix}\n`).finding, undefined, prefix);
      }
      const llm = streamingLlm([fenced(CALL_ABOVE)]);
      const result = await runPipeline(deps(llm, fakeParser()).deps, CODE);
      assert.equal(result.earlyAbort, undefined);
      assert.equal(result.validationStatus, '');
      assert.equal(generations(llm), 1);
    });

    it('nor at a call to an invented name, with or without a provable rewrite', () => {
      for (const line of ['h = getSHA256(p)', 'getSHA256(p, h, x)', 'x = hashPassword(p)', 'IF(a, 1, =)'])
        assert.equal(stream(fenced(`addParam(p, p)\n${line}\naddResult(h)`)).finding, undefined, line);
    });
  });

  describe('F5: the cost of the new lines only', () => {
    it('each code line is analysed once; the F5 shape (14 KB) needs no full parse at all', () => {
      const shape = adversarialShapes().find((s) => s.name.startsWith('F5'));
      assert.ok(shape);
      const code = shape.build(Math.round(14_000 / shape.build(1).length)).trimEnd();
      const watch = stream(fenced(code));
      assert.equal(watch.finding, undefined);
      assert.equal(watch.lines, code.split('\n').length);
      assert.equal(watch.parses, 0);
    });

    it('a 60 KB answer: one analysis per line, and full parses only each time the code has doubled', () => {
      // 2,400 plain lines, with a `;` (hard, and fixable) on every 100th: the repair can take all 24.
      const code = Array.from({ length: 2400 }, (_, i) => `addVar(value_${i}, ${i})${i % 100 === 99 ? ';' : ''}`).join(
        '\n',
      );
      assert.ok(code.length > 55_000);
      const watch = stream(fenced(code));
      assert.equal(watch.finding, undefined, 'every one has a proven fix');
      assert.equal(watch.lines, 2400);
      assert.ok(watch.parses <= Math.ceil(Math.log2(code.length / 2000)) + 1, `${watch.parses} full parses`);
    });

    it('more fixable findings than the repair can take (its 32 proofs) is a reason to stop: the retry has to do it', () => {
      const code = Array.from({ length: 3000 }, (_, i) => `addVar(v${i}, ${i});`).join('\n');
      const watch = stream(fenced(code));
      assert.equal(watch.finding?.entry.code, 'statement-terminator');
      assert.ok(watch.parses <= 12, `${watch.parses} full parses`);
    });
  });
});

import assert from 'node:assert/strict';
import { renderTrace, validateAvap } from '../../../src/parser';

describe('parser: text rendering', () => {
  it('renders one line per entry in the design form', () => {
    const source = 'addVar(a, 1)\ngetSHA256(a, h)\nfor i in range(3):\nreturnResult(h)\n';
    const text = renderTrace(validateAvap(source).trace);
    assert.equal(
      text,
      [
        "Line 2: 'getSHA256' not defined — did you mean 'encodeSHA256'?",
        "Line 3: unexpected construct 'for i in range(...)' — AVAP loop syntax required: startLoop(i, from, to) … endLoop()",
        "Line 4: 'returnResult' not defined — did you mean 'addResult'?",
      ].join('\n'),
    );
  });

  it('prefixes warnings and can leave them out', () => {
    const trace = validateAvap('startLoop(i, 0, 1)\nend()\n').trace;
    assert.match(renderTrace(trace), /^Line 2: warning: /);
    assert.equal(renderTrace(trace, { includeWarnings: false }), '');
  });

  it('says when the list was truncated', () => {
    const result = validateAvap('getSHA256(a, b)\n'.repeat(20), { maxTraceEntries: 3 });
    assert.match(renderTrace(result.trace, { truncated: result.truncated }), /truncated/);
  });
});

import assert from 'node:assert/strict';
import { validateAvap } from '../../../src/parser';
// internal-import: the trace document's text and URIs, tested without VS Code
import {
  renderTraceDocument,
  sourceUriFromTraceQuery,
  traceUriParts,
} from '../../../src/editor/diagnostics/traceDocument';

describe('editor: trace document', () => {
  it('round-trips the source URI through the trace URI', () => {
    const source = 'file:///work/my%20api/hash.avap';
    const parts = traceUriParts(source);
    assert.equal(parts.path, '/hash.avap.trace.txt');
    assert.equal(sourceUriFromTraceQuery(parts.query), source);
    assert.equal(traceUriParts('untitled:Untitled-1').path, '/untitled:Untitled-1.trace.txt');
  });

  it('shows the whole trace in its Line N: form', () => {
    const result = validateAvap('getSHA256(p, h)\nfor i in range(3):\n');
    const text = renderTraceDocument('api/hash.avap', result);
    assert.match(text, /^AVAP parser trace for api\/hash\.avap/);
    assert.match(text, /Verdict: INVALID/);
    assert.match(text, /^Line 1: 'getSHA256' not defined/m);
    assert.match(text, /^Line 2: unexpected construct/m);
  });

  it('names the rule of each entry under it, with what the rule finds', () => {
    const text = renderTraceDocument('a.avap', validateAvap('getSHA256(p, h)\nfor i in range(3):\n'));
    assert.match(
      text,
      /^Line 1: 'getSHA256' not defined.*\n {4}unknown-command: A statement calls a name that is neither an AVAP command/m,
    );
    assert.match(text, /^Line 2: .*\n {4}foreign-loop: A for … in loop of another language/m);
  });

  it('says when there is no verdict', () => {
    assert.match(renderTraceDocument('a.avap', undefined), /No verdict/);
    assert.match(renderTraceDocument('a.avap', validateAvap('addVar(a, 1)\n')), /Verdict: VALID\n\nNo findings\./);
  });
});

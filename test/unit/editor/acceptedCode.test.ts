import assert from 'node:assert/strict';
// internal-import: the accepted-code tracker, tested on a fake document
import { AcceptedCodeTracker, type TrackedDocument } from '../../../src/editor/generate/acceptedCode';

const CODE = 'addParam(password, p)\nencodeSHA256(p, h)\naddResult(h)';

function world() {
  const open = new Map<string, TrackedDocument>();
  const tracker = new AcceptedCodeTracker((key) => open.get(key), 2);
  const doc = (key: string, text: string, isUntitled = false): TrackedDocument => {
    const d = { key, text, isUntitled };
    open.set(key, d);
    return d;
  };
  const close = (d: TrackedDocument) => {
    open.delete(d.key);
    tracker.closed(d);
  };
  return { tracker, doc, close };
}

describe('editor: accepted generated code until it is saved', () => {
  it('a save with the code as accepted keeps watching; the first save without it reports "edited" once', () => {
    const { tracker, doc } = world();
    tracker.accept('file:///a.avap', { generationId: 'g1', code: CODE });
    // Re-indented and with more lines around it: still the accepted code.
    assert.equal(tracker.saved(doc('file:///a.avap', `// mine\n  ${CODE.replace(/\n/g, '\n  ')}\n`)), undefined);
    assert.ok(tracker.isWatching('file:///a.avap'));
    assert.deepEqual(tracker.saved(doc('file:///a.avap', 'addParam(password, p)\naddResult(p)\n')), {
      generationId: 'g1',
      text: 'addParam(password, p)\naddResult(p)\n',
    });
    assert.equal(tracker.isWatching('file:///a.avap'), false);
    assert.equal(tracker.saved(doc('file:///a.avap', 'other')), undefined, 'reported once');
  });

  it('saves of other documents are ignored; a closed named document ends its watch', () => {
    const { tracker, doc, close } = world();
    tracker.accept('file:///a.avap', { generationId: 'g1', code: CODE });
    assert.equal(tracker.saved(doc('file:///b.avap', 'x')), undefined);
    close(doc('file:///a.avap', CODE));
    assert.equal(tracker.isWatching('file:///a.avap'), false);
    assert.equal(tracker.saved(doc('file:///a.avap', 'edited')), undefined);
  });

  it('Save As of an untitled document: found again under its new name by its text, after or before the untitled one closes', () => {
    const { tracker, doc, close } = world();
    // The untitled document closed first (the usual order of Save As).
    const untitled = doc('untitled:Untitled-1', CODE, true);
    tracker.accept(untitled.key, { generationId: 'g1', code: CODE });
    close(untitled);
    assert.equal(tracker.saved(doc('file:///saved.avap', CODE)), undefined);
    assert.ok(tracker.isWatching('file:///saved.avap'), 'the watch moved to the saved name');
    assert.equal(tracker.saved(doc('file:///saved.avap', 'addResult(x)'))?.generationId, 'g1');

    // The saved document's event came while the untitled one was still open.
    const second = doc('untitled:Untitled-2', CODE, true);
    tracker.accept(second.key, { generationId: 'g2', code: CODE });
    assert.equal(tracker.saved(doc('file:///other.avap', CODE)), undefined);
    assert.ok(tracker.isWatching('file:///other.avap'));
    assert.equal(tracker.isWatching(second.key), false);
  });

  it('remembers a bounded number of closed untitled documents', () => {
    const { tracker, doc, close } = world();
    for (const [i, id] of ['g1', 'g2', 'g3'].entries()) {
      const d = doc(`untitled:Untitled-${i}`, `${CODE}\n// ${id}`, true);
      tracker.accept(d.key, { generationId: id, code: d.text });
      close(d);
    }
    assert.equal(tracker.saved(doc('file:///1.avap', `${CODE}\n// g1`)), undefined);
    assert.equal(tracker.isWatching('file:///1.avap'), false, 'the oldest was forgotten');
    assert.equal(tracker.saved(doc('file:///3.avap', `${CODE}\n// g3`)), undefined);
    assert.ok(tracker.isWatching('file:///3.avap'));
  });
});

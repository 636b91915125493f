/**
 * The knowledge base's divergence notes (what an example says AVAP Lite does instead) against the runtime's
 * portability rules: one note per rule an example can declare. Here, not beside the few-shot tests, because it
 * reads the runtime, a folder the knowledge base's own tests may not import.
 */
import assert from 'node:assert/strict';
import { DIVERGENCE_NOTES } from '../../../src/knowledge';
import { PORTABILITY_RULES } from '../../../src/runtime';

describe("knowledge: the divergence notes cover the runtime's portability rules", () => {
  it('has a note for every divergence an example can declare, and for nothing else', () => {
    assert.deepEqual(
      Object.keys(DIVERGENCE_NOTES).sort(),
      PORTABILITY_RULES.map((r) => r.id)
        .filter((id) => id !== 'command-not-in-reference')
        .sort(),
    );
  });
});

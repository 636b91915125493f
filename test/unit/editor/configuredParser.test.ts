/**
 * The editor's parser connection reports why a connect gave no parser as a
 * typed kind: a connect replaced by newer settings is `superseded` (activation
 * says nothing about it), never recognised by its message.
 */
import assert from 'node:assert/strict';
import { memoryLogger } from '../../support/fakes/ports';
// internal-import: the editor's configured parser, tested with a fake stack
import { ConfiguredParser } from '../../../src/editor/services/configuredParser';
// internal-import: stubbed so the parser connection is tested without sockets
import * as parserStack from '../../../src/editor/services/parserStack';

// The connection loads its gRPC stack with a dynamic import (a bundle of its own once built); here, the module itself.
const loadStack = () => Promise.resolve(parserStack);

const disabled = { url: '', timeoutSeconds: 0, breakerThreshold: 3, breakerCooldownSeconds: 30 };

describe('editor: parser connection results', () => {
  it('a connect replaced by newer settings while it started is the superseded kind; the newer one connects', async () => {
    const connection = new ConfiguredParser('/nonexistent-extension', memoryLogger(), loadStack);
    try {
      const first = connection.connect(disabled);
      const second = connection.connect(disabled);
      const [a, b] = await Promise.all([first, second]);
      assert.ok(!a.ok && a.error.kind === 'superseded', JSON.stringify(a));
      assert.deepEqual(b, { ok: true, value: '(validation disabled)' });
    } finally {
      await connection.dispose();
    }
  });

  it('an unreadable URL is the bad-url kind with the reason', async () => {
    const connection = new ConfiguredParser('/nonexistent-extension', memoryLogger(), loadStack);
    try {
      const result = await connection.connect({ ...disabled, timeoutSeconds: 2, url: 'parser please' });
      assert.ok(!result.ok && result.error.kind === 'bad-url', JSON.stringify(result));
      assert.match(result.error.message, /'parser please' is not a parser URL/);
    } finally {
      await connection.dispose();
    }
  });

  it('before any connection, and after one the settings could not give, the state is not-connected, not an open circuit', async () => {
    const connection = new ConfiguredParser('/nonexistent-extension', memoryLogger(), loadStack);
    try {
      assert.deepEqual(connection.circuit(), { state: 'not-connected', consecutiveFailures: 0 });
      await connection.connect({ ...disabled, timeoutSeconds: 2, url: 'parser please' });
      assert.equal(connection.circuit().state, 'not-connected');
      await connection.connect(disabled);
      assert.equal(connection.circuit().state, 'disabled');
    } finally {
      await connection.dispose();
    }
  });
});

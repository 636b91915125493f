import assert from 'node:assert/strict';
// internal-import: the lazy loader, tested without VS Code
import { LazyModule } from '../../../src/editor/lazy/lazyModule';

describe('LazyModule (the editor features and the assistant load as bundles of their own)', () => {
  it('loads nothing until asked, then once for every caller', async () => {
    let loads = 0;
    const lazy = new LazyModule(() => Promise.resolve({ id: ++loads }));
    assert.equal(lazy.current, undefined);
    assert.equal(lazy.requested, false);
    assert.equal(loads, 0);
    const [a, b] = await Promise.all([lazy.load(), lazy.load()]);
    assert.equal(loads, 1);
    assert.equal(a, b);
    assert.equal(await lazy.load(), a);
    assert.equal(lazy.current, a);
    assert.equal(lazy.requested, true);
  });

  it('a failed load is reported to its callers and tried again by the next one', async () => {
    let attempt = 0;
    const lazy = new LazyModule(() => {
      attempt++;
      if (attempt === 1) return Promise.reject(new Error('bundle missing'));
      return Promise.resolve('loaded');
    });
    await assert.rejects(Promise.all([lazy.load(), lazy.load()]), /bundle missing/);
    assert.equal(attempt, 1, 'concurrent callers share the failed attempt');
    assert.equal(lazy.current, undefined);
    assert.equal(lazy.requested, false);
    assert.equal(await lazy.load(), 'loaded');
    assert.equal(attempt, 2);
    assert.equal(lazy.current, 'loaded');
  });
});

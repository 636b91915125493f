import assert from 'node:assert/strict';
// internal-import: the CLI has no library entry; where its cache lives per platform, a pure function
import { defaultCacheDir } from '../../../src/cli/cacheDir';

describe('cli: the cache directory', () => {
  it('is $XDG_CACHE_HOME/avap-assistant, else ~/.cache/avap-assistant', () => {
    assert.equal(defaultCacheDir({ XDG_CACHE_HOME: '/xdg' }, '/home/u'), '/xdg/avap-assistant');
    assert.equal(
      defaultCacheDir({ XDG_CACHE_HOME: 'relative', HOME: '/h' }, '/home/u'),
      '/h/.cache/avap-assistant',
      'a relative XDG path is ignored',
    );
    assert.equal(defaultCacheDir({}, '/home/u'), '/home/u/.cache/avap-assistant');
  });
});

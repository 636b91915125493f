/**
 * The editor's run settings mirror `avap run`'s variables in name and unit: the same value given as a setting or
 * as the variable makes the same pool budgets and the same allow-list.
 */
import assert from 'node:assert/strict';
// internal-import: the CLI has no library entry; its run flags must give the limits the editor settings give
import { limitsFromFlags, sandboxFromFlags } from '../../../src/cli/runtime/options';
import { DEFAULT_LIMITS } from '../../../src/runtime/host';
import { allowList, poolLimits, type RunSettings } from '../../../src/runs';
// internal-import: the settings reader, tested on plain objects without VS Code
import { readEditorSettings } from '../../../src/editor/settings/editorSettings';

const settings = (over: Partial<RunSettings> = {}): RunSettings => ({
  ...readEditorSettings(() => undefined).settings.run,
  ...over,
});

describe('runs: the run settings and the command line agree', () => {
  it("the defaults are the sandbox's", () => {
    assert.deepEqual(poolLimits(settings()), {
      timeoutMs: DEFAULT_LIMITS.timeoutMs,
      maxSteps: DEFAULT_LIMITS.maxSteps,
      memoryMb: DEFAULT_LIMITS.memoryMb,
    });
    assert.equal(settings().showValues, true);
  });

  it('a timeout in seconds, a step budget and a heap cap in MiB reach the pool as AVAP_RUN_* do', () => {
    const fromEnv = limitsFromFlags(
      {},
      { AVAP_RUN_TIMEOUT: '2.5', AVAP_RUN_MAX_STEPS: '5000', AVAP_RUN_MAX_MEMORY: '64' },
    );
    const fromSettings = poolLimits(settings({ timeoutSeconds: 2.5, maxSteps: 5000, maxMemoryMb: 64 }));
    assert.deepEqual(fromSettings, {
      timeoutMs: fromEnv.timeoutMs,
      maxSteps: fromEnv.maxSteps,
      memoryMb: fromEnv.memoryMb,
    });
  });

  it('the allow-list takes the entries AVAP_RUN_ALLOW_HTTP takes, and names a bad one', async () => {
    const fromEnv = await sandboxFromFlags({}, { AVAP_RUN_ALLOW_HTTP: 'api.example.com,127.0.0.1:8080' });
    const fromSettings = allowList(settings({ allowHttp: ['api.example.com', ' 127.0.0.1:8080 '] }));
    assert.ok(fromSettings.ok);
    assert.deepEqual(fromSettings.value, fromEnv.allowHttp);
    const bad = allowList(settings({ allowHttp: ['http://x/y'] }));
    assert.equal(bad.ok, false);
    if (!bad.ok) assert.match(bad.error.message, /'http:\/\/x\/y' is not HOST or HOST:PORT/);
  });
});

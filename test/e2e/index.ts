/**
 * The extension-host side of the e2e suite: scripts/run-vscode-tests.mjs bundles this
 * module with every test/e2e/**\/*.test.ts and VS Code calls `run()` in the extension
 * host (as @vscode/test-electron does). Results go to the file the runner waits for.
 */
import { writeFileSync, renameSync } from 'node:fs';
import Mocha from 'mocha';
import { e2eConfig } from './support/config';
import { dismissFirstRunOffer } from './support/firstRunOffer';

interface TestRecord {
  fullTitle: string;
  state: 'passed' | 'failed' | 'pending';
  duration?: number;
  error?: string;
}

export function runSuite(loadTests: () => void): Promise<void> {
  const config = e2eConfig();
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec' });
  if (config.grep) mocha.grep(config.grep);
  mocha.suite.emit('pre-require', globalThis, 'e2e-bundle', mocha);
  // A fresh profile: the extension's first-run offer appears once it is activated; it is dismissed before other
  // tests read the notifications.
  mocha.suite.afterEach('the first-run offer, dismissed', dismissFirstRunOffer);
  loadTests();

  const tests: TestRecord[] = [];
  return new Promise((resolve) => {
    const runner = mocha.run((failures) => {
      const stats = runner.stats ?? { passes: 0, failures, pending: 0, tests: 0 };
      const results = {
        stats: {
          passes: stats.passes,
          failures: stats.failures,
          pending: stats.pending,
          tests: stats.passes + stats.failures,
        },
        tests,
      };
      const tmp = `${config.resultsFile}.tmp`;
      writeFileSync(tmp, JSON.stringify(results, null, 2));
      renameSync(tmp, config.resultsFile);
      resolve();
    });
    runner.on('pass', (test) => tests.push({ fullTitle: test.fullTitle(), state: 'passed', duration: test.duration }));
    runner.on('pending', (test) => tests.push({ fullTitle: test.fullTitle(), state: 'pending' }));
    runner.on('fail', (test, err: Error) =>
      tests.push({
        fullTitle: test.fullTitle(),
        state: 'failed',
        duration: test.duration,
        error: err?.stack ?? String(err),
      }),
    );
  });
}

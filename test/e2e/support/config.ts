/** What the runner (scripts/run-vscode-tests.mjs) tells the suite, through out/e2e/config.json next to the bundle. */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface E2eConfig {
  repoRoot: string;
  /** The extension under test (this repository, or the bench's copy of what the .vsix ships). */
  extensionPath: string;
  workspace: string;
  bridgeDir: string;
  resultsFile: string;
  /** Where bench files record their measurements (JSON). */
  benchFile: string;
  /** host:port of the parser service the runner started (also in the avap.parser.url setting). */
  parserAddress: string;
  parserServerJs: string;
  grep: string;
}

let cached: E2eConfig | undefined;

export function e2eConfig(): E2eConfig {
  // In the bundle __dirname is out/e2e; the runner writes config.json there.
  cached ??= JSON.parse(readFileSync(path.join(__dirname, 'config.json'), 'utf8')) as E2eConfig;
  return cached;
}

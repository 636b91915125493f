/** The files generated from the declarations (src/surface), with their expected text: the script writes them, a unit test compares. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generateManifest, README_TABLE_BEGIN, README_TABLE_END, withSettingsTable } from '../../src/surface';
import { languageModelToolsContribution } from '../../src/tools';

export interface GeneratedFile {
  path: string;
  text: string;
}

export function generatedFiles(root: string): GeneratedFile[] {
  const manifestPath = path.join(root, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
  const generated = generateManifest(manifest, { languageModelTools: languageModelToolsContribution() });
  const readmePath = path.join(root, 'README.md');
  const readme = withSettingsTable(readFileSync(readmePath, 'utf8'));
  if (readme === undefined)
    throw new Error(`README.md lacks the settings table's markers: ${README_TABLE_BEGIN} … ${README_TABLE_END}`);
  return [
    { path: manifestPath, text: `${JSON.stringify(generated, null, 2)}\n` },
    { path: readmePath, text: readme },
  ];
}

/** The extension's manifest (package.json) as the tests read it. */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const REPO_ROOT = path.join(__dirname, '..', '..');

/** One setting of `contributes.configuration`. */
interface ManifestSetting {
  type: 'string' | 'number' | 'integer' | 'boolean';
  default: unknown;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  scope?: string;
  markdownDescription?: string;
}

export interface Manifest {
  version: string;
  scripts: Record<string, string>;
  contributes: {
    configuration: { properties: Record<string, ManifestSetting> };
    commands: { command: string; title: string; category: string }[];
    languages: { id: string; extensions: string[] }[];
  };
}

export function readManifest(): Manifest {
  return JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
}

/**
 * The small front matter of knowledge documents:
 *
 *     ---
 *     id: command-encodeSHA256
 *     title: encodeSHA256
 *     kind: command
 *     category: crypto
 *     commands: encodeSHA256, encodeMD5
 *     ---
 *
 * One `key: value` per line; list values are comma-separated. Nothing else.
 */

import type { Failure, Result } from '../result';

interface FrontMatter {
  fields: Record<string, string>;
  body: string;
}

/** The parsed front matter, or why the document has none that can be read. */
export type FrontMatterResult = Result<FrontMatter, Failure<'malformed-front-matter'>>;

const malformed = (message: string): FrontMatterResult => ({
  ok: false,
  error: { kind: 'malformed-front-matter', message },
});

export function parseFrontMatter(text: string): FrontMatterResult {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!normalized.startsWith('---\n')) return malformed("missing front matter (the file must start with '---')");
  const close = normalized.indexOf('\n---\n', 3);
  const closeAtEnd = close === -1 && normalized.endsWith('\n---') ? normalized.length - 4 : -1;
  const end = close !== -1 ? close : closeAtEnd;
  if (end === -1) return malformed("front matter is not closed with '---'");
  const fields: Record<string, string> = {};
  const lines = normalized.slice(4, end).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() === '') continue;
    const m = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(line);
    if (!m) return malformed(`front matter line ${i + 2} is not 'key: value': ${line}`);
    const key = m[1] as string;
    if (Object.hasOwn(fields, key)) return malformed(`front matter key '${key}' appears twice`);
    fields[key] = (m[2] as string).trim();
  }
  const body = normalized.slice(end + 5).replace(/^\n+/, '');
  return { ok: true, value: { fields, body } };
}

export function listField(value: string | undefined): string[] {
  if (value === undefined || value.trim() === '') return [];
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

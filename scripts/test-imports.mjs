#!/usr/bin/env node
// Tests import src/ through each folder's entry (ARCHITECTURE.md): this script counts how test/ imports src/ and rewrites
// the deep imports that an entry can serve. Re-run it after src/ moves (a rename, a split, a new entry export):
//
//   node scripts/test-imports.mjs            report: imports through an entry, marked internal, other deep ones
//   node scripts/test-imports.mjs --write    rewrite, then report (run `npx prettier --write test` after it)
//   node scripts/test-imports.mjs --list     report, and list every deep import left with the names it takes
//
// An entry is a folder's index.ts or one of its light entries (LAYER_ENTRIES in eslint.config.mjs). A deep import
// `import { a, type B } from '../../src/core/code/extract'` is rewritten to `'../../src/core'` when the entry
// exports every imported name as the SAME declaration (the type checker resolves both through their re-exports,
// so a different thing that happens to share the name is never substituted); the light entries are tried after
// the index. Imports from the same entry are then merged into one declaration. A deep import marked on purpose
// (a `// internal-import: <why>` line right above it, the marker `layers/test-imports` reads) is left alone, as
// are namespace, default and side-effect imports, which the report lists for a person to decide.
import path from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');
const TEST = path.join(ROOT, 'test');
const { LAYER_ENTRIES } = await import(pathToFileURL(path.join(ROOT, 'eslint.config.mjs')).href);
export const MARKER = /^\s*\/\/\s*internal-import:\s*\S/;

const write = process.argv.includes('--write');
const list = process.argv.includes('--list');

const config = ts.getParsedCommandLineOfConfigFile(
  path.join(ROOT, 'tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  },
);
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
const checker = program.getTypeChecker();

/** src/<folder>/<inner> of a resolved file, without extension or trailing /index. */
function placeOf(file) {
  const rel = path.relative(SRC, file).split(path.sep).join('/');
  if (rel.startsWith('..')) return undefined;
  const parts = rel.replace(/\.(d\.)?ts$/, '').split('/');
  const folder = parts[0];
  const inner = parts
    .slice(1)
    .join('/')
    .replace(/(^|\/)index$/, '');
  return { folder, inner };
}

function isEntry({ folder, inner }) {
  return inner === '' || (LAYER_ENTRIES[folder] ?? []).includes(inner);
}

function resolve(specifier, fromFile) {
  const r = ts.resolveModuleName(specifier, fromFile, config.options, ts.sys).resolvedModule;
  return r?.resolvedFileName;
}

/** The declarations a module exports, by exported name, each resolved through its aliases. */
const exportCache = new Map();
function exportsOf(file) {
  if (exportCache.has(file)) return exportCache.get(file);
  const sf = program.getSourceFile(file);
  const symbol = sf && checker.getSymbolAtLocation(sf);
  const map = new Map();
  if (symbol) {
    for (const exp of checker.getExportsOfModule(symbol)) {
      const target = exp.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exp) : exp;
      map.set(exp.name, target);
    }
  }
  exportCache.set(file, map);
  return map;
}

function entryFiles(folder) {
  const candidates = ['', ...(LAYER_ENTRIES[folder] ?? [])];
  const files = [];
  for (const inner of candidates) {
    const base = path.join(SRC, folder, inner);
    for (const f of [`${base}.ts`, path.join(base, 'index.ts')]) {
      if (program.getSourceFile(f)) {
        files.push({ inner, file: f });
        break;
      }
    }
  }
  return files;
}

function hasMarker(sf, node) {
  const text = sf.getFullText();
  const ranges = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
  return ranges.some((r) => MARKER.test(text.slice(r.pos, r.end)));
}

function relativeSpecifier(fromFile, toFolder, inner) {
  let rel = path
    .relative(path.dirname(fromFile), path.join(SRC, toFolder, inner))
    .split(path.sep)
    .join('/');
  if (!rel.startsWith('.')) rel = `./${rel}`;
  return rel;
}

const counts = { entry: 0, marked: 0, deep: 0, rewritten: 0 };
const leftovers = [];
const testFiles = program
  .getSourceFiles()
  .filter((sf) => !sf.isDeclarationFile && sf.fileName.startsWith(TEST + path.sep));

/** Every import of src/ in a file: declarations, export…from, import() and import('…') types. */
function srcImports(sf) {
  const found = [];
  const visit = (node) => {
    let spec;
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier)
      spec = node.moduleSpecifier;
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      spec = node.arguments[0];
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) spec = node.argument.literal;
    if (spec && ts.isStringLiteral(spec) && spec.text.startsWith('.')) {
      const file = resolve(spec.text, sf.fileName);
      const place = file && placeOf(file);
      if (place) found.push({ node, spec, place, file });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/**
 * Where the names of one deep import can come from: the entry (index.ts first, then the light entries) that
 * exports the most of them as the same declarations, with those names; the names no entry has stay deep.
 * Undefined when no entry serves any name, or for an import this script does not rewrite.
 */
function rewrite(sf, imp) {
  const { node, place, file } = imp;
  if (!ts.isImportDeclaration(node)) return undefined;
  const clause = node?.importClause;
  if (!clause || clause.name || !clause.namedBindings || !ts.isNamedImports(clause.namedBindings)) return undefined;
  const deep = exportsOf(file);
  const wanted = clause.namedBindings.elements.map((el) => {
    const imported = (el.propertyName ?? el.name).text;
    return { imported, local: el.name.text, target: deep.get(imported), isType: clause.isTypeOnly || el.isTypeOnly };
  });
  let best;
  for (const entry of entryFiles(place.folder)) {
    const exported = exportsOf(entry.file);
    const names = [];
    const rest = [];
    for (const w of wanted) {
      let name;
      if (w.target && exported.get(w.imported) === w.target) name = w.imported;
      else if (w.target) for (const [n, t] of exported) if (t === w.target) name ??= n;
      if (name) names.push({ name, local: w.local, isType: w.isType });
      else rest.push({ name: w.imported, local: w.local, isType: w.isType });
    }
    if (names.length > (best?.names.length ?? 0))
      best = { specifier: relativeSpecifier(sf.fileName, place.folder, entry.inner), names, rest };
  }
  return best;
}

/** An import declaration of `names` from `specifier`: `import type {…}` when every name is a type. */
function importText(names, specifier) {
  const allTypes = names.every((n) => n.isType);
  return `import ${allTypes ? 'type ' : ''}{ ${names.map((n) => renderSpecifier(n, !allTypes)).join(', ')} } from '${specifier}';`;
}

function renderSpecifier({ name, local, isType }, inlineType) {
  const base = name === local ? name : `${name} as ${local}`;
  return inlineType && isType ? `type ${base}` : base;
}

for (const sf of testFiles) {
  const imports = srcImports(sf);
  const edits = [];
  /** Declarations that end up importing an entry by name, grouped by specifier, for merging. */
  const byEntry = new Map();
  for (const imp of imports) {
    const rel = path.relative(ROOT, sf.fileName);
    if (isEntry(imp.place)) {
      counts.entry++;
      if (ts.isImportDeclaration(imp.node)) collect(byEntry, imp.spec.text, imp.node, undefined);
      continue;
    }
    if (hasMarker(sf, ts.isImportDeclaration(imp.node) ? imp.node : imp.node)) {
      counts.marked++;
      continue;
    }
    const done = write ? rewrite(sf, imp) : undefined;
    if (done && done.rest.length === 0) {
      counts.rewritten++;
      counts.entry++;
      collect(byEntry, done.specifier, imp.node, done);
      continue;
    }
    if (done) {
      // Split: the names an entry has go to the entry's import; the rest stay, deep, for a person to decide.
      counts.rewritten++;
      counts.entry++;
      collect(byEntry, done.specifier, undefined, done);
      edits.push({
        start: imp.node.getStart(sf),
        end: imp.node.getEnd(),
        text: importText(done.rest, imp.spec.text),
        deepOf: done.specifier,
      });
    }
    counts.deep++;
    const names = ts.isImportDeclaration(imp.node)
      ? (imp.node.importClause?.getText(sf) ?? '(side effect)')
      : imp.node.kind;
    leftovers.push(`${rel}: src/${imp.place.folder}/${imp.place.inner}  ${list ? names : ''}`);
  }
  if (!write) continue;
  for (const [specifier, decls] of byEntry) {
    if (!decls.some((d) => d.done)) continue;
    // Merge every named import of this entry into one; keep anything else (a namespace import) as it is.
    const mergeable = decls.filter((d) => d.names);
    const seen = new Set();
    const unique = mergeable
      .flatMap((d) => d.names)
      .filter((n) => {
        const key = `${n.name}/${n.local}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    const text = importText(unique, specifier);
    const placed = mergeable.filter((d) => d.node);
    if (placed.length === 0) {
      // Only split imports feed this entry: the entry's import goes right above the first of them.
      const split = edits.find((e) => e.deepOf === specifier);
      split.text = `${text}\n${split.text}`;
      continue;
    }
    const [first, ...rest] = placed;
    edits.push({ start: first.node.getStart(sf), end: first.node.getEnd(), text });
    for (const d of rest) edits.push({ start: d.node.getStart(sf), end: d.node.getEnd(), text: '' });
  }
  if (edits.length === 0) continue;
  let text = sf.getFullText();
  for (const e of edits.sort((a, b) => b.start - a.start)) {
    let end = e.end;
    if (e.text === '' && text[end] === '\n') end++;
    text = text.slice(0, e.start) + e.text + text.slice(end);
  }
  writeFileSync(sf.fileName, text);
}

/** Records an import declaration of an entry with its names (undefined when it cannot be merged). */
function collect(byEntry, specifier, node, done) {
  const clause = node?.importClause;
  let names;
  if (done) names = done.names;
  else if (clause && !clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings))
    names = clause.namedBindings.elements.map((el) => ({
      name: (el.propertyName ?? el.name).text,
      local: el.name.text,
      isType: clause.isTypeOnly || el.isTypeOnly,
    }));
  const key = specifier;
  if (!byEntry.has(key)) byEntry.set(key, []);
  byEntry.get(key).push({ node, names, done: Boolean(done) });
}

const total = counts.entry + counts.marked + counts.deep;
console.log(
  `test/ imports of src/: ${total} — through an entry ${counts.entry}, internal on purpose (marked) ${counts.marked}, other deep imports ${counts.deep}` +
    (write ? ` (rewritten to an entry this run: ${counts.rewritten})` : ''),
);
if (leftovers.length > 0) console.log(leftovers.sort().join('\n'));
void readFileSync;

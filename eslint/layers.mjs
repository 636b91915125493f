// @ts-check
/**
 * `layers/imports`: the one rule that keeps the folder import graph layered
 * (after the layer rule of microsoft/vscode-copilot-chat). The
 * table lives in eslint.config.mjs; this rule only applies it.
 *
 * For a file in `src/<folder>/…` (or `src/extension.ts`, the folder
 * `extension`), every relative import, `export … from`, `import()` and
 * `require()` that leaves the folder must
 *   1. name a folder of the table (else: unlayered),
 *   2. name a folder of a lower layer, or one listed before its own folder in
 *      the same layer (else: upward), and
 *   3. go through that folder's `index.ts` or one of the folder's declared
 *      light entries (else: deep import).
 * Imports inside a folder and of npm packages are not this rule's business
 * (the `vscode` rule is a separate one).
 */
import path from 'node:path';

/**
 * @typedef {{ folders: string[], note?: string }} Layer
 * @typedef {{ layers: Layer[], entries?: Record<string, string[]>, srcDir?: string }} LayerOptions
 */

/** @param {string} file @param {string} srcDir */
function placeOf(file, srcDir) {
  const rel = path.relative(srcDir, file).split(path.sep).join('/');
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const parts = rel.split('/');
  const folder = parts.length === 1 ? parts[0].replace(/\.(ts|mts|cts|js|mjs|cjs|json)$/, '') : parts[0];
  const inner = parts
    .slice(1)
    .join('/')
    .replace(/\.(ts|js|json)$/, '')
    .replace(/(^|\/)index$/, '');
  return { folder, inner };
}

/**
 * Where each folder sits: [layer index, position in the layer].
 * @param {Layer[]} layers
 */
function layerIndex(layers) {
  /** @type {Map<string, [number, number]>} */
  const at = new Map();
  layers.forEach((layer, i) => layer.folders.forEach((folder, j) => at.set(folder, [i, j])));
  return at;
}

/**
 * Whether `from` may import `to` (both folders of the table).
 * @param {Map<string, [number, number]>} at @param {string} from @param {string} to
 */
function mayImport(at, from, to) {
  const a = at.get(from);
  const b = at.get(to);
  if (!a || !b) return false;
  return b[0] < a[0] || (b[0] === a[0] && b[1] < a[1]);
}

/**
 * The visitors that find every module a file names — imports and re-exports, dynamic `import()`, `require()`,
 * `import x = require()` and `import('…').T` in types — each handed to `check(node, specifier)`; both rules use them.
 * @param {(node: any, specifier: unknown) => void} check
 */
function moduleReferences(check) {
  return {
    /** @param {any} node */
    ImportDeclaration(node) {
      check(node.source, node.source.value);
    },
    /** @param {any} node */
    ExportNamedDeclaration(node) {
      if (node.source) check(node.source, node.source.value);
    },
    /** @param {any} node */
    ExportAllDeclaration(node) {
      check(node.source, node.source.value);
    },
    /** @param {any} node */
    ImportExpression(node) {
      if (node.source.type === 'Literal') check(node.source, node.source.value);
    },
    /** @param {any} node */
    CallExpression(node) {
      const [arg] = node.arguments;
      if (node.callee.type === 'Identifier' && node.callee.name === 'require' && arg?.type === 'Literal')
        check(arg, arg.value);
    },
    /** @param {any} node `import('…').T` in a type */
    TSImportType(node) {
      const arg = node.argument?.literal ?? node.argument;
      if (arg?.type === 'Literal') check(arg, arg.value);
    },
    /** @param {any} node TSImportEqualsDeclaration: `import x = require('…')` */
    TSExternalModuleReference(node) {
      check(node.expression, node.expression.value);
    },
  };
}

/** @type {import('eslint').Rule.RuleModule} */
const importsRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports between src/ folders follow the layer table and go through index.ts.' },
    schema: [{ type: 'object', additionalProperties: true }],
    messages: {
      unlayered:
        "src/{{folder}} is in no layer of eslint.config.mjs's LAYERS; place it there (and in ARCHITECTURE.md).",
      upward:
        'src/{{from}} may not import src/{{to}}: {{to}} is not below {{from}} in the layer table (eslint.config.mjs LAYERS, ARCHITECTURE.md).',
      deep: "Import src/{{to}} through its index.ts ('{{suggest}}'), not its inner module '{{inner}}'{{entries}}.",
    },
  },
  create(context) {
    const options = /** @type {LayerOptions} */ (context.options[0] ?? { layers: [] });
    const srcDir = path.resolve(context.cwd, options.srcDir ?? 'src');
    const at = layerIndex(options.layers);
    const entries = options.entries ?? {};
    const file = context.filename;
    const here = placeOf(file, srcDir);
    if (!here) return {};

    /** @param {import('estree').Node} node @param {unknown} value */
    function check(node, value) {
      if (typeof value !== 'string' || !value.startsWith('.') || !here) return;
      const target = placeOf(path.resolve(path.dirname(file), value), srcDir);
      if (!target || target.folder === here.folder) return;
      if (!at.has(target.folder)) {
        context.report({ node, messageId: 'unlayered', data: { folder: target.folder } });
        return;
      }
      if (!mayImport(at, here.folder, target.folder)) {
        context.report({ node, messageId: 'upward', data: { from: here.folder, to: target.folder } });
        return;
      }
      const allowed = entries[target.folder] ?? [];
      if (target.inner !== '' && !allowed.includes(target.inner)) {
        let suggest = path.relative(path.dirname(file), path.join(srcDir, target.folder)).split(path.sep).join('/');
        if (!suggest.startsWith('.')) suggest = `./${suggest}`;
        const list = allowed.length > 0 ? ` (its light entries: ${allowed.join(', ')})` : '';
        context.report({
          node,
          messageId: 'deep',
          data: { to: target.folder, inner: target.inner, suggest, entries: list },
        });
      }
    }

    return {
      Program(node) {
        if (here.folder !== '' && !at.has(here.folder))
          context.report({ node, messageId: 'unlayered', data: { folder: here.folder } });
      },
      ...moduleReferences(check),
    };
  },
};

/**
 * The marker that lets a test import an inner module on purpose: a line comment right above the import,
 * `// internal-import: <why>` (a reason of at least a few words). `grep -rn internal-import test/` lists them all.
 */
const INTERNAL_IMPORT = /^\s*internal-import:\s*(.*)$/;

/**
 * The src/ folder a test file is about: the first `subjects` entry whose directory holds the file, else the
 * folder named by `test/unit/<folder>/`, `test/integration/<folder>/` or `test/fixtures/<folder>/`.
 * @param {string} rel the file relative to the repository, with forward slashes
 * @param {[string, string][]} subjects
 */
function subjectOf(rel, subjects) {
  for (const [dir, folder] of subjects) if (rel === dir || rel.startsWith(`${dir}/`)) return folder;
  const m = /^test\/(?:unit|integration|fixtures)\/([^/]+)\//.exec(rel);
  return m ? m[1] : undefined;
}

/**
 * `layers/test-imports`: the layer rule for test/. A test file is about one src/ folder, its subject
 * (`subjectOf`); it may import the subject and the folders the subject may import, each through its entry
 * (index.ts or a light entry). An inner module may be imported only on purpose, under an `internal-import:`
 * marker that says why; a marker above an import that needs none is reported too, so the markers stay true.
 * @type {import('eslint').Rule.RuleModule}
 */
const testImportsRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Tests import src/ through entries, and only what the folder they test may import.' },
    schema: [{ type: 'object', additionalProperties: true }],
    messages: {
      unplaced:
        'test file about no src/ folder: put it under test/unit/<folder>/ or test/integration/<folder>/, or map its directory in TEST_SUBJECTS (eslint.config.mjs).',
      unlayered: "src/{{folder}} is in no layer of eslint.config.mjs's LAYERS.",
      upward:
        'a test of src/{{from}} may not import src/{{to}}: {{to}} is not a folder {{from}} may import (LAYERS, ARCHITECTURE.md); test it where it lives.',
      deep: "Import src/{{to}} through its entry ('{{suggest}}'), not its inner module '{{inner}}'{{entries}}; a test of an internal on purpose says so on the line above: // internal-import: <why>.",
      needless: 'This import goes through an entry: drop its internal-import marker.',
    },
  },
  create(context) {
    const options = context.options[0] ?? { layers: [] };
    const srcDir = path.resolve(context.cwd, options.srcDir ?? 'src');
    const at = layerIndex(options.layers);
    const entries = options.entries ?? {};
    const file = context.filename;
    const rel = path.relative(context.cwd, file).split(path.sep).join('/');
    const subject = subjectOf(rel, options.subjects ?? []);
    const source = context.sourceCode;
    let reportedUnplaced = false;

    /** The marker comment right above the statement that holds `node`, if any. */
    function markerOf(node) {
      /** @type {any} */
      let statement = node;
      while (statement.parent && statement.parent.type !== 'Program') statement = statement.parent;
      const comments = source.getCommentsBefore(statement);
      const last = comments[comments.length - 1];
      if (!last || last.type !== 'Line' || last.loc.end.line !== statement.loc.start.line - 1) return undefined;
      const m = INTERNAL_IMPORT.exec(last.value);
      return m && m[1].trim().split(/\s+/).length >= 3 ? last : undefined;
    }

    /** @param {import('estree').Node} node @param {unknown} value */
    function check(node, value) {
      if (typeof value !== 'string' || !value.startsWith('.')) return;
      const target = placeOf(path.resolve(path.dirname(file), value), srcDir);
      if (!target) return;
      if (!subject || !at.has(subject)) {
        if (!reportedUnplaced) context.report({ node, messageId: 'unplaced' });
        reportedUnplaced = true;
        return;
      }
      if (!at.has(target.folder)) {
        context.report({ node, messageId: 'unlayered', data: { folder: target.folder } });
        return;
      }
      if (target.folder !== subject && !mayImport(at, subject, target.folder)) {
        context.report({ node, messageId: 'upward', data: { from: subject, to: target.folder } });
        return;
      }
      const allowed = entries[target.folder] ?? [];
      const marker = markerOf(node);
      if (target.inner === '' || allowed.includes(target.inner)) {
        if (marker) context.report({ node, messageId: 'needless' });
        return;
      }
      if (marker) return;
      let suggest = path.relative(path.dirname(file), path.join(srcDir, target.folder)).split(path.sep).join('/');
      if (!suggest.startsWith('.')) suggest = `./${suggest}`;
      const list = allowed.length > 0 ? ` (or its light entries: ${allowed.join(', ')})` : '';
      context.report({
        node,
        messageId: 'deep',
        data: { to: target.folder, inner: target.inner, suggest, entries: list },
      });
    }

    return moduleReferences(check);
  },
};

export default { meta: { name: 'layers' }, rules: { imports: importsRule, 'test-imports': testImportsRule } };

// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import layers from './eslint/layers.mjs';

/**
 * The layers of src/, lowest first (ARCHITECTURE.md explains each folder). A
 * folder may import the folders of lower layers and, inside its own layer, the
 * folders listed before it; nothing else (`layers/imports`, eslint/layers.mjs).
 * A new folder must be placed here, or lint fails on its first import.
 */
export const LAYERS = [
  {
    note: 'small utilities with no project imports; the Result type; the contributed surface (commands, settings)',
    folders: ['result', 'html', 'jsonl', 'net', 'surface'],
  },
  { note: 'the AVAP parser library and the syntax tree built on its scanner', folders: ['parser', 'syntax'] },
  {
    note: 'input contracts, the parser wire protocol, the knowledge base, the AVAP runtime, language intelligence',
    folders: ['inputContract', 'protocol', 'knowledge', 'runtime', 'language'],
  },
  { note: 'the pipeline', folders: ['core'] },
  {
    note: 'answer quality, language-model tools, training signals, runs and tests as the developer sees them',
    folders: ['quality', 'tools', 'signals', 'runs'],
  },
  { note: 'the assistant stack: core, judge and signals wired from one configuration', folders: ['stack'] },
  {
    note: 'the front ends: evaluation, REST, the parser service, the language server, the CLI, the editor',
    folders: ['eval', 'rest', 'server', 'lsp', 'cli', 'editor'],
  },
  { note: 'the extension entry (src/extension.ts)', folders: ['extension'] },
];

/** Every folder but the editor adapter and the extension entry is editor-free: it never imports the editor API. */
export const EDITOR_FREE = LAYERS.flatMap((l) => l.folders)
  .filter((f) => f !== 'editor' && f !== 'extension')
  .map((f) => `src/${f}/**`);

/**
 * Cross-folder imports go through a folder's index.ts; these are the only other
 * modules another folder may import. Each exists so a bundle can load a piece
 * without the whole folder: the editor entry reads the parser URL setting and
 * logs (core/ports, core/parser/url → protocol/parserUrl) without the pipeline,
 * the lazy parser-connection bundle opens the connection without the assistant.
 * `parser/catalogue` is the parser's command catalogue, a sub-folder with its own index.ts.
 * `parser/types` and `parser/catalogue/rules` are the result types and the rule
 * catalogue alone: the wire conversions need them, not the parser itself.
 * `parser/lexical` is the line scanner and call splitter alone: src/syntax builds its tree on them.
 * `protocol/parserDefinition` is the service's run-time reflection of the .proto
 * (@grpc/proto-loader), kept out of the protocol index so that clients, which
 * use the hand-written codecs, never load it.
 */
export const LAYER_ENTRIES = {
  core: ['ports', 'parser/url', 'parser/connection'],
  protocol: ['parserUrl', 'parserDefinition'],
  parser: ['catalogue', 'types', 'catalogue/rules', 'lexical'],
  // The sandbox alone: front ends run programs through its pool, whose worker threads hold the interpreter, so
  // the caller's bundle carries no interpreter. `host/cases` is reading and judging run cases alone: the
  // evaluation's functional check needs it, and the editor's report view (which reaches the evaluation) must not
  // carry the pool and the embedded database.
  runtime: ['host', 'host/cases'],
  language: ['diagnostics', 'legend'],
  // The names and places of a program's request and test files, for the editor's start-up (the Testing view lists
  // cases before anything runs); the rest of the folder runs cases and reaches the sandbox.
  runs: ['outline'],
  // The command table alone, for the activation bundle (it registers a stand-in per command); the settings'
  // declarations and the generators stay out of it.
  surface: ['commands'],
};
/**
 * The src/ folder each test directory is about, where its path does not say it: a file under
 * `test/unit/<folder>/`, `test/integration/<folder>/` or `test/fixtures/<folder>/` is about that folder. A test may
 * import its folder and what that folder may import (`layers/test-imports`, eslint/layers.mjs). The suites of the
 * whole extension (the editor suite, the browser suite, the build and lint checks) and the shared test support are
 * about the top, `extension`: they may import any folder, still through its entry.
 * @type {[string, string][]}
 */
export const TEST_SUBJECTS = [
  // Files first (the first match decides). These tests follow one behaviour up a layer, on purpose:
  // the rule catalogue's trigger table has codes that only an entry decoded from the wire carries (protocol);
  ['test/unit/parser/rules.test.ts', 'protocol'],
  // a repair by the parser's fixes shows in the training signal the pipeline's result becomes (signals);
  ['test/unit/core/fewerRoundTrips.test.ts', 'signals'],
  // the functional check's figures reach the editor's report view (editor).
  ['test/unit/eval/functional.test.ts', 'editor'],
  ['test/integration/pipeline', 'core'],
  ['test/unit/build', 'extension'],
  ['test/unit/lint', 'extension'],
  ['test/e2e', 'extension'],
  ['test/browser', 'extension'],
  ['test/support', 'extension'],
];
/** Files tsconfig.json covers: linted with type information. */
const TYPED = ['**/*.ts'];
/** Plain JavaScript outside the TypeScript program. */
const UNTYPED = ['**/*.js', '**/*.mjs', '**/*.cjs'];

const NO_FOCUSED_TESTS = {
  selector: 'CallExpression[callee.object.name=/^(it|describe|suite|test)$/][callee.property.name=/^(only|skip)$/]',
  message: 'Focused or skipped tests silence the suite.',
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'wasm/**', 'node_modules/**', '.tools/**', 'test-output/**', '.vscode-test/**'] },
  js.configs.recommended,
  // TypeScript (everything tsconfig.json covers) is linted with type information; the project service reuses the
  // tsconfig, so `npm run lint` builds one program, not one per file.
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: TYPED })),
  {
    files: TYPED,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  // Plain JavaScript (build scripts, the webview script) has no type information: the untyped rules only.
  ...tseslint.configs.recommended.map((config) => ({ ...config, files: UNTYPED })),
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', NO_FOCUSED_TESTS],
    },
  },
  {
    files: EDITOR_FREE,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: 'Editor-free code must not import vscode; put editor adapters in src/editor.' },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        NO_FOCUSED_TESTS,
        {
          selector: "CallExpression[callee.name='require'][arguments.0.value='vscode']",
          message: 'Editor-free code must not require vscode; put editor adapters in src/editor.',
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { layers },
    rules: {
      'layers/imports': ['error', { layers: LAYERS, entries: LAYER_ENTRIES }],
      // Options objects instead of long positional argument lists: more than four values in a row are easily
      // swapped (two strings, two booleans) and unreadable at the call site; group them in a named interface. A
      // callback whose shape a library decides keeps it, with an eslint-disable line that says so.
      'max-params': ['error', 4],
    },
  },
  {
    files: ['test/**/*.ts'],
    plugins: { layers },
    rules: {
      'layers/test-imports': ['error', { layers: LAYERS, entries: LAYER_ENTRIES, subjects: TEST_SUBJECTS }],
    },
  },
  {
    files: ['media/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
);

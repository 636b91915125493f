// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Folders that make up the editor-free core: they must never import the editor API. */
export const EDITOR_FREE = [
  'src/parser/**', 'src/protocol/**', 'src/server/**', 'src/core/**', 'src/cli/**', 'src/knowledge/**',
  'src/quality/**', 'src/signals/**', 'src/rest/**', 'src/tools/**', 'src/eval/**', 'src/html/**', 'src/jsonl/**', 'src/net/**',
];

/** Files tsconfig.json covers: linted with type information. */
const TYPED = ['**/*.ts'];
/** Plain JavaScript outside the TypeScript program. */
const UNTYPED = ['**/*.js', '**/*.mjs', '**/*.cjs'];

const NO_FOCUSED_TESTS = {
  selector: "CallExpression[callee.object.name=/^(it|describe|suite|test)$/][callee.property.name=/^(only|skip)$/]",
  message: 'Focused or skipped tests silence the suite.',
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.tools/**', 'test-output/**', '.vscode-test/**'] },
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
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'Editor-free code must not import vscode; put editor adapters in src/editor.' }],
      }],
      'no-restricted-syntax': ['error', NO_FOCUSED_TESTS, {
        selector: "CallExpression[callee.name='require'][arguments.0.value='vscode']",
        message: 'Editor-free code must not require vscode; put editor adapters in src/editor.',
      }],
    },
  },
  {
    files: ['media/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
);

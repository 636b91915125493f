// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Folders that make up the editor-free core: they must never import the editor API. */
export const EDITOR_FREE = [
  'src/parser/**', 'src/protocol/**', 'src/server/**', 'src/core/**', 'src/cli/**', 'src/knowledge/**',
  'src/quality/**', 'src/signals/**', 'src/rest/**', 'src/tools/**', 'src/eval/**', 'src/html/**', 'src/jsonl/**', 'src/net/**',
];

const NO_FOCUSED_TESTS = {
  selector: "CallExpression[callee.object.name=/^(it|describe|suite|test)$/][callee.property.name=/^(only|skip)$/]",
  message: 'Focused or skipped tests silence the suite.',
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.tools/**', 'test-output/**', '.vscode-test/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
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
    files: ['media/**/*.js', 'test/e2e/webview/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
);

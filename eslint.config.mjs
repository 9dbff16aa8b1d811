import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'esbuild.js', 'scripts/**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // The boundary: only src/vscode/ and src/extension.ts may touch the editor API.
    files: ['src/**/*.ts'],
    ignores: ['src/vscode/**', 'src/extension.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'Only src/vscode/ and src/extension.ts may import vscode.' }] }],
    },
  },
  {
    // The core is pure: no I/O libraries, so it runs and is tested anywhere.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: ['vscode', 'fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'sql.js', 'simple-git', 'gray-matter', 'child_process', 'node:child_process', 'proper-lockfile'],
      }],
    },
  },
);

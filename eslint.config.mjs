import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import baton from './scripts/eslint/plugin.mjs';

// The direction: core ← adapters ← app ← doors. A door parses its own input
// and formats its own output; every use case lives once in src/app. Files
// directly in src/ (cli.ts, extension.ts) are the entry points that compose.
const DOORS = ['cli', 'mcp', 'hooks', 'vscode'];
export const LAYERS = {
  root: 'src',
  allow: {
    core: [],
    adapters: ['core'],
    app: ['core', 'adapters'],
    ...Object.fromEntries(DOORS.map((door) => [door, ['core', 'app']])),
  },
  doors: DOORS,
};

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
    // The layers and no cycles: scripts/eslint/plugin.mjs, proven by test/unit/lintBoundaries.test.ts.
    files: ['src/**/*.ts'],
    plugins: { baton },
    rules: {
      'baton/layers': ['error', LAYERS],
      'baton/no-cycle': 'error',
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

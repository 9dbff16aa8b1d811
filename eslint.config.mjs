import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

// The direction: core ← adapters ← app ← doors. A door parses its own input
// and formats its own output; every use case lives once in src/app. Files
// directly in src/ (cli.ts, extension.ts) are the entry points that compose:
// they import freely, and only they import doors.
const DOORS = ['cli', 'mcp', 'hooks', 'vscode'];
const ALLOW = {
  core: [],
  adapters: ['core'],
  app: ['core', 'adapters'],
  ...Object.fromEntries(DOORS.map((door) => [door, ['core', 'app']])),
};
const LAYERS = Object.keys(ALLOW);

// The layers as import-x/no-restricted-paths zones: per layer, one zone for
// what goes against the direction (a layer it may not import, or an entry
// point), and for a door one for the other doors. The zones never overlap, so
// a bad import is reported once. `from` is globs only (import-x refuses a mix
// of globs and folders), resolved against this file's folder so the zones hold
// wherever ESLint is started from (the rule's default, process.cwd(), would
// make them match nothing when it runs in a subfolder). Type-only imports count here: a
// type is part of what a layer knows.
const dir = (layer) => `src/${layer}/**`;
const ENTRY_POINTS = 'src/*';
const ZONES = LAYERS.flatMap((layer) => {
  const isDoor = DOORS.includes(layer);
  const against = LAYERS.filter((l) => l !== layer && !ALLOW[layer].includes(l) && !(isDoor && DOORS.includes(l)));
  const allowed = ALLOW[layer].length ? ALLOW[layer].join(', ') : 'itself';
  const zones = [
    {
      target: `src/${layer}`,
      from: [...against.map(dir), ENTRY_POINTS],
      message: `${layer} may import only ${allowed}. The direction is core ← adapters ← app ← doors, and only the entry points in src/ import doors.`,
    },
  ];
  if (isDoor) {
    zones.push({
      target: `src/${layer}`,
      from: DOORS.filter((d) => d !== layer).map(dir),
      message: `The ${layer} door may not import another door: share the use case through src/app, or hand it in from the entry point.`,
    });
  }
  return zones;
});

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'esbuild.js', 'scripts/**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Named, not guessed from where the config was loaded (typescript-eslint
    // refuses to guess once one process has loaded two configs, as the
    // boundary test does).
    languageOptions: { parserOptions: { tsconfigRootDir: import.meta.dirname } },
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
    // The layers and no cycles, proven by test/unit/lintBoundaries.test.ts.
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // Imports resolve as tsc resolves them (tsconfig.json); only the
      // project's TypeScript files are read for the import graph.
      'import-x/resolver-next': [createTypeScriptImportResolver()],
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.cts'],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: ZONES }],
      // Type-only imports make no cycle (import-x always skips `import type`
      // and imports of types only, and that is what we want): they are erased
      // at compile time, so they cannot change the order modules load in, and
      // two modules' types may well name each other. consistent-type-imports
      // above marks every one.
      // A dynamic import() does count: it is still a dependency at run time.
      // Packages are not followed: a cycle through node_modules is not ours.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // A folder of src/ that is no layer fails: import-x judges imports, so
    // this is ESLint's own rule reporting every file there.
    files: ['src/*/**/*.ts'],
    ignores: LAYERS.map(dir),
    rules: {
      'no-restricted-syntax': ['error', {
        selector: 'Program',
        message: `This folder of src/ is no layer (${LAYERS.join(', ')}): move the file into one, or add the folder to ALLOW in eslint.config.mjs.`,
      }],
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

import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { builtinModules } from 'node:module';

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

// Node's own modules, both spellings (`fs`, `node:fs`), from Node itself.
const NODE_BUILTINS = builtinModules.filter((m) => !m.startsWith('_')).flatMap((m) => (m.startsWith('node:') ? [m] : [m, `node:${m}`]));
// The libraries that do I/O or read a file format for an adapter: the core
// and the doors reach them only through src/adapters.
const ADAPTER_LIBRARIES = ['sql.js', 'simple-git', 'js-yaml', 'jsonc-parser', 'smol-toml', 'proper-lockfile', 'wink-porter2-stemmer'];
// What each door's own I/O needs of Node (GitLens-style: the boundary is the
// lint, not a review comment). The CLI: argv, stdio (globals) and parseArgs;
// the MCP server: its stdio stream and file URLs; the hooks: their log file;
// the editor: the files it shows. Processes, threads, sockets, databases and
// git belong to the adapters.
const DOOR_NODE = {
  cli: ['path', 'util'],
  mcp: ['path', 'stream', 'url'],
  hooks: ['fs', 'path'],
  vscode: ['fs', 'os', 'path'],
};
const bare = (m) => m.replace(/^node:/, '');
const restricted = (names, message) => names.map((name) => ({ name, message }));

// A file of src/app that re-exports what it imported from src/adapters (or
// exports from there outright) would let a door reach an adapter through app:
// a door must get a use case, never the adapter behind it. Types may pass
// (`export type`, or names imported with `import type`): they are erased, and
// the shape of a use case's answer does no I/O.
const appNoAdapterReexport = {
  meta: {
    type: 'problem',
    schema: [],
    messages: { reexport: 'src/app may not re-export "{{name}}" from src/adapters: give the doors a use case of its own, or move the thing into src/core.' },
  },
  create(context) {
    const fromAdapters = (source) => typeof source === 'string' && /(^|\/)adapters(\/|$)/.test(source);
    const imported = new Set();
    return {
      ImportDeclaration(node) {
        if (!fromAdapters(node.source.value) || node.importKind === 'type') return;
        for (const spec of node.specifiers) if (spec.importKind !== 'type') imported.add(spec.local.name);
      },
      ExportAllDeclaration(node) {
        if (fromAdapters(node.source.value) && node.exportKind !== 'type') context.report({ node, messageId: 'reexport', data: { name: '*' } });
      },
      ExportNamedDeclaration(node) {
        if (node.exportKind === 'type') return;
        const direct = node.source && fromAdapters(node.source.value);
        for (const spec of node.specifiers) {
          if (spec.exportKind === 'type') continue;
          const local = spec.local.type === 'Identifier' ? spec.local.name : String(spec.local.value);
          if (direct || (!node.source && imported.has(local))) context.report({ node: spec, messageId: 'reexport', data: { name: local } });
        }
      },
    };
  },
};
// The vault's layout (docs/vault-format.md: its folders, file names, globs
// and slugs) is spelled in the vault's adapters, where adapters/vaultLayout.ts
// names it for the rest: a path of the vault written out in the core, app or a door
// would be one more place to change when the layout does. Literals only (a
// string or a template's text): '.baton' and '.baton-live' and what lies
// under them, in a message too; anything under 'sessions/'; 'uncommitted.md';
// a vault folder joined into a path or given to git as a pathspec. The bare
// words stay free ('sessions' and 'plans' are CLI commands and MCP resources).
const VAULT_DIR_WORDS = '^(sessions|plans|locks|pending)$';
const VAULT_LAYOUT_MESSAGE =
  "The vault layout is spelled only in the vault's adapters (src/adapters/{vault,git,index,markdown}, vaultLayout.ts, homeLayout.ts): name the path through adapters/vaultLayout.ts (from src/adapters or src/app) or ask src/app for it (from a door).";
const VAULT_LAYOUT = [
  'Literal[value=/(^|[^\\w.-])\\.baton(-live)?(\\/|$)/]',
  'TemplateElement[value.raw=/(^|[^\\w.-])\\.baton(-live)?(\\/|$)/]',
  'Literal[value=/^sessions\\//]',
  'TemplateElement[value.raw=/^sessions\\//]',
  'Literal[value=/(^|\\/)uncommitted\\.md$/]',
  'TemplateElement[value.raw=/(^|\\/)uncommitted(\\.md)?$/]',
  `CallExpression[callee.property.name=/^(join|resolve)$/] > Literal[value=/${VAULT_DIR_WORDS}/]`,
  `ArrayExpression:has(> Literal[value='--']) > Literal[value=/^(sessions|\\.baton|\\.baton-live)$/]`,
].map((selector) => ({ selector, message: VAULT_LAYOUT_MESSAGE }));
// The adapters that are the vault's: its files, its git, its index, its
// markdown, and the two files that name the vault's and the home's layout.
const VAULT_ADAPTERS = [
  'src/adapters/vault/**',
  'src/adapters/git/**',
  'src/adapters/index/**',
  'src/adapters/markdown/**',
  'src/adapters/vaultLayout.ts',
  'src/adapters/homeLayout.ts',
];
// Every door commits a checkpoint through app/commit.ts's recipe (the folder's
// git state, the commits covered, an agent's placeholders), never by calling
// Baton's own commit with a request it assembled itself.
const DOOR_COMMIT = {
  selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='commit']",
  message: "A door commits a checkpoint through app/commit.ts's commitCheckpoint (git state, commits covered, placeholders), not with Baton's commit.",
};

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
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Program',
          message: `This folder of src/ is no layer (${LAYERS.join(', ')}): move the file into one, or add the folder to ALLOW in eslint.config.mjs.`,
        },
      ],
    },
  },
  {
    // The core is pure: no Node module, no Node global, no I/O library, so it
    // runs and is tested anywhere; what it needs of the world comes through
    // its ports (core/ports.ts) or as arguments (an environment, a clock).
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...restricted(NODE_BUILTINS, 'src/core is pure: no Node module. Take what you need as an argument or through a port (core/ports.ts), and do the I/O in src/adapters.'),
            ...restricted([...ADAPTER_LIBRARIES, 'vscode'], 'src/core is pure: this library belongs to src/adapters (or, for vscode, src/vscode).'),
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...restricted(
          ['process', 'Buffer', 'global', '__dirname', '__filename', 'require', 'module', 'setImmediate'],
          'src/core is pure: no Node global. Pass the value in (an env, a clock, bytes as Uint8Array), or read it in src/adapters or src/app.',
        ),
      ],
    },
  },
  // Each door: only the Node modules its own I/O needs, no adapter's library,
  // and (but for the editor's door) no vscode.
  ...Object.entries(DOOR_NODE).map(([door, allowed]) => ({
    files: [`src/${door}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...restricted(
              NODE_BUILTINS.filter((m) => !allowed.includes(bare(m))),
              `The ${door} door may use only ${allowed.join(', ')} of Node (its own I/O): what else it needs is a use case in src/app.`,
            ),
            ...restricted(ADAPTER_LIBRARIES, `The ${door} door may not use an adapter's library: reach it through a use case in src/app.`),
            ...(door === 'vscode' ? [] : restricted(['vscode'], 'Only src/vscode/ and src/extension.ts may import vscode.')),
          ],
        },
      ],
    },
  })),
  // Named layers and entry points only: the no-layer rule above owns
  // no-restricted-syntax in any other folder of src/, and a second config
  // setting it there would replace it.
  { files: ['src/core/**/*.ts', 'src/app/**/*.ts', 'src/*.ts'], rules: { 'no-restricted-syntax': ['error', ...VAULT_LAYOUT] } },
  // Of the adapters, only the vault's own spell its layout; the others (agents'
  // settings, transcripts, search, the launcher) name it through vaultLayout.ts.
  { files: ['src/adapters/**/*.ts'], ignores: VAULT_ADAPTERS, rules: { 'no-restricted-syntax': ['error', ...VAULT_LAYOUT] } },
  { files: DOORS.map((door) => `src/${door}/**/*.ts`), rules: { 'no-restricted-syntax': ['error', ...VAULT_LAYOUT, DOOR_COMMIT] } },
  {
    files: ['src/app/**/*.ts'],
    plugins: { baton: { rules: { 'app-no-adapter-reexport': appNoAdapterReexport } } },
    rules: { 'baton/app-no-adapter-reexport': 'error' },
  },
);

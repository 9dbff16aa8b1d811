// The architecture's boundaries fail the lint: ESLint's own Node API runs the
// repository's eslint.config.mjs over small made-up trees in a temporary
// folder, laid out as src/ is. The config is copied beside the tree (with the
// repository's node_modules linked in) because its zones are anchored at the
// config's own folder.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ESLint } from 'eslint';
import { tempDir } from './support/tempVault';

const ROOT = path.resolve(__dirname, '../..');
const CONFIG = path.join(ROOT, 'eslint.config.mjs');

type Tree = Record<string, string>;

/** A tree every rule accepts: each layer importing only what it may. */
const CLEAN: Tree = {
  'src/core/rule.ts': 'export const rule = (s: string): string => s.trim();\n',
  'src/adapters/store.ts': "import { rule } from '../core/rule';\n\nexport const store = (s: string): string => rule(s);\n",
  'src/app/useCase.ts': "import { store } from '../adapters/store';\n\nexport const useCase = (s: string): string => store(s);\n",
  'src/cli/command.ts': "import { rule } from '../core/rule';\nimport { useCase } from '../app/useCase';\n\nexport const command = (s: string): string => useCase(rule(s));\n",
  'src/mcp/tool.ts': "import { useCase } from '../app/useCase';\n\nexport const tool = (s: string): string => useCase(s);\n",
  // The entry point composes the doors.
  'src/cli.ts': "import { command } from './cli/command';\nimport { tool } from './mcp/tool';\n\nexport const both = [command, tool];\n",
};

/** Every message ESLint gives on `tree`, any rule's, as "file:line: rule: message". */
async function lint(tree: Tree): Promise<string[]> {
  const dir = tempDir('baton-lint-');
  try {
    fs.copyFileSync(CONFIG, path.join(dir, 'eslint.config.mjs'));
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    for (const [file, text] of Object.entries(tree)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    const eslint = new ESLint({ cwd: dir, overrideConfigFile: path.join(dir, 'eslint.config.mjs') });
    const results = await eslint.lintFiles(['src']);
    return results.flatMap((r) => r.messages.map((m) => `${path.relative(dir, r.filePath)}:${m.line}: ${m.ruleId}: ${m.message}`));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('lint: the boundaries of the layers', function () {
  this.timeout(60_000);

  it('passes a tree that keeps core ← adapters ← app ← doors, with no message from any rule', async () => {
    assert.deepEqual(await lint(CLEAN), []);
  });

  it('fails a door importing an adapter (it must go through src/app)', async () => {
    const errors = await lint({
      ...CLEAN,
      'src/cli/command.ts': "import { store } from '../adapters/store';\n\nexport const command = (s: string): string => store(s);\n",
    });
    assert.deepEqual(errors, [
      'src/cli/command.ts:1: import-x/no-restricted-paths: Unexpected path "../adapters/store" imported in restricted zone. cli may import only core, app. The direction is core ← adapters ← app ← doors, and only the entry points in src/ import doors.',
    ]);
  });

  it('fails a type-only import of an adapter into a door too', async () => {
    const errors = await lint({
      ...CLEAN,
      'src/mcp/tool.ts': "import type { store } from '../adapters/store';\n\nexport type Tool = typeof store;\n",
    });
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(
      errors[0],
      /^src\/mcp\/tool\.ts:1: import-x\/no-restricted-paths: Unexpected path "\.\.\/adapters\/store" imported in restricted zone\. mcp may import only core, app\./,
    );
  });

  it('fails a door importing another door, statically or on demand', async () => {
    const errors = await lint({
      ...CLEAN,
      'src/cli/command.ts': "import { tool } from '../mcp/tool';\n\nexport const command = (s: string): string => tool(s);\n",
      'src/hooks/hook.ts': "export const hook = (): Promise<unknown> => import('../cli/command');\n",
    });
    assert.deepEqual(errors.sort(), [
      'src/cli/command.ts:1: import-x/no-restricted-paths: Unexpected path "../mcp/tool" imported in restricted zone. The cli door may not import another door: share the use case through src/app, or hand it in from the entry point.',
      'src/hooks/hook.ts:1: import-x/no-restricted-paths: Unexpected path "../cli/command" imported in restricted zone. The hooks door may not import another door: share the use case through src/app, or hand it in from the entry point.',
    ]);
  });

  it('fails an import against the direction (the core importing the app)', async () => {
    const errors = await lint({ ...CLEAN, 'src/core/rule.ts': "import { useCase } from '../app/useCase';\n\nexport const rule = (s: string): string => useCase(s).trim();\n" });
    assert.ok(
      errors.includes(
        'src/core/rule.ts:1: import-x/no-restricted-paths: Unexpected path "../app/useCase" imported in restricted zone. core may import only itself. The direction is core ← adapters ← app ← doors, and only the entry points in src/ import doors.',
      ),
      errors.join('\n'),
    );
  });

  it('fails a layer importing a door or an entry point: only the entry points import doors', async () => {
    const errors = await lint({
      ...CLEAN,
      'src/app/useCase.ts':
        "import { store } from '../adapters/store';\n\nexport const useCase = (s: string): string => store(s);\nexport const door = (): Promise<unknown> => import('../mcp/tool');\n",
      'src/adapters/entry.ts': "import { both } from '../cli';\n\nexport const entry = both;\n",
    });
    assert.deepEqual(errors.filter((e) => !/import-x\/no-cycle/.test(e)).sort(), [
      'src/adapters/entry.ts:1: import-x/no-restricted-paths: Unexpected path "../cli" imported in restricted zone. adapters may import only core. The direction is core ← adapters ← app ← doors, and only the entry points in src/ import doors.',
      'src/app/useCase.ts:4: import-x/no-restricted-paths: Unexpected path "../mcp/tool" imported in restricted zone. app may import only core, adapters. The direction is core ← adapters ← app ← doors, and only the entry points in src/ import doors.',
    ]);
  });

  it('fails a folder of src/ that is no layer', async () => {
    const errors = await lint({ ...CLEAN, 'src/search/find.ts': 'export const find = 1;\n' });
    assert.deepEqual(errors, [
      'src/search/find.ts:1: no-restricted-syntax: This folder of src/ is no layer (core, adapters, app, cli, mcp, hooks, vscode): move the file into one, or add the folder to ALLOW in eslint.config.mjs.',
    ]);
  });

  it('fails an import cycle, through a dynamic import too, at each import that closes it', async () => {
    const errors = await lint({
      ...CLEAN,
      'src/cli/run.ts': "import { VERSION } from './version';\n\nexport const run = (): string => VERSION;\n",
      'src/cli/version.ts': "export const VERSION = '1';\nexport const later = (): Promise<unknown> => import('./run');\n",
    });
    assert.deepEqual(errors.sort(), ['src/cli/run.ts:1: import-x/no-cycle: Dependency cycle detected', 'src/cli/version.ts:2: import-x/no-cycle: Dependency cycle detected']);
  });

  it('names the rest of a longer cycle', async () => {
    const errors = await lint({
      ...CLEAN,
      'src/app/a.ts': "import { b } from './b';\n\nexport const a = (): number => b() + 1;\n",
      'src/app/b.ts': "import { c } from './c';\n\nexport const b = (): number => c() + 1;\n",
      'src/app/c.ts': "import { a } from './a';\n\nexport const c = (): number => (a ? 0 : 1);\n",
    });
    assert.deepEqual(errors.sort(), [
      'src/app/a.ts:1: import-x/no-cycle: Dependency cycle via "./c:1"',
      'src/app/b.ts:1: import-x/no-cycle: Dependency cycle via "./a:1"',
      'src/app/c.ts:1: import-x/no-cycle: Dependency cycle via "./b:1"',
    ]);
  });

  it('lets type-only imports go round: they are erased and make no cycle', async () => {
    const errors = await lint({
      ...CLEAN,
      'src/app/a.ts': "import type { B } from './b';\n\nexport interface A { b?: B }\n",
      'src/app/b.ts': "import type { A } from './a';\n\nexport interface B { a?: A }\n",
    });
    assert.deepEqual(errors, []);
  });
});

/** "file:line: rule" of each message, sorted: which rule fired where. */
const where = (errors: string[]): string[] => errors.map((e) => e.split(': ').slice(0, 2).join(': ')).sort();

describe('lint: what each layer may touch of Node, and what app may hand out', function () {
  this.timeout(60_000);

  it('fails a Node module or a Node global in the core, by either spelling, type-only too', async () => {
    const errors = await lint({
      ...CLEAN,
      'src/core/rule.ts': [
        "import * as os from 'os';",
        "import { readFileSync } from 'node:fs';",
        "import type { Worker } from 'worker_threads';",
        "import { load } from 'js-yaml';",
        '',
        'export const home = (): string => os.homedir() + String(readFileSync) + String(load);',
        'export const rule = (s: string): string => s.trim() + (process.env.HOME ?? "");',
        'export const bytes = (s: string): number => Buffer.from(s).length;',
        'export type W = Worker;',
        '',
      ].join('\n'),
    });
    assert.deepEqual(where(errors), [
      'src/core/rule.ts:1: no-restricted-imports',
      'src/core/rule.ts:2: no-restricted-imports',
      'src/core/rule.ts:3: no-restricted-imports',
      'src/core/rule.ts:4: no-restricted-imports',
      'src/core/rule.ts:7: no-restricted-globals',
      'src/core/rule.ts:8: no-restricted-globals',
    ]);
    assert.match(errors.find((e) => e.includes(':7:')) ?? '', /Unexpected use of 'process'\. src\/core is pure: no Node global/);
  });

  it("lets each door use only its own I/O's Node modules, and no adapter's library", async () => {
    const errors = await lint({
      ...CLEAN,
      'src/cli/command.ts':
        "import * as fs from 'fs';\nimport { spawn } from 'node:child_process';\nimport * as path from 'path';\nimport { useCase } from '../app/useCase';\n\nexport const command = (s: string): string => useCase(s) + String(fs) + String(spawn) + path.sep;\n",
      'src/mcp/tool.ts':
        "import { Readable } from 'stream';\nimport initSqlJs from 'sql.js';\nimport { useCase } from '../app/useCase';\n\nexport const tool = (s: string): string => useCase(s) + String(Readable) + String(initSqlJs);\n",
      'src/hooks/hookLog.ts': "import * as fs from 'fs';\nimport * as net from 'net';\n\nexport const log = (): string => String(fs) + String(net);\n",
      'src/vscode/view.ts':
        "import * as fs from 'fs';\nimport * as os from 'os';\nimport { simpleGit } from 'simple-git';\n\nexport const view = (): string => String(fs) + os.EOL + String(simpleGit);\n",
    });
    assert.deepEqual(where(errors), [
      'src/cli/command.ts:1: no-restricted-imports',
      'src/cli/command.ts:2: no-restricted-imports',
      'src/hooks/hookLog.ts:2: no-restricted-imports',
      'src/mcp/tool.ts:2: no-restricted-imports',
      'src/vscode/view.ts:3: no-restricted-imports',
    ]);
    assert.match(errors.find((e) => e.startsWith('src/cli/command.ts:1')) ?? '', /The cli door may use only path, util of Node \(its own I\/O\)/);
    assert.match(errors.find((e) => e.startsWith('src/mcp/tool.ts:2')) ?? '', /The mcp door may not use an adapter's library/);
  });

  it('fails src/app handing out an adapter (re-exported, exported from, or all of it); its types may pass', async () => {
    const errors = await lint({
      ...CLEAN,
      'src/adapters/store.ts': "import { rule } from '../core/rule';\n\nexport interface Stored { s: string }\nexport const store = (s: string): string => rule(s);\n",
      'src/app/useCase.ts': "import { store } from '../adapters/store';\n\nexport const useCase = (s: string): string => store(s);\nexport { store };\n",
      'src/app/more.ts': "export { store as save } from '../adapters/store';\nexport * from '../adapters/store';\nexport type { Stored } from '../adapters/store';\n",
      'src/app/types.ts': "import type { Stored } from '../adapters/store';\n\nexport type { Stored };\n",
    });
    assert.deepEqual(where(errors), [
      'src/app/more.ts:1: baton/app-no-adapter-reexport',
      'src/app/more.ts:2: baton/app-no-adapter-reexport',
      'src/app/useCase.ts:4: baton/app-no-adapter-reexport',
    ]);
    assert.match(errors.find((e) => e.startsWith('src/app/useCase.ts')) ?? '', /src\/app may not re-export "store" from src\/adapters/);
  });
});

describe("lint: the vault's layout only in the vault's adapters, and every door commits through the recipe", function () {
  this.timeout(60_000);

  /** The layout spelled where it may be: an adapter names it, app asks the adapter, a door asks app. */
  const LAYOUT: Tree = {
    ...CLEAN,
    'src/adapters/vaultLayout.ts': [
      "import * as path from 'path';",
      '',
      "export const locksDirOf = (root: string): string => path.join(root, '.baton-live', 'locks');",
      'export const slugOf = (scope: string, id: string): string => `sessions/${scope}/${id}`;',
      "export const pathspec = ['diff', '--', 'sessions'];",
      "export const NOTES = 'uncommitted.md';",
      '',
    ].join('\n'),
    'src/adapters/vault/notes.ts': "import * as path from 'path';\n\nexport const notesOf = (dir: string): string => path.join(dir, 'uncommitted.md');\n",
    'src/app/useCase.ts': "import { locksDirOf } from '../adapters/vaultLayout';\n\nexport const useCase = (s: string): string => locksDirOf(s);\n",
    // Words that only look like the layout: a command's name, a resource list, a setting, the old hooks' backups beside an agent's file.
    'src/cli/command.ts': [
      "import { useCase } from '../app/useCase';",
      '',
      "export const names = ['sessions', 'plans'];",
      "export const command = (s: string): string => useCase(s) + 'baton.agentName' + `${s}.baton-backup`;",
      '',
    ].join('\n'),
  };

  it('passes a tree whose adapters spell the layout and whose app and doors ask for it', async () => {
    assert.deepEqual(await lint(LAYOUT), []);
  });

  it("fails the layout spelled in the core, app, a door, an entry point or an adapter not the vault's: a folder, a slug, a glob, a message, a pathspec, a file name", async () => {
    const errors = await lint({
      ...LAYOUT,
      'src/adapters/agents/backups.ts': "import * as path from 'path';\n\nexport const backupsOf = (home: string): string => path.join(home, '.baton', 'backups');\n",
      'src/core/rule.ts': 'export const rule = (s: string): string => `sessions/${s}/x`;\n',
      'src/app/useCase.ts': [
        "import * as path from 'path';",
        '',
        "export const useCase = (s: string): string => path.join(s, '.baton-live', 'locks');",
        "export const notes = (s: string): string => path.join(s, 'uncommitted.md');",
        "export const scopeDir = (s: string): string => path.join(s, 'sessions', 'x');",
        '',
      ].join('\n'),
      'src/cli/command.ts': "import { useCase } from '../app/useCase';\n\nexport const command = (s: string): string => `kept in ${useCase(s)}/.baton-live/pending/`;\n",
      'src/mcp/tool.ts': "export const tool = ['diff', '--name-only', '--', 'sessions'];\n",
      'src/hooks/hookLog.ts': "import * as path from 'path';\n\nexport const log = (root: string): string => path.join(root, '.baton');\n",
      'src/vscode/view.ts': "export const watched = 'sessions/**/[0-9]*-*.md';\n",
      'src/cli.ts': 'export const notesOf = (scope: string): string => `sessions/${scope}/uncommitted`;\n',
    });
    // Each literal once: '.baton-live' and 'locks' on line 3, 'sessions/' and '/uncommitted' in src/cli.ts.
    assert.deepEqual(where(errors), [
      'src/adapters/agents/backups.ts:3: no-restricted-syntax',
      'src/app/useCase.ts:3: no-restricted-syntax',
      'src/app/useCase.ts:3: no-restricted-syntax',
      'src/app/useCase.ts:4: no-restricted-syntax',
      'src/app/useCase.ts:5: no-restricted-syntax',
      'src/cli.ts:1: no-restricted-syntax',
      'src/cli.ts:1: no-restricted-syntax',
      'src/cli/command.ts:3: no-restricted-syntax',
      'src/core/rule.ts:1: no-restricted-syntax',
      'src/hooks/hookLog.ts:3: no-restricted-syntax',
      'src/mcp/tool.ts:1: no-restricted-syntax',
      'src/vscode/view.ts:1: no-restricted-syntax',
    ]);
    for (const e of errors) assert.match(e, /The vault layout is spelled only in the vault's adapters/);
  });

  it("fails a door calling Baton's commit itself; src/app may", async () => {
    const errors = await lint({
      ...CLEAN,
      'src/app/useCase.ts': "export const useCase = (b: { commit(r: object): string }): string => b.commit({ task: 'x' });\n",
      'src/mcp/tool.ts': "export const tool = (b: { commit(r: object): string }): string => b.commit({ task: 'x' });\n",
    });
    assert.deepEqual(errors, [
      "src/mcp/tool.ts:1: no-restricted-syntax: A door commits a checkpoint through app/commit.ts's commitCheckpoint (git state, commits covered, placeholders), not with Baton's commit.",
    ]);
  });
});

// The architecture's boundaries fail the lint: ESLint's own Node API runs the
// repository's eslint.config.mjs over small made-up trees in a temporary
// folder, laid out as src/ is.
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

async function lint(tree: Tree): Promise<string[]> {
  const dir = tempDir('baton-lint-');
  try {
    for (const [file, text] of Object.entries(tree)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    const eslint = new ESLint({ cwd: dir, overrideConfigFile: CONFIG });
    const results = await eslint.lintFiles(['src']);
    return results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId?.startsWith('baton/')).map((m) => `${path.relative(dir, r.filePath)}: ${m.ruleId}: ${m.message}`),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('lint: the boundaries of the layers', function () {
  this.timeout(60_000);

  it('passes a tree that keeps core ← adapters ← app ← doors', async () => {
    assert.deepEqual(await lint(CLEAN), []);
  });

  it('fails a door importing an adapter (it must go through src/app)', async () => {
    const errors = await lint({
      ...CLEAN,
      'src/cli/command.ts': "import { store } from '../adapters/store';\n\nexport const command = (s: string): string => store(s);\n",
    });
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0], /^src\/cli\/command\.ts: baton\/layers: cli may import only core, app; src\/adapters\/store\.ts is in adapters/);
  });

  it('fails a type-only import of an adapter into a door too', async () => {
    const errors = await lint({
      ...CLEAN,
      'src/mcp/tool.ts': "import type { store } from '../adapters/store';\n\nexport type Tool = typeof store;\n",
    });
    assert.deepEqual(errors.map((e) => e.split(':')[0]), ['src/mcp/tool.ts']);
  });

  it('fails a door importing another door, statically or on demand', async () => {
    const errors = await lint({
      ...CLEAN,
      'src/cli/command.ts': "import { tool } from '../mcp/tool';\n\nexport const command = (s: string): string => tool(s);\n",
      'src/hooks/hook.ts': "export const hook = (): Promise<unknown> => import('../cli/command');\n",
    });
    assert.equal(errors.length, 2, errors.join('\n'));
    assert.match(errors.join('\n'), /src\/cli\/command\.ts: baton\/layers: The cli door may not import the mcp door/);
    assert.match(errors.join('\n'), /src\/hooks\/hook\.ts: baton\/layers: The hooks door may not import the cli door/);
  });

  it('fails an import against the direction (the core importing the app)', async () => {
    const errors = await lint({ ...CLEAN, 'src/core/rule.ts': "import { useCase } from '../app/useCase';\n\nexport const rule = (s: string): string => useCase(s).trim();\n" });
    assert.ok(errors.some((e) => /^src\/core\/rule\.ts: baton\/layers: core may import only itself; src\/app\/useCase\.ts is in app/.test(e)), errors.join('\n'));
  });

  it('fails a folder of src/ that is no layer', async () => {
    const errors = await lint({ ...CLEAN, 'src/search/find.ts': 'export const find = 1;\n' });
    assert.deepEqual(errors, ['src/search/find.ts: baton/layers: src/search/find.ts is in "search", which is no layer of src/ (add it to baton/layers in eslint.config.mjs).']);
  });

  it('fails an import cycle, through a dynamic import too, and names it', async () => {
    const errors = await lint({
      ...CLEAN,
      'src/cli/run.ts': "import { VERSION } from './version';\n\nexport const run = (): string => VERSION;\n",
      'src/cli/version.ts': "export const VERSION = '1';\nexport const later = (): Promise<unknown> => import('./run');\n",
    });
    assert.deepEqual(errors.sort(), [
      'src/cli/run.ts: baton/no-cycle: Import cycle: src/cli/run.ts → src/cli/version.ts → src/cli/run.ts.',
      'src/cli/version.ts: baton/no-cycle: Import cycle: src/cli/version.ts → src/cli/run.ts → src/cli/version.ts.',
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

// The standard launcher, for machines that can download VS Code:
// `npx vscode-test` (@vscode/test-cli + @vscode/test-electron) runs the same
// compiled suites as the offline launcher (scripts/vscode-test/run.js), in a
// desktop VS Code: the newest stable and the oldest we support (engines.vscode).
// Build first: `npm run build && node scripts/vscode-test/build-tests.js`.
//
// Each configuration gets its own temporary fixtures from the same code the
// offline launcher uses: a small git workspace, a vault (a copy of
// test/fixtures/vault/ if present), and a user-data folder whose
// User/settings.json names that vault in `baton.vault`.
import { defineConfig } from '@vscode/test-cli';
import { createRequire } from 'node:module';
import { rmSync } from 'node:fs';
import process from 'node:process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { makeFixtures } = require('./scripts/vscode-test/harness.js');
const root = path.dirname(fileURLToPath(import.meta.url));
const minVersion = require('./package.json').engines.vscode.replace(/^[\^~>=]+/, '');

const made = [];
process.on('exit', () => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

function configuration(label, version) {
  const dirs = makeFixtures({});
  made.push(dirs.tmp);
  return {
    label,
    version,
    files: 'out/test/integration/**/*.test.js',
    extensionDevelopmentPath: root,
    workspaceFolder: dirs.workspace,
    launchArgs: [`--user-data-dir=${dirs.userData}`, `--extensions-dir=${dirs.extensions}`, '--disable-workspace-trust'],
    env: {
      BATON_VAULT: dirs.vault,
      BATON_TEST_VAULT: dirs.vault,
      BATON_TEST_WORKSPACE: dirs.workspace,
      BATON_TEST_CLI: path.join(root, 'dist', 'cli.js'),
    },
    mocha: { ui: 'bdd', timeout: 30000 },
  };
}

export default defineConfig([configuration('stable', 'stable'), configuration('min', minVersion)]);

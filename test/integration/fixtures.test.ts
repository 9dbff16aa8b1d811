// The launcher's per-run fixtures reach the extension host: a temporary git
// workspace is open and a temporary vault is named by BATON_VAULT and the
// `baton.vault` setting. Suites further on rely on these; if this fails, the
// harness is at fault, not the extension.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

function env(name: string): string {
  const value = process.env[name];
  assert.ok(value, `${name} is not set in the extension host`);
  return value;
}

describe('test fixtures', () => {
  it('opens the fixture workspace, a git repository', () => {
    const workspace = env('BATON_TEST_WORKSPACE');
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.deepStrictEqual(
      folders.map((f) => f.uri.fsPath),
      [workspace],
    );
    assert.ok(fs.existsSync(path.join(workspace, '.git')), `${workspace} is not a git repository`);
  });

  it('names one fixture vault in BATON_VAULT and in the baton.vault setting', () => {
    const vault = env('BATON_TEST_VAULT');
    assert.ok(fs.statSync(vault).isDirectory(), `${vault} is not a folder`);
    assert.strictEqual(process.env.BATON_VAULT, vault);
    assert.strictEqual(vscode.workspace.getConfiguration('baton').get<string>('vault'), vault);
  });

  it('points BATON_TEST_CLI at the built CLI', () => {
    assert.ok(path.isAbsolute(env('BATON_TEST_CLI')));
    assert.ok(env('BATON_TEST_CLI').endsWith(path.join('dist', 'cli.js')));
  });
});

// What the Baton suites share: the activated extension's test API, tree
// walking through the real providers, polling, and the real CLI run as
// another process (as an agent's hook would run it).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { BatonApi } from '../../../src/vscode/api';
import type { Node } from '../../../src/vscode/views/nodes';
import { spawnCli } from '../../support/spawnCli';

export const EXTENSION_ID = 'baton-dev.baton';

export function env(name: string): string {
  const value = process.env[name];
  assert.ok(value, `${name} is not set in the extension host`);
  return value;
}

export const vaultDir = (): string => env('BATON_TEST_VAULT');
export const workspaceDir = (): string => env('BATON_TEST_WORKSPACE');
export const scopeDir = (scope: string): string => path.join(vaultDir(), 'sessions', ...scope.split('/'));

export async function batonApi(): Promise<BatonApi> {
  const ext = vscode.extensions.getExtension<BatonApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed`);
  const api = await ext.activate();
  await api.ready();
  // A suite before may have switched the vault and back: the views read once its look has answered.
  await api.loaded();
  return api;
}

export interface Shown {
  node: Node;
  item: vscode.TreeItem;
  label: string;
  description: string;
}

/** The children of a node as the view shows them: the node and its TreeItem. */
export async function shown(provider: vscode.TreeDataProvider<Node>, parent?: Node): Promise<Shown[]> {
  const nodes = (await provider.getChildren(parent)) ?? [];
  return Promise.all(
    nodes.map(async (node) => {
      const item = await provider.getTreeItem(node);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      return { node, item, label, description: typeof item.description === 'string' ? item.description : '' };
    }),
  );
}

/** Polls `read` until `ok` holds or the time is up; returns the last value and how long it took. */
export async function poll<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 8000, everyMs = 100): Promise<{ value: T; ms: number }> {
  const t0 = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() - t0 > timeoutMs) return { value, ms: Date.now() - t0 };
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs dist/cli.js in a separate process. In the VS Code server the extension
 * host runs on a plain Node, so process.execPath is that Node; in a desktop
 * VS Code it is Electron, which ELECTRON_RUN_AS_NODE turns into Node.
 */
export async function runCli(args: string[], opts: { cwd?: string } = {}): Promise<CliResult> {
  const r = await spawnCli(env('BATON_TEST_CLI'), args, { vault: vaultDir(), cwd: opts.cwd ?? workspaceDir(), env: { ELECTRON_RUN_AS_NODE: '1' } });
  return { code: r.code ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Checkpoint files (by name) of a scope folder. */
export function checkpointFiles(scope: string): string[] {
  try {
    return fs
      .readdirSync(scopeDir(scope))
      .filter((n) => /^[0-9]{8}-.*\.md$/.test(n))
      .sort();
  } catch {
    return [];
  }
}

export function workspaceUri(rel: string): vscode.Uri {
  return vscode.Uri.file(path.join(workspaceDir(), ...rel.split('/')));
}

/** Lets the extension's debounced watcher and refresh settle. */
export const settle = (ms = 500): Promise<void> => new Promise((r) => setTimeout(r, ms));

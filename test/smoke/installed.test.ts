// Smoke test of the packaged extension as a user gets it: the .vsix that
// `npm run package` builds, installed with the VS Code server's
// --install-extension into the test VS Code's extensions folder (by
// scripts/vscode-test/vsix.js), not loaded from the source folder. It catches
// what only the package can get wrong: a bundle or the WASM left out by
// .vscodeignore, a path that works from the repository but not from the
// install folder, a launcher pointing anywhere but the installed CLI.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { BatonApi } from '../../src/vscode/api';
import type { Node } from '../../src/vscode/views/nodes';

const EXTENSION_ID = 'baton-dev.baton';

function env(name: string): string {
  const value = process.env[name];
  assert.ok(value, `${name} is not set in the extension host (run this suite with scripts/vscode-test/vsix.js)`);
  return value;
}

function inside(child: string, parent: string): boolean {
  const rel = path.relative(fs.realpathSync(parent), fs.realpathSync(child));
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** A single-quoted word for /bin/sh. */
const sh = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

function extension(): vscode.Extension<BatonApi> {
  const ext = vscode.extensions.getExtension<BatonApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed in this extension host`);
  return ext;
}

async function labels(provider: vscode.TreeDataProvider<Node>): Promise<string[]> {
  const nodes = (await provider.getChildren()) ?? [];
  const items = await Promise.all(nodes.map((n) => provider.getTreeItem(n)));
  return items.map((i) => (typeof i.label === 'string' ? i.label : (i.label?.label ?? '')));
}

describe('the installed .vsix', () => {
  let api: BatonApi;

  it('is the extension installed in the extensions folder, not the source folder', () => {
    const ext = extension();
    const extensions = env('BATON_TEST_EXTENSIONS');
    assert.ok(inside(ext.extensionPath, extensions), `${ext.extensionPath} is not inside ${extensions}`);
    assert.strictEqual(ext.packageJSON.version, env('BATON_TEST_VERSION'));
    const bundles = env('BATON_TEST_BUNDLES').split(',');
    for (const f of ['extension.js', 'cli.js', 'run.js', 'mcp.js', 'agentHooks.js', 'indexWorker.js', 'sqlIndex.js', 'sql-wasm.wasm']) {
      assert.ok(bundles.includes(f), `the build no longer emits dist/${f}: update this list`);
    }
    for (const f of bundles) {
      assert.ok(fs.existsSync(path.join(ext.extensionPath, 'dist', f)), `dist/${f} is missing from the installed extension`);
    }
    assert.ok(!fs.existsSync(path.join(ext.extensionPath, 'src')), 'the package ships src/');
    assert.ok(!fs.existsSync(path.join(ext.extensionPath, 'node_modules')), 'the package ships node_modules/');
  });

  it('ships the Marketplace icon its manifest names, a 128×128 PNG, and the CHANGELOG', () => {
    const ext = extension();
    const icon = ext.packageJSON.icon as string | undefined;
    assert.ok(icon, 'package.json names no icon');
    const png = fs.readFileSync(path.join(ext.extensionPath, icon));
    assert.ok(png.subarray(1, 4).toString('latin1') === 'PNG', `${icon} is not a PNG`);
    assert.deepStrictEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128], `${icon} is not 128×128`);
    assert.ok(
      fs.readdirSync(ext.extensionPath).some((n) => n.toLowerCase() === 'changelog.md'),
      'no CHANGELOG.md in the package',
    );
  });

  it('activates', async () => {
    const ext = extension();
    api = await ext.activate();
    assert.strictEqual(ext.isActive, true);
    await api.ready();
  });

  it('the Projects view populates from a vault the installed CLI wrote', async () => {
    assert.strictEqual(api.vaultRoot, env('BATON_TEST_VAULT'));
    assert.strictEqual(api.vaultState, 'ready');
    const project = env('BATON_TEST_SMOKE_PROJECT');
    const roots = await labels(api.views.projects);
    assert.ok(roots.includes(project), `no ${project} in the Projects view: ${roots.join(', ')}`);
  });

  it('registers Connect Agent… and every command its manifest declares', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.ok(registered.has('baton.connectAgent'), 'baton.connectAgent is not registered');
    const declared = ((extension().packageJSON.contributes?.commands ?? []) as { command: string }[]).map((c) => c.command);
    const missing = declared.filter((c) => !registered.has(c));
    assert.deepStrictEqual(missing, [], `declared but not registered: ${missing.join(', ')}`);
  });

  it('writes ~/.baton/bin/baton pointing at the installed dist/cli.js, and it runs from a plain shell', async () => {
    const launcher = await api.launcher();
    assert.ok(launcher, 'the launcher was not written (see the Baton log)');
    assert.strictEqual(launcher, path.join(env('BATON_TEST_HOME'), '.baton', 'bin', 'baton'));
    // The installed CLI vsix.js found in the extensions folder, not whatever folder the extension was loaded from.
    const cli = env('BATON_TEST_CLI');
    assert.strictEqual(cli, path.join(extension().extensionPath, 'dist', 'cli.js'));
    const text = fs.readFileSync(launcher, 'utf8');
    assert.ok(text.includes(`# script: ${JSON.stringify(cli)}`), `the launcher does not run ${cli}:\n${text}`);
    // As an agent's hook runs it: /bin/sh, a minimal PATH, no BATON_* variables.
    const r = spawnSync('/bin/sh', ['-c', `${sh(launcher)} --version`], {
      encoding: 'utf8',
      env: { PATH: '/usr/bin:/bin', HOME: env('BATON_TEST_HOME') },
      timeout: 20000,
    });
    assert.strictEqual(r.status, 0, `launcher --version failed (${r.status}): ${r.stderr}`);
    assert.strictEqual(r.stdout.trim(), env('BATON_TEST_VERSION'));
  });

  it("connects an agent through the launcher: Cursor's user-scope MCP config calls the launcher", async () => {
    const launcher = await api.launcher();
    assert.ok(launcher);
    const home = env('BATON_TEST_HOME');
    const r = spawnSync('/bin/sh', ['-c', `${sh(launcher)} --vault ${sh(env('BATON_TEST_VAULT'))} connect cursor --json`], {
      encoding: 'utf8',
      env: { PATH: '/usr/bin:/bin', HOME: home },
      timeout: 20000,
    });
    assert.strictEqual(r.status, 0, `connect cursor failed (${r.status}): ${r.stderr}`);
    const out = JSON.parse(r.stdout) as { agent: string; scope: string; files: { path: string; action: string }[] };
    assert.strictEqual(out.agent, 'cursor');
    assert.strictEqual(out.scope, 'user');
    const mcp = path.join(home, '.cursor', 'mcp.json');
    assert.ok(
      out.files.some((f) => f.path === mcp && f.action === 'created'),
      `mcp.json not created: ${r.stdout}`,
    );
    assert.ok(fs.readFileSync(mcp, 'utf8').includes(JSON.stringify(launcher)), `${mcp} does not call ${launcher}`);
  });

  it('the Agents view populates: every agent, Cursor connected where the installed CLI put it', async () => {
    const agents = api.views.agents;
    const items = await Promise.all(((await agents.getChildren()) ?? []).map((n) => agents.getTreeItem(n)));
    const byLabel = new Map(items.map((i) => [typeof i.label === 'string' ? i.label : (i.label?.label ?? ''), String(i.description ?? '')]));
    for (const label of ['Claude Code', 'Codex CLI', 'Cursor', 'Gemini CLI']) assert.ok(byLabel.has(label), `no ${label}: ${[...byLabel.keys()].join(', ')}`);
    assert.match(byLabel.get('Cursor') ?? '', /^connected: User\b/);
  });

  it("Connect Agent… of the installed extension writes the agent's files after the go-ahead, calling the launcher", async () => {
    const home = env('BATON_TEST_HOME');
    const launcher = await api.launcher();
    assert.ok(launcher);
    // Agent and scope given, as the Agents view's buttons give them: only the go-ahead is asked, answered as a keyboard would.
    const running = vscode.commands.executeCommand<{ files: { path: string; action: string }[] } | undefined>('baton.connectAgent', { agent: 'gemini', scope: 'user' });
    // The go-ahead is asked right after the diffs open (read-only `baton-connect:` documents).
    const diffOpen = (): boolean =>
      vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'baton-connect'));
    // Waited on states, not on time: a loaded machine shows the diff, then the
    // go-ahead, seconds apart. Accepting before the go-ahead is up does nothing,
    // so the keyboard's Enter is pressed again until the command has returned.
    // The limits are a hung extension's, not the waits.
    for (let waited = 0; !diffOpen() && waited < 120_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    assert.ok(diffOpen(), 'Connect Agent… opened no diff before its go-ahead');
    let settled = false;
    void running.then(
      () => (settled = true),
      () => (settled = true),
    );
    for (let waited = 0; !settled; waited += 250) {
      if (waited > 120_000) throw new Error('Connect Agent… still waiting after two minutes of Enter on its go-ahead');
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await Promise.race([running, new Promise((r) => setTimeout(r, 250))]);
    }
    const r = await running;
    const settings = path.join(home, '.gemini', 'settings.json');
    assert.deepStrictEqual(r?.files, [{ path: settings, action: 'created' }]);
    const text = fs.readFileSync(settings, 'utf8');
    assert.ok(text.includes(JSON.stringify(launcher)) || text.includes(launcher), `${settings} does not call ${launcher}:\n${text}`);
  });
});

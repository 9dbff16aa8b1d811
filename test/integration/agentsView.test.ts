// The Agents view in the real VS Code, through its real provider: a connected
// agent with where and when it was last seen writing (a note the real CLI
// wrote from another process), one not connected, and problems whose item
// runs the command that fixes them: a launcher that no longer runs (Refresh
// Launcher), project-scope hooks with no `baton` on PATH (Install 'baton' in
// PATH, not clicked: it writes outside the test's HOME) and a config calling
// a launcher path that moved (Reconnect, the go-ahead answered as a keyboard
// would). The menus are read from the
// manifest by contextValue, as VS Code matches them. HOME is the harness's
// temporary one (scripts/vscode-test/harness.js).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { batonOnPath } from '../../src/app/agentHealth';
import { applyConnection, planConnection, refreshLauncher } from '../../src/app/connect';
import { writeLauncher } from '../../src/adapters/launcher';
import { launcherTarget } from '../../src/vscode/connect/launcherRefresh';
import { trustCodexHooks } from '../unit/support/codexTrust';
import type { AgentsNode } from '../../src/vscode/views/agentNodes';
import { batonApi, env, EXTENSION_ID, poll, runCli, vaultDir, workspaceDir } from './support/baton';
import { acceptGoAhead, drive } from './support/quickPicks';

const home = (): string => env('BATON_TEST_HOME');

interface Row {
  node: AgentsNode;
  item: vscode.TreeItem;
  label: string;
  description: string;
  tooltip: string;
}

async function rows(parent?: AgentsNode): Promise<Row[]> {
  const agents = (await batonApi()).views.agents;
  const nodes = (await agents.getChildren(parent)) ?? [];
  return Promise.all(
    nodes.map(async (node) => {
      const item = await agents.getTreeItem(node);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      return { node, item, label, description: String(item.description ?? ''), tooltip: String(item.tooltip ?? '') };
    }),
  );
}

/** Polls the view until the agent's row satisfies `ok` (the view hears of writes through the watcher and the commands). */
async function agentRow(agent: string, ok: (r: Row) => boolean = () => true, timeoutMs = 8000): Promise<Row> {
  const r = await poll(
    async () => (await rows()).find((x) => x.node.agent === agent),
    (x) => x !== undefined && ok(x),
    timeoutMs,
  );
  assert.ok(r.value, `${agent} is not in the Agents view`);
  assert.ok(ok(r.value), `${agent}: ${r.value.description}\n${r.value.tooltip}`);
  return r.value;
}

/** The inline actions package.json gives this contextValue in the Agents view. */
function inlineActions(contextValue: string | undefined): string[] {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext);
  const menus = (ext.packageJSON.contributes.menus['view/item/context'] ?? []) as { command: string; when: string; group?: string }[];
  return menus
    .filter((m) => m.group?.startsWith('inline') && m.when.includes('view == baton.agents') && [...m.when.matchAll(/viewItem == ([\w.]+)/g)].some((x) => x[1] === contextValue))
    .map((m) => m.command);
}

async function run(command: vscode.Command | undefined): Promise<unknown> {
  assert.ok(command, 'the item runs no command');
  return vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
}

describe('the Agents view', () => {
  let extensionPath: string;
  const project = 'agents-view-test';
  before(async () => {
    await batonApi();
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    extensionPath = ext.extensionPath;
  });
  after(() => {
    for (const dir of ['.codex', '.cursor']) fs.rmSync(path.join(home(), dir), { recursive: true, force: true });
    fs.rmSync(path.join(vaultDir(), 'sessions', project), { recursive: true, force: true });
    // Whatever a test left the launcher as, the next suites need the working one.
    refreshLauncher(launcherTarget(extensionPath), home());
  });

  it('a connected agent: where (scope and files, each opening), and last seen writing to the vault', async () => {
    const plan = planConnection('connect', { agent: 'codex', scope: 'user', projectDir: workspaceDir(), vault: vaultDir(), home: home() });
    applyConnection(plan);
    // Codex runs no hook it has not trusted, and the view says so (codexTrust.ts): trusted here as its /hooks screen records it.
    trustCodexHooks(home());
    // Codex writes through its MCP client's name; the view counts it as Codex's, as doctor does.
    const note = await runCli(['note', '--project', project, '--agent', 'codex-mcp-client', 'checked the flaky checkout test']);
    assert.strictEqual(note.code, 0, note.stderr);

    const codex = await agentRow('codex', (r) => /seen \d+s ago/.test(r.description));
    assert.strictEqual(codex.label, 'Codex CLI');
    assert.match(codex.description, /^connected: User · seen \d+s ago$/);
    assert.strictEqual(codex.item.contextValue, 'baton.agent.connected');
    assert.deepStrictEqual(inlineActions(codex.item.contextValue).sort(), ['baton.connectAgent', 'baton.disconnectAgent']);
    assert.strictEqual(codex.item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    assert.strictEqual((codex.item.iconPath as vscode.ThemeIcon).id, 'plug');
    assert.match(codex.tooltip, /^Codex CLI \(found on this machine\)$/m);
    assert.match(codex.tooltip, /^Last wrote to the vault .* \(seen \d+s ago\)$/m);
    assert.match(codex.tooltip, /^User scope: connected$/m);
    for (const f of plan.files) assert.ok(codex.tooltip.includes(`~${f.path.slice(home().length)}: connected`), codex.tooltip);

    const files = await rows(codex.node);
    assert.deepStrictEqual(
      files.map((f) => [f.label, f.description, f.item.contextValue]),
      plan.files.map((f) => [`~${f.path.slice(home().length)}`, 'User · connected', 'baton.agentFile']),
    );
    assert.strictEqual(files[0].item.command?.command, 'vscode.open');
    assert.strictEqual((files[0].item.command?.arguments?.[0] as vscode.Uri).fsPath, plan.files[0].path);
  });

  it('an agent not connected: says so (and when it last wrote anyway), offers only Connect, and has nothing to expand', async () => {
    const gemini = await agentRow('gemini');
    assert.strictEqual(gemini.label, 'Gemini CLI');
    // Not connected, yet seen: the fixture vault holds a Gemini CLI session, written some other way.
    assert.match(gemini.description, /^not connected · seen \d+d ago$/);
    assert.strictEqual(gemini.item.contextValue, 'baton.agent');
    assert.deepStrictEqual(inlineActions(gemini.item.contextValue), ['baton.connectAgent']);
    assert.strictEqual(gemini.item.collapsibleState, vscode.TreeItemCollapsibleState.None);
    assert.strictEqual((gemini.item.iconPath as vscode.ThemeIcon).id, 'circle-outline');
    assert.match(gemini.tooltip, /Connect Agent… registers Baton's hooks and MCP server with Gemini CLI/);
    // Found here first: every agent whose folder is in HOME comes before every other.
    const all = await rows();
    const found = all.map((r) => r.tooltip.split('\n')[0].endsWith('(found on this machine)'));
    assert.deepStrictEqual(
      found,
      [...found].sort((a, b) => Number(b) - Number(a)),
      all.map((r) => r.label).join(', '),
    );
    assert.ok(all.findIndex((r) => r.node.agent === 'codex') < all.findIndex((r) => r.node.agent === 'gemini'), 'Codex (its ~/.codex exists) before Gemini CLI');
  });

  it('a launcher that no longer runs: the problem shows expanded with Refresh Launcher, and clicking it fixes it', async () => {
    applyConnection(planConnection('connect', { agent: 'cursor', scope: 'user', projectDir: workspaceDir(), vault: vaultDir(), home: home() }));
    writeLauncher(home(), { runtime: '/nonexistent/uninstalled/node', script: path.join(extensionPath, 'dist', 'cli.js'), electron: false });

    const cursor = await agentRow('cursor', (r) => r.description.includes('to fix'));
    assert.match(cursor.description, /^connected: User · 1 to fix · /);
    assert.strictEqual((cursor.item.iconPath as vscode.ThemeIcon).id, 'warning');
    assert.strictEqual(cursor.item.collapsibleState, vscode.TreeItemCollapsibleState.Expanded, 'a problem is in sight without a click');
    const [problem] = (await rows(cursor.node)).filter((r) => r.node.kind === 'agentProblem');
    assert.ok(problem, 'no problem item');
    assert.strictEqual(problem.label, 'the launcher runs /nonexistent/uninstalled/node, which is gone');
    assert.strictEqual(problem.description, 'User · Refresh Launcher');
    assert.strictEqual(problem.item.contextValue, 'baton.agentProblem.launcher');
    assert.deepStrictEqual(inlineActions(problem.item.contextValue), ['baton.refreshLauncher']);
    assert.match(problem.tooltip, /Cursor calls the launcher .*\.baton\/bin\/baton, which runs \/nonexistent\/uninstalled\/node, which is gone/);
    assert.strictEqual(problem.item.command?.command, 'baton.refreshLauncher');

    assert.strictEqual(await run(problem.item.command), path.join(home(), '.baton', 'bin', 'baton'));
    assert.ok(fs.readFileSync(path.join(home(), '.baton', 'bin', 'baton'), 'utf8').includes(`# runtime: ${JSON.stringify(process.execPath)}`));
    const fixed = await agentRow('cursor', (r) => !r.description.includes('to fix'));
    assert.strictEqual((fixed.item.iconPath as vscode.ThemeIcon).id, 'plug');
    assert.deepStrictEqual(
      (await rows(fixed.node)).filter((r) => r.node.kind === 'agentProblem'),
      [],
    );
  });

  it("project-scope hooks with no `baton` on PATH: the problem offers Install 'baton' in PATH", async function () {
    if (batonOnPath(process.env.PATH ?? '')) {
      console.log("    (a `baton` is on this extension host's PATH: skipped)");
      this.skip();
    }
    const target = { agent: 'gemini' as const, scope: 'project' as const, projectDir: workspaceDir(), vault: vaultDir(), home: home() };
    applyConnection(planConnection('connect', target));
    try {
      const gemini = await agentRow('gemini', (r) => r.description.includes('to fix'));
      // The second: Gemini CLI has not been told to trust this folder (src/app/health/geminiTrust.ts).
      assert.match(gemini.description, /^connected: Project · 2 to fix · /);
      const [problem, untrusted] = (await rows(gemini.node)).filter((r) => r.node.kind === 'agentProblem');
      assert.strictEqual(untrusted?.label, "this folder is not trusted yet: Baton's MCP tools are off");
      assert.strictEqual(untrusted?.description, 'Project · fix by hand');
      assert.match(untrusted?.tooltip ?? '', /choose "Trust folder"/);
      assert.ok(problem);
      assert.strictEqual(problem.label, '`baton` is not on PATH');
      assert.strictEqual(problem.description, "Project · Install 'baton' in PATH");
      assert.strictEqual(problem.item.contextValue, 'baton.agentProblem.path');
      assert.deepStrictEqual(inlineActions(problem.item.contextValue), ['baton.installInPath']);
      // Not clicked: it would link into this machine's /usr/local/bin.
      assert.strictEqual(problem.item.command?.command, 'baton.installInPath');
    } finally {
      applyConnection(planConnection('disconnect', target));
    }
    assert.ok(!fs.existsSync(path.join(workspaceDir(), '.gemini', 'settings.json')), 'disconnect removed the file connect created');
  });

  it('a config calling a launcher path that moved: Reconnect, after the go-ahead, rewrites it', async () => {
    const hooks = path.join(home(), '.cursor', 'hooks.json');
    const current = path.join(home(), '.baton', 'bin', 'baton');
    const stale = fs.readFileSync(hooks, 'utf8').split(current).join('/home/someone-else/.baton/bin/baton');
    fs.writeFileSync(hooks, stale);

    const cursor = await agentRow('cursor', (r) => r.description.includes('to fix'));
    assert.match(cursor.description, /^connected: User \(partly\) · 1 to fix · /);
    const [problem] = (await rows(cursor.node)).filter((r) => r.node.kind === 'agentProblem');
    assert.ok(problem);
    assert.strictEqual(problem.label, "hooks.json: Baton's entries are not the current ones");
    assert.strictEqual(problem.description, 'User · Reconnect');
    assert.strictEqual(problem.item.contextValue, 'baton.agentProblem.connect');
    assert.deepStrictEqual(inlineActions(problem.item.contextValue), ['baton.connectAgent']);
    const file = (await rows(cursor.node)).find((r) => r.node.kind === 'agentFile' && r.label.endsWith('hooks.json'));
    assert.strictEqual(file?.description, 'User · outdated');

    // The click runs Connect for this agent and scope: no agent or scope pick, only the go-ahead.
    const command = problem.item.command;
    assert.ok(command);
    assert.deepStrictEqual([command.command, command.arguments], ['baton.connectAgent', [{ agent: 'cursor', scope: 'user' }]]);
    const r = await drive<{ files: { path: string; action: string }[] }>(command.command, [acceptGoAhead], ...(command.arguments ?? []));
    assert.deepStrictEqual(r?.files, [{ path: hooks, action: 'updated' }]);
    assert.ok(!fs.readFileSync(hooks, 'utf8').includes('someone-else'));
    const fixed = await agentRow('cursor', (x) => !x.description.includes('to fix'));
    assert.match(fixed.description, /^connected: User · /);
  });
});

// The sidebar a person can read (issue 30.5) and whose each item is (issue
// 25.4), in the real extension host: one Checkpoints view whose current
// project is open on its checkpoints (no second view repeating them),
// Abandoned Sessions only while there are some, This File in the Explorer,
// three icons beside the title; and where a project is written from two
// machines, its items say whose. Projects written here are removed after, so
// the other suites see the fixture vault as it was.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { BatonApi } from '../../src/vscode/api';
import { BatonHost } from '../../src/vscode/batonHost';
import { ContextState } from '../../src/vscode/contextKeys';
import { ContextKeys, ContextValues, Views } from '../../src/vscode/ids';
import type { Log } from '../../src/vscode/log';
import { ProjectScope } from '../../src/vscode/projectScope';
import { VaultSession } from '../../src/vscode/vaultSession';
import { AbandonedKey } from '../../src/vscode/views/abandonedKey';
import type { Shown } from './support/baton';
import { batonApi, EXTENSION_ID, poll, runCli, scopeDir, shown } from './support/baton';

const quiet: Log = { info: () => undefined, warn: () => undefined, error: () => undefined, show: () => undefined };
const OTHER = 'feedc0de12345678';
const HOUR = 3600;
const { Expanded, Collapsed } = vscode.TreeItemCollapsibleState;

interface MenuItem {
  command: string;
  when?: string;
  group?: string;
}
interface Manifest {
  contributes: {
    views: Record<string, { id: string; name: string; when?: string; visibility?: string }[]>;
    menus: Record<string, MenuItem[]>;
  };
}

const manifest = (): Manifest => {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext);
  return ext.packageJSON as Manifest;
};
const idOf = (s: Shown): string => String(s.item.id);
const stamp = (ts: number): string => new Date(ts * 1000).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);

/** A checkpoint as another clone writes it: its machine in the frontmatter. */
function writeCheckpoint(scope: string, ts: number, agent: string, task: string, extra = ''): void {
  const session = `${stamp(ts)}-${agent}`;
  const iso = new Date(ts * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  fs.mkdirSync(scopeDir(scope), { recursive: true });
  fs.writeFileSync(
    path.join(scopeDir(scope), `${session}.md`),
    `---\ntype: checkpoint\ntitle: ${scope} — ${task}\nproject: ${scope}\nagent: ${agent}\nsession: ${session}\n${extra}checkpointed: ${iso}\n---\n\n## Task\n\n${task}\n`,
  );
}

function memento(): vscode.Memento {
  const m = new Map<string, unknown>();
  return { keys: () => [...m.keys()], get: (k: string, d?: unknown) => (m.has(k) ? m.get(k) : d), update: async (k: string, v: unknown) => void m.set(k, v) } as vscode.Memento;
}

describe('sidebar', () => {
  let api: BatonApi;
  const made: string[] = [];
  before(async () => {
    api = await batonApi();
  });
  after(async () => {
    await vscode.commands.executeCommand('baton.switchProject', { project: 'kestrel' });
    for (const p of made) fs.rmSync(scopeDir(p), { recursive: true, force: true });
    await vscode.commands.executeCommand('baton.refresh');
  });

  const switchTo = async (project: string): Promise<void> => {
    await vscode.commands.executeCommand('baton.switchProject', { project });
    assert.strictEqual(api.project, project);
  };
  /** The tree's roots once `project` heads them (the watcher may take a moment to bring in what a test wrote). */
  const rootsWith = async (project: string, ok: (first: Shown) => boolean = () => true, all: (roots: Shown[]) => boolean = () => true): Promise<Shown[]> =>
    (
      await poll(
        () => shown(api.views.projects),
        (r) => r[0]?.label === project && ok(r[0]) && all(r),
        15_000,
      )
    ).value;

  it('the Baton container: Checkpoints first, Abandoned only while there are some, This File in the Explorer, three icons beside the title', async () => {
    const m = manifest();
    const baton = m.contributes.views.baton;
    assert.deepStrictEqual(
      baton.map((v) => v.name),
      ['Checkpoints', 'Abandoned Sessions', 'Plans', 'Agents'],
    );
    assert.strictEqual(baton[0].id, Views.checkpoints);
    assert.strictEqual(baton[0].visibility, undefined, 'Checkpoints is open');
    for (const v of baton.filter((x) => x.name === 'Plans' || x.name === 'Agents')) assert.strictEqual(v.visibility, 'collapsed', v.name);
    assert.match(baton.find((v) => v.id === Views.abandoned)?.when ?? '', new RegExp(`^${ContextKeys.hasAbandoned.replace('.', '\\.')} && `));
    assert.deepStrictEqual(
      m.contributes.views.explorer.map((v) => [v.id, v.name, v.visibility]),
      [[Views.thisFile, 'File Checkpoints', 'collapsed']],
    );

    const title = m.contributes.menus['view/title'];
    const onCheckpoints = title.filter((e) => e.when === `view == ${Views.checkpoints}`);
    assert.deepStrictEqual(
      onCheckpoints.filter((e) => e.group?.startsWith('navigation')).map((e) => e.command),
      ['baton.commitCheckpoint', 'baton.search', 'baton.resume'],
    );
    // Every command the old six views' titles offered is still there, in the ... menu.
    const reachable = new Set(title.map((e) => e.command));
    for (const c of [
      'baton.handOff',
      'baton.addNote',
      'baton.switchProject',
      'baton.refresh',
      'baton.rebuildIndex',
      'baton.chooseVault',
      'baton.showLog',
      'baton.connectAgent',
      'baton.disconnectAgent',
      'baton.installInPath',
      'baton.closeAbandoned',
      'baton.refreshLauncher',
    ])
      assert.ok(reachable.has(c), `${c} is on no view's title`);

    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes(`${Views.checkpoints}.focus`));
    assert.ok(commands.includes(`${Views.thisFile}.focus`));
    assert.ok(!commands.includes('baton.projects.focus'), 'the old Projects view is gone');
  });

  it('Checkpoints: the current project first, open on its checkpoints directly, as the current scope lists them; the others closed', async () => {
    const roots = await rootsWith('kestrel');
    const [kestrel, ...others] = roots;
    assert.strictEqual(kestrel.item.collapsibleState, Expanded);
    assert.strictEqual(kestrel.item.contextValue, ContextValues.currentProject);
    assert.ok(others.length > 0);
    for (const o of others) assert.strictEqual(o.item.collapsibleState, Collapsed, o.label);
    const kids = await shown(api.views.projects, kestrel.node);
    assert.strictEqual(kids[0].item.contextValue, ContextValues.scope, 'its worktree first');
    assert.strictEqual(kids[0].item.collapsibleState, Collapsed, 'a worktree not switched to stays closed');
    const under = kids.filter((k) => k.node.kind === 'checkpoint');
    assert.ok(under.length >= 4);
    assert.deepStrictEqual(under.map(idOf), (await shown(api.views.checkpoints)).map(idOf), 'the current scope’s list is the tree’s');
    assert.deepStrictEqual(kids.slice(1).map(idOf), under.map(idOf), 'checkpoints right under the project, no group between');
  });

  it('a project switched to heads the tree open (a new id: VS Code keeps expansion by id), and the one left closes', async () => {
    try {
      await switchTo('lighthouse');
      const roots = await rootsWith('lighthouse');
      assert.strictEqual(roots[0].item.collapsibleState, Expanded);
      assert.strictEqual(roots[0].item.id, 'project:lighthouse:current');
      const kestrel = roots.find((r) => r.label === 'kestrel');
      assert.strictEqual(kestrel?.item.id, 'project:kestrel');
      assert.strictEqual(kestrel?.item.collapsibleState, Collapsed);
      const kids = await shown(api.views.projects, roots[0].node);
      assert.deepStrictEqual(
        kids.map((k) => k.label),
        ['Port the lamp scheduler'],
      );
      // A worktree switched to opens too, under its project.
      await switchTo('kestrel/annual-toggle');
      const back = await rootsWith('kestrel');
      const worktree = (await shown(api.views.projects, back[0].node))[0];
      assert.strictEqual(worktree.item.collapsibleState, Expanded);
      assert.deepStrictEqual((await shown(api.views.projects, worktree.node)).map(idOf), (await shown(api.views.checkpoints)).map(idOf));
    } finally {
      await switchTo('kestrel');
    }
  });

  it('a long history: the current project shows its newest 50 and opens the older in place; another project shows 10 and switches', async () => {
    const project = 'sidebar-long';
    made.push(project);
    const t0 = Math.floor(Date.now() / 1000) - 100 * HOUR;
    for (let i = 0; i < 53; i++) writeCheckpoint(project, t0 + i * HOUR, 'codex', `step ${i}`);
    try {
      await switchTo(project);
      const roots = await rootsWith(project, (r) => /53|ago/.test(r.description));
      const kids = (
        await poll(
          () => shown(api.views.projects, roots[0].node),
          (k) => k.length === 51,
          15_000,
        )
      ).value;
      assert.strictEqual(kids[0].label, 'step 52');
      const more = kids[50];
      assert.strictEqual(more.label, '3 older…');
      assert.strictEqual(more.item.collapsibleState, Collapsed, 'opens in place');
      assert.strictEqual(more.item.command, undefined);
      assert.deepStrictEqual(
        (await shown(api.views.projects, more.node)).map((k) => k.label),
        ['step 2', 'step 1', 'step 0'],
      );
      await switchTo('kestrel');
      // Waited for as a row of its own: the list can show kestrel first before its refresh lists this project.
      const other = (
        await rootsWith(
          'kestrel',
          () => true,
          (r) => r.some((x) => x.label === project),
        )
      ).find((r) => r.label === project);
      assert.ok(other);
      const list = await shown(api.views.projects, other.node);
      assert.strictEqual(list.length, 11);
      assert.strictEqual(list[10].label, '43 older…');
      assert.strictEqual(list[10].item.command?.command, 'baton.switchProject', 'another project’s older ones: switch to it');
    } finally {
      await switchTo('kestrel');
    }
  });

  it('a project without checkpoints says so under itself and commits one on a click', async () => {
    const project = 'sidebar-none';
    made.push(project);
    await vscode.commands.executeCommand('baton.addNote', { project, text: 'only a note so far' });
    try {
      await switchTo(project);
      const roots = await rootsWith(project);
      const kids = await shown(api.views.projects, roots[0].node);
      assert.deepStrictEqual(
        kids.map((k) => [k.label, k.item.contextValue, k.item.command?.command]),
        [['No checkpoints yet', ContextValues.noCheckpoints, 'baton.commitCheckpoint']],
      );
      assert.deepStrictEqual(await shown(api.views.checkpoints), [], 'no checkpoint in sight');
    } finally {
      await switchTo('kestrel');
    }
  });

  it('says whose (the machine) beside the agent only where a project is written from two machines', async () => {
    const now = Math.floor(Date.now() / 1000);
    const team = 'sidebar-team';
    const solo = 'sidebar-solo';
    made.push(team, solo);
    // Another clone's checkpoint and its session abandoned here by sync; then this machine's checkpoint.
    writeCheckpoint(team, now - 3 * HOUR, 'claude-code', 'their migration', `machine: ${OTHER}\n`);
    fs.writeFileSync(path.join(scopeDir(team), 'uncommitted.md'), `- stuck on the index <!-- ts=${now - 8 * HOUR} agent=codex machine=${OTHER} -->\n`);
    const mine = await runCli(['checkpoint', '--project', team, '--agent', 'claude-code', '--at', String(now - HOUR), '--task', 'my review']);
    assert.strictEqual(mine.code, 0, mine.stderr);
    const alone = await runCli(['checkpoint', '--project', solo, '--agent', 'claude-code', '--at', String(now - HOUR), '--task', 'alone']);
    assert.strictEqual(alone.code, 0, alone.stderr);
    try {
      await switchTo(team);
      const roots = await rootsWith(team, (r) => /this machine/.test(r.description));
      assert.match(roots[0].description, /^current · 1h ago by claude-code \(this machine\) · 1 uncommitted · 1 abandoned$/);
      const list = (
        await poll(
          () => shown(api.views.checkpoints),
          (l) => l.length === 2,
        )
      ).value;
      assert.deepStrictEqual(
        list.map((s) => [s.label, s.description]),
        [
          ['my review', 'claude-code · this machine · 1h ago'],
          ['their migration', 'claude-code · machine feedc0de · 3h ago'],
        ],
      );
      const abandoned = (
        await poll(
          () => shown(api.views.abandoned),
          (l) => l.some((s) => s.label === `codex · ${team}`),
          15_000,
        )
      ).value.find((s) => s.label === `codex · ${team}`);
      assert.match(abandoned?.description ?? '', /^silent 8h · 1 note · machine feedc0de$/);

      // A person alone sees what they always saw.
      await switchTo(solo);
      const soloRoots = await rootsWith(solo, (r) => /ago/.test(r.description));
      assert.strictEqual(soloRoots[0].description, 'current · 1h ago by claude-code');
      // The team's row, now another project's, still says whose its last checkpoint is (from the index, no history read).
      const teamRow = soloRoots.find((r) => r.label === team);
      assert.match(teamRow?.description ?? '', /^1h ago by claude-code \(this machine\) · 1 uncommitted · 1 abandoned$/, JSON.stringify(teamRow));
      assert.ok(
        soloRoots.filter((r) => r.label !== team).every((r) => !/machine/.test(r.description)),
        soloRoots.map((r) => `${r.label}: ${r.description}`).join('\n'),
      );
      assert.deepStrictEqual(
        (await shown(api.views.checkpoints)).map((s) => s.description),
        ['claude-code · 1h ago'],
      );
      const everyAbandoned = await shown(api.views.abandoned);
      for (const s of everyAbandoned.filter((x) => !x.label.endsWith(` · ${team}`))) assert.doesNotMatch(s.description, /machine/, s.label);
    } finally {
      await switchTo('kestrel');
    }
  });

  it('Abandoned Sessions shows only while the vault holds an abandoned session (its key asked of the vault, the view hidden)', async () => {
    const vault = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-abandoned-key-'));
    fs.mkdirSync(path.join(vault, 'sessions', 'quiet'), { recursive: true });
    const silent = Math.floor(Date.now() / 1000) - 8 * HOUR;
    fs.writeFileSync(path.join(vault, 'sessions', 'quiet', 'uncommitted.md'), `- left for the night <!-- ts=${silent} agent=aider -->\n`);
    const context = new ContextState(async () => undefined);
    const host = new BatonHost(quiet, new ProjectScope(memento()), {
      openSession: (_root, log) => new VaultSession(vault, log),
      context,
      showLoading: () => undefined,
    });
    const key = new AbandonedKey(host, quiet);
    try {
      await host.ready();
      await key.update();
      assert.strictEqual(context.get(ContextKeys.hasAbandoned), true, 'one silent session');
      const [one] = await host.session.baton.abandoned();
      await host.session.baton.closeAbandoned('quiet', one.session);
      const { value } = await poll(
        async () => context.get(ContextKeys.hasAbandoned),
        (v) => v === false,
      );
      assert.strictEqual(value, false, 'closed: the view goes');
    } finally {
      key.dispose();
      host.dispose();
      fs.rmSync(vault, { recursive: true, force: true });
    }
  });
});

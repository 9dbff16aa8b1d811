// Loading is a state: until a look at the vault has answered, the views wait
// (and show progress) instead of answering "empty", on the first look, a
// vault switch and a rebuild. The slowness is injected through the host's
// port: a real VaultSession over a real vault whose first read waits on a
// gate the test opens; the context keys go to a recorder, so the extension's
// own host and its welcome views are not disturbed.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { BatonHost } from '../../src/vscode/batonHost';
import { ContextState } from '../../src/vscode/contextKeys';
import { ContextKeys, Views } from '../../src/vscode/ids';
import type { Log } from '../../src/vscode/log';
import { ProjectScope } from '../../src/vscode/projectScope';
import { VaultSession } from '../../src/vscode/vaultSession';
import { ProjectsView } from '../../src/vscode/views/projectsView';
import { CheckpointsView } from '../../src/vscode/views/checkpointsView';
import { batonApi, poll, vaultDir } from './support/baton';

const quiet: Log = { info: () => undefined, warn: () => undefined, error: () => undefined, show: () => undefined };

/** A real session whose every first read waits until the test lets it through. */
class SlowSession extends VaultSession {
  static made: SlowSession[] = [];
  asked = 0;
  private release: () => void = () => undefined;
  private gate = new Promise<void>((r) => (this.release = r));

  constructor(root: string, log: Log) {
    super(root, log);
    SlowSession.made.push(this);
  }

  override async load(): Promise<void> {
    this.asked += 1;
    await this.gate;
    return super.load();
  }

  open(): void {
    this.release();
    this.gate = new Promise<void>((r) => (this.release = r));
  }
}

function memento(): vscode.Memento {
  const m = new Map<string, unknown>();
  return { keys: () => [...m.keys()], get: (k: string, d?: unknown) => (m.has(k) ? m.get(k) : d), update: async (k: string, v: unknown) => void m.set(k, v) } as vscode.Memento;
}

/** Whether a promise has settled, after everything already queued has run. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((r) => setImmediate(r));
  return done;
}

describe('loading state (a vault slowed on purpose)', () => {
  it('no welcome but "Reading the vault…" can show while loading: "empty", "no projects" and Restricted Mode wait for the look', () => {
    const ext = vscode.extensions.getExtension('baton-dev.baton');
    assert.ok(ext);
    const welcomes = (ext.packageJSON as { contributes: { viewsWelcome: { view: string; when: string; contents: string }[] } }).contributes.viewsWelcome;
    for (const w of welcomes.filter((x) => x.view !== Views.agents)) {
      if (w.when === 'baton.vaultState == loading') {
        assert.match(w.contents, /^Reading the vault…/);
        continue;
      }
      const otherState = /baton\.vaultState == (?!loading)\w+/.test(w.when);
      assert.ok(otherState || w.when.includes('baton.vaultState != loading'), `${w.view}: "${w.contents.slice(0, 40)}…" can show while loading (${w.when})`);
    }
    for (const view of [Views.checkpoints, Views.abandoned, Views.plans, Views.thisFile])
      assert.ok(
        welcomes.some((w) => w.view === view && w.when === 'baton.vaultState == loading'),
        `${view} says nothing while loading`,
      );
  });

  let host: BatonHost;
  let context: ContextState;
  let progress: Promise<unknown>[];
  let projects: ProjectsView;
  let checkpoints: CheckpointsView;
  const session = (): SlowSession => SlowSession.made[SlowSession.made.length - 1];

  before(async () => {
    await batonApi();
    SlowSession.made = [];
    context = new ContextState(async () => undefined);
    progress = [];
    host = new BatonHost(quiet, new ProjectScope(memento()), {
      openSession: (root, log) => new SlowSession(root, log),
      context,
      showLoading: (until) => progress.push(until),
    });
    projects = new ProjectsView(host, quiet, 'Projects');
    checkpoints = new CheckpointsView(host, quiet, 'Checkpoints');
  });

  after(() => {
    projects.dispose();
    checkpoints.dispose();
    host.dispose();
  });

  it('the first look: the views wait, with progress, and say no "empty" until the vault answered', async () => {
    const roots = projects.getChildren();
    const history = checkpoints.getChildren();
    await poll(
      async () => session().asked,
      (n) => n > 0,
    );
    assert.strictEqual(host.state, 'loading');
    assert.strictEqual(context.get(ContextKeys.vaultState), 'loading', 'no welcome but the loading one may match');
    assert.strictEqual(progress.length, 1, 'progress shown on the views');
    assert.strictEqual(await settled(roots), false, 'Projects answered before the vault did');
    assert.strictEqual(await settled(history), false, 'Checkpoints answered before the vault did');
    assert.strictEqual(await settled(progress[0]), false);

    session().open();
    const shown = await roots;
    assert.ok(
      shown.some((n) => n.kind === 'project' && n.continuity.project === 'lighthouse'),
      'the fixture vault’s projects',
    );
    assert.strictEqual(host.state, 'ready');
    assert.strictEqual(context.get(ContextKeys.vaultState), 'ready');
    assert.strictEqual(context.get(ContextKeys.vaultExists), true);
    assert.strictEqual(await settled(progress[0]), true, 'progress ends with the look');
    await history;
  });

  it('a rebuild of the index: loading again until the rebuilt index answered', async () => {
    const rebuilt = host.rebuildIndex();
    await poll(
      async () => session().asked,
      (n) => n > 1,
      30000,
    );
    assert.strictEqual(host.state, 'loading');
    assert.strictEqual(context.get(ContextKeys.vaultState), 'loading');
    assert.strictEqual(progress.length, 2);
    const roots = projects.getChildren();
    assert.strictEqual(await settled(roots), false, 'Projects answered from an index being rebuilt');
    session().open();
    const r = await rebuilt;
    assert.ok(r.checkpoints > 0);
    assert.ok((await roots).length > 0);
    assert.strictEqual(host.state, 'ready');
  });

  it('a vault switch: the new vault is loading until it answered, never the old one’s data nor "empty"', async () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-slow-vault-'));
    fs.cpSync(path.join(vaultDir(), 'sessions'), path.join(copy, 'sessions'), { recursive: true });
    const config = vscode.workspace.getConfiguration('baton');
    const before = config.inspect<string>('vault')?.globalValue;
    const api = await batonApi();
    const made = SlowSession.made.length;
    try {
      await config.update('vault', copy, vscode.ConfigurationTarget.Global);
      await poll(
        async () => SlowSession.made.length > made && session().asked > 0,
        (ok) => ok,
      );
      assert.strictEqual(host.session.root, copy);
      assert.strictEqual(host.state, 'loading');
      assert.strictEqual(context.get(ContextKeys.vaultState), 'loading');
      const roots = projects.getChildren();
      assert.strictEqual(await settled(roots), false, 'Projects answered before the new vault did');
      session().open();
      assert.ok((await roots).some((n) => n.kind === 'project' && n.continuity.project === 'lighthouse'));
      assert.strictEqual(host.state, 'ready');
    } finally {
      await config.update('vault', before, vscode.ConfigurationTarget.Global);
      session().open();
      await poll(
        async () => api.vaultRoot === vaultDir(),
        (ok) => ok,
      );
      await api.loaded();
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
});

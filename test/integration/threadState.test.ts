// The shared thread in the editor's views and sync (issue 28), in the real
// VS Code: the Checkpoints view's project row says what `baton thread status`
// says of the workspace's repository (the harness's git fixture, project
// kestrel), and Sync Vault, after the vault's own sync, pulls the checkpoint
// files cloud agents committed on the repository's other branches into the
// vault. The vault is a temporary one shared through a bare remote (as in
// sync.test.ts), so nothing here lands in the fixture vault; the repository
// works on a branch of its own, and both go back as they were.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ThreadOutcome } from '../../src/app/repoThread';
import type { BatonApi } from '../../src/vscode/api';
import type { EditorSyncResult } from '../../src/vscode/sync/syncController';
import { spawnCli } from '../support/spawnCli';
import { batonApi, env, poll, settle, shown, workspaceDir } from './support/baton';
import { accept, drive, previewTabs } from './support/quickPicks';

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Baton Test',
  GIT_AUTHOR_EMAIL: 'baton-test@example.invalid',
  GIT_COMMITTER_NAME: 'Baton Test',
  GIT_COMMITTER_EMAIL: 'baton-test@example.invalid',
};
const git = (cwd: string, args: string[], extra: NodeJS.ProcessEnv = {}, input?: string): string =>
  execFileSync('git', ['-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8', env: { ...GIT_ENV, ...extra }, input }).trim();
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('baton');
const SHARED = ['agent-thread', 'AGENTS.md', '.github', '.claude'];
const BRANCH = 'baton-thread-state-test';
const CLOUD_BRANCH = 'cloud/fix-flaky-test';

/** The name a cloud agent gives its checkpoint file: the UTC time and the agent (agent-thread/README.md). */
function checkpointName(at: Date, agent: string): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${at.getUTCFullYear()}${p(at.getUTCMonth() + 1)}${p(at.getUTCDate())}-${p(at.getUTCHours())}${p(at.getUTCMinutes())}${p(at.getUTCSeconds())}-${agent}.md`;
}

describe('shared thread in the views and sync', function () {
  this.timeout(120_000);
  let api: BatonApi;
  let tmp: string;
  let vault: string;
  let remote: string;
  let vaultBefore: string | undefined;
  let branchBefore: string;
  const ws = (): string => workspaceDir();
  const cli = async (args: string[], cwd: string): Promise<void> => {
    const r = await spawnCli(env('BATON_TEST_CLI'), args, { vault, cwd, env: { ELECTRON_RUN_AS_NODE: '1' } });
    assert.strictEqual(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
  };
  /** The workspace's project row as the view shows it. */
  const row = async (): Promise<{ description: string; tooltip: string }> => {
    const rows = await shown(api.views.projects);
    const mine = rows.find((r) => r.node.kind === 'project' && r.node.current);
    assert.ok(mine, `the workspace's project is listed: ${rows.map((r) => r.label).join(', ')}`);
    const t = mine.item.tooltip;
    // The tooltip's markdown escapes every symbol of its text (views/markdown textTooltip): read as the person reads it.
    const tooltip = (typeof t === 'string' ? t : (t?.value ?? '')).replace(/\\(.)/g, '$1');
    return { description: mine.description, tooltip };
  };
  const rowUntil = async (ok: (description: string) => boolean, what: string): Promise<{ description: string; tooltip: string }> => {
    const r = await poll(row, (v) => ok(v.description), 20000, 200);
    assert.ok(ok(r.value.description), `${what}: ${r.value.description}`);
    return r.value;
  };
  /** Share the Thread With Cloud Agents… from the palette, its go-ahead taken once each file's diff is open. */
  const share = async (files: number): Promise<ThreadOutcome | undefined> =>
    drive<ThreadOutcome>('baton.shareThread', [
      async () => {
        await poll(
          async () => previewTabs().length,
          (n) => n >= files,
          15000,
        );
        await settle(500);
        await accept();
      },
    ]);
  const commitShared = (message: string): void => {
    git(ws(), ['add', '-A', '--', ...SHARED]);
    git(ws(), ['commit', '-q', '-m', message]);
  };

  before(async () => {
    api = await batonApi();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-thread-it-'));
    remote = path.join(tmp, 'remote.git');
    vault = path.join(tmp, 'vault');
    git(tmp, ['init', '-q', '--bare', remote]);
    await cli(['sync', '--init', '--remote', remote], tmp);
    await cli(['checkpoint', '--project', 'kestrel', '--agent', 'claude', '--task', 'greet says hello', '--next', 'share the thread'], tmp);
    vaultBefore = config().get<string>('vault');
    await config().update('vault', vault, vscode.ConfigurationTarget.Global);
    await poll(
      async () => api.vaultRoot,
      (r) => r === vault,
      8000,
    );
    assert.strictEqual(api.vaultRoot, vault);
    await api.loaded();
    branchBefore = git(ws(), ['rev-parse', '--abbrev-ref', 'HEAD']);
    git(ws(), ['checkout', '-q', '-b', BRANCH]);
  });

  after(async () => {
    // The repository as the fixture left it: its branch, no test branches, no shared files.
    git(ws(), ['checkout', '-q', '-f', branchBefore]);
    git(ws(), ['clean', '-qfd', '--', ...SHARED]);
    for (const b of [BRANCH, CLOUD_BRANCH]) {
      try {
        git(ws(), ['branch', '-q', '-D', b]);
      } catch {
        // Not made: a test before it failed.
      }
    }
    await config().update('vault', vaultBefore, vscode.ConfigurationTarget.Global);
    await poll(
      async () => api.vaultRoot,
      (r) => r !== vault,
      8000,
    );
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('the project row says the committed hand-over is behind after a checkpoint made outside the repository, and current after sharing again', async () => {
    const first = await share(7);
    assert.ok(first?.written.includes('agent-thread/HANDOVER.md'), first?.written.join(', '));
    await rowUntil((d) => d.includes('thread shared · hand-over not committed'), 'written, not committed yet');
    commitShared('Share the thread with cloud agents');
    const current = await rowUntil((d) => d.endsWith('thread shared · current'), 'committed');
    assert.match(current.tooltip, /the committed hand-over is current, the working tree's is current/);

    // Outside the repository's folder no refresh rewrites the hand-over: the vault moves on without it.
    await cli(['checkpoint', '--project', 'kestrel', '--agent', 'codex', '--task', 'made in another folder', '--next', 'commit the hand-over'], tmp);
    const behind = await rowUntil((d) => d.includes('thread shared · committed hand-over behind the vault'), 'after a checkpoint elsewhere');
    assert.match(behind.tooltip, /the working tree's is behind the vault/);

    const again = await share(3);
    assert.ok(again?.written.includes('agent-thread/HANDOVER.md'), again?.written.join(', '));
    commitShared('The thread again');
    await rowUntil((d) => d.endsWith('thread shared · current'), 'shared again and committed');
  });

  it('Sync Vault pulls a checkpoint a cloud agent committed on another branch, says so, and the Checkpoints view shows it', async () => {
    // The cloud agent's branch, made through git's plumbing: the workspace's working tree, index and branch stay as they are.
    const at = new Date(Date.now() - 60_000);
    const file = `agent-thread/checkpoints/${checkpointName(at, 'codex')}`;
    const text = '## Task\nfixed the flaky greet test on a cloud branch\n\n## Next\nreview the pull request\n';
    const blob = git(ws(), ['hash-object', '-w', '--stdin'], {}, text);
    const index = { GIT_INDEX_FILE: path.join(tmp, 'cloud.index') };
    git(ws(), ['read-tree', 'HEAD'], index);
    git(ws(), ['update-index', '--add', '--cacheinfo', `100644,${blob},${file}`], index);
    const tree = git(ws(), ['write-tree'], index);
    const commit = git(ws(), ['commit-tree', tree, '-p', 'HEAD', '-m', 'A cloud agent leaves its checkpoint']);
    git(ws(), ['branch', CLOUD_BRANCH, commit]);
    assert.strictEqual(git(ws(), ['rev-parse', '--abbrev-ref', 'HEAD']), BRANCH);
    await rowUntil((d) => d.includes('1 cloud checkpoint to pull'), 'the branch seen');

    const result = await vscode.commands.executeCommand<EditorSyncResult | undefined>('baton.syncVault');
    assert.ok(result, 'the sync ran');
    assert.deepStrictEqual(result.thread, { imported: 1, rejected: 0, failed: [] });
    const listed = await poll(
      async () => (await shown(api.views.checkpoints)).filter((r) => r.node.kind === 'checkpoint' && r.node.checkpoint.task.includes('on a cloud branch')),
      (found) => found.length === 1,
      10000,
    );
    assert.strictEqual(listed.value.length, 1, 'the pulled checkpoint is in the Checkpoints view');
    const node = listed.value[0].node;
    assert.ok(node.kind === 'checkpoint');
    assert.strictEqual(node.checkpoint.agent, 'codex');
    assert.strictEqual(node.checkpoint.git.branch, CLOUD_BRANCH);
    await rowUntil((d) => !d.includes('to pull') && d.includes('thread shared'), 'nothing left to pull');

    // Once only: the next sync brings nothing.
    const next = await vscode.commands.executeCommand<EditorSyncResult | undefined>('baton.syncVault');
    assert.strictEqual(next?.thread.imported, 0);
  });

  it('with git turned off for Baton the row says nothing of the thread', async () => {
    // The row says the thread now, from a read already done: no read is in flight to count.
    await rowUntil((d) => d.includes('thread shared'), 'git on');
    const reads = api.threadReads;
    await config().update('git.enabled', false, vscode.ConfigurationTarget.Global);
    try {
      await rowUntil((d) => !d.includes('thread shared'), 'git off');
      // And it stays so: the rows drawn since git went off, and drawn again, started no read (a read starts as a row is drawn).
      for (let i = 0; i < 3; i++) assert.ok(!(await row()).description.includes('thread shared'));
      assert.strictEqual(api.threadReads, reads, 'git ran with git off: a read of the thread started');
    } finally {
      await config().update('git.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
    await rowUntil((d) => d.includes('thread shared'), 'git on again');
  });
});

// Baton: Sync Vault in the real extension host, against a local bare remote:
// the vault is a clone of it in a temporary folder (set up by the built CLI's
// `sync --init --remote`), the command runs, the remote gets the commit and
// the status bar says so.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { SyncResult } from '../../src/app/sync';
import type { BatonApi } from '../../src/vscode/api';
import { spawnCli } from '../support/spawnCli';
import { batonApi, env, poll } from './support/baton';

const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } }).trim();

describe('sync vault', function () {
  this.timeout(120_000);
  let api: BatonApi;
  let tmp: string;
  let vault: string;
  let remote: string;
  let before_: string | undefined;
  const cli = async (args: string[]): Promise<void> => {
    const r = await spawnCli(env('BATON_TEST_CLI'), args, { vault, cwd: tmp, env: { ELECTRON_RUN_AS_NODE: '1' } });
    assert.strictEqual(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
  };
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('baton');

  before(async () => {
    api = await batonApi();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-sync-it-'));
    remote = path.join(tmp, 'remote.git');
    vault = path.join(tmp, 'vault');
    git(tmp, 'init', '-q', '--bare', remote);
    await cli(['sync', '--init', '--remote', remote]);
    before_ = config().get<string>('vault');
    await config().update('vault', vault, vscode.ConfigurationTarget.Global);
    await poll(
      async () => api.vaultRoot,
      (r) => r === vault,
      8000,
    );
    assert.strictEqual(api.vaultRoot, vault);
  });

  after(async () => {
    await config().update('vault', before_, vscode.ConfigurationTarget.Global);
    await poll(
      async () => api.vaultRoot,
      (r) => r !== vault,
      8000,
    );
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('Baton: Sync Vault commits and pushes to the remote, and the status bar shows the state', async () => {
    const shown = await poll(
      async () => api.syncStatusText,
      (t) => t !== '',
      8000,
    );
    assert.match(shown.value, /synced/, 'a shared vault shows its sync item');
    await cli(['note', '--project', 'kestrel', '--agent', 'claude', 'synced from the editor']);
    const pending = await poll(
      async () => api.syncStatusText,
      (t) => t.includes('±1'),
      8000,
    );
    assert.match(pending.value, /^\$\(sync\) ±1$/, 'the changed notes file waits for the next sync');

    const result = await vscode.commands.executeCommand<SyncResult | undefined>('baton.syncVault');
    assert.ok(result, 'the sync ran');
    assert.strictEqual(result.committed, 1);
    assert.strictEqual(result.pushed, 1);
    assert.match(git(remote, 'show', 'main:sessions/kestrel/uncommitted.md'), /synced from the editor/);
    const done = await poll(
      async () => api.syncStatusText,
      (t) => t === '$(check) synced',
      8000,
    );
    assert.strictEqual(done.value, '$(check) synced');
  });

  it('a failure (the remote gone) is shown as a message with the fix and in the status bar, and the commit is kept', async () => {
    fs.renameSync(remote, `${remote}.away`);
    try {
      await cli(['note', '--project', 'kestrel', '--agent', 'claude', 'written offline']);
      const result = await vscode.commands.executeCommand<SyncResult | undefined>('baton.syncVault');
      assert.strictEqual(result, undefined);
      const failed = await poll(
        async () => api.syncStatusText,
        (t) => t.startsWith('$(error)'),
        8000,
      );
      assert.match(failed.value, /sync failed/);
      assert.match(git(vault, 'log', '-1', '--format=%s'), /baton sync/, 'committed locally');
    } finally {
      fs.renameSync(`${remote}.away`, remote);
    }
    const result = await vscode.commands.executeCommand<SyncResult | undefined>('baton.syncVault');
    assert.strictEqual(result?.pushed, 1, 'the next sync pushed what was committed offline');
  });

  it('with git turned off for Baton (as in an untrusted workspace) Sync Vault runs no git and commits nothing', async () => {
    const head = git(vault, 'rev-parse', 'HEAD');
    await cli(['note', '--project', 'kestrel', '--agent', 'claude', 'not synced while git is off']);
    await config().update('git.enabled', false, vscode.ConfigurationTarget.Global);
    try {
      assert.strictEqual(await vscode.commands.executeCommand('baton.syncVault'), undefined);
      assert.strictEqual(git(vault, 'rev-parse', 'HEAD'), head, 'no commit');
      const hidden = await poll(
        async () => api.syncStatusText,
        (t) => t === '',
        8000,
      );
      assert.strictEqual(hidden.value, '', 'no sync state read either');
    } finally {
      await config().update('git.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('Share or Join a Vault Through Git… joins a shared vault: clones it into an empty folder and uses it', async () => {
    const joined = path.join(tmp, 'joined');
    const folder = await vscode.commands.executeCommand<string | undefined>('baton.shareVault', { clone: remote, folder: joined });
    assert.strictEqual(folder, joined);
    assert.strictEqual(config().get<string>('vault'), joined);
    assert.match(fs.readFileSync(path.join(joined, 'sessions', 'kestrel', 'uncommitted.md'), 'utf8'), /synced from the editor/);
    await poll(
      async () => api.vaultRoot,
      (r) => r === joined,
      8000,
    );
    await config().update('vault', vault, vscode.ConfigurationTarget.Global);
    await poll(
      async () => api.vaultRoot,
      (r) => r === vault,
      8000,
    );
  });

  it('with baton.sync.afterCheckpoint on, a checkpoint an agent writes reaches the remote by itself', async () => {
    await config().update('sync.afterCheckpoint', true, vscode.ConfigurationTarget.Global);
    // The setting is read when its change event arrives; a person's next checkpoint comes later than that.
    await new Promise((r) => setTimeout(r, 1000));
    try {
      await cli(['checkpoint', '--project', 'kestrel', '--agent', 'claude', '--task', 'pushed after the checkpoint']);
      const onRemote = await poll(
        async () => {
          try {
            return git(remote, 'grep', '-l', 'pushed after the checkpoint', 'main', '--', 'sessions');
          } catch {
            return '';
          }
        },
        (out) => out !== '',
        20000,
        500,
      );
      assert.notStrictEqual(onRemote.value, '', 'the checkpoint was synced without a command');
    } finally {
      await config().update('sync.afterCheckpoint', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});

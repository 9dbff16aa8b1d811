// Turning a vault into a shared one, and joining one. Both end where
// `baton sync` starts: the vault is the top of its own repository, its branch
// has an upstream, `.gitignore` keeps the cache and the locks out and
// `.gitattributes` hands the working notes to Baton's merge.
import * as fs from 'fs';
import * as path from 'path';
import { BatonError } from '../core/errors';
import { runGit } from '../adapters/git/gitRun';
import { ensureInfoAttributes, ensureVaultGitFiles } from '../adapters/git/vaultGitFiles';
import { gitSays, NETWORK_MS, openVaultRepo, VaultRepo } from '../adapters/git/vaultRepo';
import { ensureDir } from '../adapters/vault/atomicFile';
import { FsVault } from '../adapters/vault/fsVault';
import { LOCAL_DIRS } from '../adapters/vaultLayout';
import { syncVault, type SyncResult } from './sync';

export interface SetupResult {
  /** What was done, in words, one line each. */
  steps: string[];
  sync?: SyncResult;
}

const failed = (message: string): BatonError => new BatonError('failed', message);

/**
 * Makes the vault a git repository of its own (when it is not one), writes
 * Baton's `.gitignore`/`.gitattributes` lines, commits; with a remote, adds it
 * as `origin` and syncs: an empty remote gets this vault, a remote that holds
 * a vault already is merged with it (its notes and checkpoints and these,
 * as any sync merges).
 */
export async function initSharedVault(root: string, remoteUrl?: string): Promise<SetupResult> {
  const steps: string[] = [];
  await ensureDir(root);
  let found = await openVaultRepo(root);
  if (!(found instanceof VaultRepo)) {
    const init = await runGit(root, ['init', '-q']);
    if (init.code !== 0) throw failed(`git init in ${root} failed: ${gitSays(init)}. Is git installed (git --version)?`);
    // `init -b` needs git 2.28; this works on any: the first branch is "main" whatever init.defaultBranch says.
    await runGit(root, ['symbolic-ref', 'HEAD', 'refs/heads/main']);
    steps.push(`Made ${root} a git repository (branch main).`);
    found = await openVaultRepo(root);
    if (!(found instanceof VaultRepo)) throw failed(`git init in ${root} did not make a repository git can open; run git -C "${root}" status to see why.`);
  }
  const repo = found;
  const branch = (await repo.branch()) ?? '';
  if (!branch) throw failed(`The vault's repository ${root} is on a detached HEAD; check out its branch (git -C "${root}" switch main), then run this again.`);
  if (await ensureVaultGitFiles(root)) steps.push('Wrote .gitignore (the cache and the locks stay local) and .gitattributes (working notes merged by Baton).');
  await new FsVault(root).withVaultExclusive(async () => {
    const { staged, refused } = await repo.stageAll();
    for (const r of refused) steps.push(`Left ${r.path} out of the shared vault: ${r.reason}.`);
    if (staged.length) {
      await repo.commit('baton: share this vault');
      steps.push(`Committed ${staged.length} file(s).`);
    }
  });
  if (!remoteUrl) {
    if (!(await repo.upstream(branch))) steps.push(`No remote yet: add one with baton --vault "${root}" sync --init --remote URL.`);
    return { steps };
  }
  const existing = (await repo.git(['config', '--get', 'remote.origin.url'])).out.trim();
  if (existing && existing !== remoteUrl) {
    throw failed(
      `The vault's repository already has a remote "origin" (${existing}). Sync with it (baton sync), or change it: git -C "${root}" remote set-url origin ${remoteUrl}.`,
    );
  }
  if (!existing) {
    await repo.ok(['remote', 'add', 'origin', remoteUrl]);
    steps.push(`Added the remote origin: ${remoteUrl}.`);
  }
  const f = await repo.git(['fetch', '--quiet', '--no-tags', 'origin'], { timeoutMs: NETWORK_MS });
  if (f.code !== 0) throw failed(`Could not fetch from ${remoteUrl}: ${gitSays(f)}. The vault is committed locally; check the URL and your access, then run this again.`);
  // The branch follows origin's branch of the same name; it is set here, in
  // the vault's own repository, as `git push -u` would set it.
  await repo.ok(['config', `branch.${branch}.remote`, 'origin']);
  await repo.ok(['config', `branch.${branch}.merge`, `refs/heads/${branch}`]);
  steps.push(`The branch ${branch} syncs with origin/${branch}.`);
  const sync = await syncVault(root);
  return { steps, sync };
}

/** Joins a shared vault: clones it into the vault's folder, which must be empty or absent. */
export async function cloneSharedVault(root: string, url: string): Promise<SetupResult> {
  const entries = await fs.promises.readdir(root).catch(() => null);
  if (entries && entries.some((e) => !LOCAL_DIRS.includes(e))) {
    throw failed(
      `The vault ${root} already has files, and cloning would have to replace them. To merge them with the shared vault: ` +
        `baton --vault "${root}" sync --init --remote ${url}. To join into a new folder: baton --vault NEW_DIR sync --clone ${url}.`,
    );
  }
  const parent = path.dirname(root);
  await ensureDir(parent);
  // Into a fresh name, then into place: a clone that fails halfway leaves no half a vault behind.
  const tmp = path.join(parent, `.${path.basename(root)}.clone-${process.pid}`);
  // No checkout yet: Baton's attribute rules go in first, and what Baton never
  // takes from a remote (a forged lock, a cache, a link under sessions/) is
  // never written into the working tree.
  const r = await runGit(parent, ['clone', '--quiet', '--no-tags', '--no-checkout', url, tmp], { timeoutMs: NETWORK_MS * 5 });
  if (r.code !== 0) {
    await fs.promises.rm(tmp, { recursive: true, force: true });
    throw failed(`Could not clone ${url}: ${gitSays(r)}. Check the URL and your access to it, then run this again.`);
  }
  const fresh = new VaultRepo(tmp);
  await ensureInfoAttributes(await fresh.infoAttributesFile());
  let branch = await fresh.branch();
  if (!(await fresh.hasRef('HEAD'))) {
    // The remote's HEAD names a branch it does not have (a bare repository
    // made by `git init --bare` says master, the vault was pushed as main):
    // take main, else the remote's only branch.
    const remotes = (await fresh.ok(['for-each-ref', '--format=%(refname:lstrip=3)', 'refs/remotes/origin'])).split('\n').filter((b) => b && b !== 'HEAD');
    const pick = remotes.includes('main') ? 'main' : remotes.length === 1 ? remotes[0] : '';
    if (pick) {
      await fresh.ok(['update-ref', `refs/heads/${pick}`, `refs/remotes/origin/${pick}`]);
      await fresh.ok(['symbolic-ref', 'HEAD', `refs/heads/${pick}`]);
      branch = pick;
    }
  }
  if (branch && !(await fresh.upstream(branch))) {
    await fresh.ok(['config', `branch.${branch}.remote`, 'origin']);
    await fresh.ok(['config', `branch.${branch}.merge`, `refs/heads/${branch}`]);
  }
  const left: string[] = [];
  if (await fresh.hasRef('HEAD')) {
    // The index as HEAD has it, less what Baton does not take, then written out:
    // the removals stay staged, and the first sync commits and pushes them.
    const refused = await fresh.refusedIn('HEAD');
    await fresh.ok(['read-tree', 'HEAD']);
    if (refused.length) await fresh.ok(['update-index', '-z', '--force-remove', '--stdin'], { input: refused.map((x) => x.path).join('\0') + '\0' });
    await fresh.ok(['checkout-index', '-a', '-u', '-q']);
    for (const x of refused) left.push(`Left out ${x.path}: ${x.reason} (its removal goes with the next sync).`);
  }
  // A vault folder holding only the cache and the live folder (pending notes
  // may be there) keeps them: they move into the clone, which ignores them.
  if (entries) {
    for (const e of entries) await fs.promises.rename(path.join(root, e), path.join(tmp, e));
    await fs.promises.rmdir(root);
  }
  await fs.promises.rename(tmp, root);
  await fs.promises.chmod(root, 0o700).catch(() => undefined);
  const steps = [`Cloned ${url} into ${root}.`, ...left];
  if (await ensureVaultGitFiles(root)) steps.push("Added Baton's lines to .gitignore and .gitattributes (committed by the next sync).");
  return { steps };
}

// `baton sync`: the vault shared through its git repository. One use case for
// the CLI and the editor. The order is what keeps every write:
//   1. under the vault's gate (no writer writing, none starting), commit the
//      vault's own files: whatever happens next, a note acknowledged before
//      the sync is in a commit;
//   2. fetch, without the gate (the network may be slow; git touches no file
//      of the working tree);
//   3. under the gate again, merge, and resolve what only Baton understands
//      (adapters/git/mergeResolve.ts); commit the merge;
//   4. push, without the gate; refused because someone pushed in between:
//      back to 2, a few times.
// A failure at 2 or 4 (offline, no access) leaves the local commits, which the
// next sync pushes. A person's own conflicting file stops at 3, with Baton's
// files resolved and staged and the merge left for the person.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { BatonError } from '../core/errors';
import { isEmptyCheckpoint } from '../core/checkpointBody';
import { FsVault } from '../adapters/vault/fsVault';
import { gitSays, isRejectedPush, NETWORK_MS, openVaultRepo, VaultRepo, type Upstream } from '../adapters/git/vaultRepo';
import { kindOf, resolveMerge, type Resolution } from '../adapters/git/mergeResolve';
import { ensureInfoAttributes, ensureVaultGitFiles, overriddenAttributes } from '../adapters/git/vaultGitFiles';
import { parseCheckpoint, parsePlan } from '../adapters/markdown/checkpointFile';
import { readCapped } from '../adapters/vault/atomicFile';
import { SESSIONS_DIR, scopeOfVaultPath } from '../adapters/vaultLayout';

export interface SyncResult {
  /** Files committed locally by this sync. */
  committed: number;
  /** Commits received from the remote. */
  pulled: number;
  /** Commits sent to the remote. */
  pushed: number;
  /** Checkpoints and plans of this machine that took the next free name (vault-relative paths). */
  renamed: { from: string; to: string }[];
  /** A person's files left conflicted for them (vault-relative paths). */
  conflicts: string[];
  /** Checkpoints and plans that arrived and cannot be read: kept, never deleted, reported here. */
  unreadable: string[];
  /**
   * What this sync would not take or share, and what it did about it: the
   * remote's `.baton/`, `.baton-live/` or temporary files, links and other
   * non-plain files under `sessions/` (left out of the merge, so never
   * written here; a local one left out of the commit, kept on disk), and
   * `.gitattributes` rules that would change how Baton's files merge or are
   * encoded (outranked by Baton's in the repository's info/attributes).
   */
  refused: { path: string; reason: string }[];
}

/** A sync that stopped: what it did so far, and what to do. */
export class SyncError extends BatonError {
  constructor(
    message: string,
    readonly result: SyncResult,
    readonly reason: 'notRepo' | 'noUpstream' | 'offline' | 'conflict' | 'busy' | 'git',
  ) {
    super('failed', message);
    this.name = 'SyncError';
  }
}

export interface SyncOptions {
  /** How many times a push refused because the remote moved on is retried. */
  retries?: number;
}

const empty = (): SyncResult => ({ committed: 0, pulled: 0, pushed: 0, renamed: [], conflicts: [], unreadable: [], refused: [] });

function refuse(result: SyncResult, list: { path: string; reason: string }[]): void {
  for (const r of list) if (!result.refused.some((x) => x.path === r.path && x.reason === r.reason)) result.refused.push(r);
}
const host = (): string => os.hostname() || 'a machine';

/** The vault's repository and upstream, or a SyncError saying how to get them. */
export async function vaultRepoOf(root: string): Promise<{ repo: VaultRepo; branch: string; upstream: Upstream }> {
  const found = await openVaultRepo(root);
  const result = empty();
  if (!(found instanceof VaultRepo)) {
    if (found.kind === 'insideOther') {
      throw new SyncError(
        `The vault ${root} is inside the git repository ${found.top}, not a repository of its own, and Baton syncs only the vault's own. ` +
          `Make it one: baton --vault "${root}" sync --init --remote URL.`,
        result,
        'notRepo',
      );
    }
    throw new SyncError(
      `The vault ${root} is not a git repository, so there is nothing to sync with. Share it: baton --vault "${root}" sync --init --remote URL, ` +
        'or join a shared vault: baton --vault DIR sync --clone URL.',
      result,
      'notRepo',
    );
  }
  const branch = await found.branch();
  if (!branch) {
    throw new SyncError(`The vault's repository ${root} is on a detached HEAD. Check out its branch (git -C "${root}" switch main), then sync again.`, result, 'git');
  }
  const upstream = await found.upstream(branch);
  if (!upstream) {
    throw new SyncError(
      `The vault's branch "${branch}" has no upstream to sync with. Add the shared remote: baton --vault "${root}" sync --init --remote URL ` +
        `(or git -C "${root}" push -u origin ${branch}).`,
      result,
      'noUpstream',
    );
  }
  return { repo: found, branch, upstream };
}

function conflictError(root: string, result: SyncResult): SyncError {
  const list = result.conflicts.slice(0, 10).join(', ') + (result.conflicts.length > 10 ? `, and ${result.conflicts.length - 10} more` : '');
  return new SyncError(
    `Files that are not Baton's conflict with the remote and were left for you: ${list}. Baton's own files are merged and staged; nothing of ` +
      `Baton's is lost and agents can keep writing. Fix those files in ${root}, git -C "${root}" add them, then run baton sync: it finishes the merge and pushes.`,
    result,
    'conflict',
  );
}

function offlineError(root: string, up: Upstream, what: 'fetch from' | 'push to', said: string, result: SyncResult): SyncError {
  return new SyncError(
    `Could not ${what} the remote "${up.remote}" (${up.url || 'no URL'}): ${said}. The vault's changes are committed locally` +
      `${result.committed ? ` (${result.committed} file(s) this time)` : ''} and the next baton sync sends them. ` +
      `Check the network and your access to the remote (git -C "${root}" fetch shows git's whole answer).`,
    result,
    'offline',
  );
}

/** Checkpoints our side added since `base`: the only ones that can follow a checkpoint of ours that has to move. */
async function ourNewCheckpoints(repo: VaultRepo, other: string): Promise<string[]> {
  const base = (await repo.git(['merge-base', 'HEAD', other])).out.trim();
  const args = base ? ['diff', '--name-only', '-z', '--diff-filter=A', base, 'HEAD', '--', SESSIONS_DIR] : ['ls-tree', '-r', '-z', '--name-only', 'HEAD', '--', SESSIONS_DIR];
  const r = await repo.git(args);
  return r.out.split('\0').filter((p) => p && kindOf(p) === 'checkpoint');
}

async function resolveInProgress(repo: VaultRepo, other: string, result: SyncResult): Promise<Resolution> {
  const r = await resolveMerge(repo, await repo.unmerged(), await ourNewCheckpoints(repo, other));
  result.renamed.push(...r.renamed);
  result.conflicts.push(...r.conflicts);
  return r;
}

/** Checkpoints and plans the merge brought that Baton cannot read: reported, kept. */
async function unreadableArrivals(repo: VaultRepo, before: string): Promise<string[]> {
  const r = await repo.git(['diff', '--name-only', '-z', '--diff-filter=AM', before, 'HEAD', '--', SESSIONS_DIR]);
  const bad: string[] = [];
  for (const p of r.out.split('\0').filter(Boolean)) {
    const kind = kindOf(p);
    if (kind !== 'checkpoint' && kind !== 'plan') continue;
    const text = await readCapped(path.join(repo.root, ...p.split('/')));
    const id = path.posix.basename(p).slice(0, -3);
    const scope = scopeOfVaultPath(p) ?? '';
    const unreadable =
      text === null || text.includes('\u0000') || (kind === 'checkpoint' ? isEmptyCheckpoint(parseCheckpoint(text, id, scope)) : !parsePlan(text, id, scope).text.trim());
    if (unreadable) bad.push(p);
  }
  return bad;
}

/** Step 1 (and 3's end): under the gate, commit what is in the working tree. */
async function commitLocal(repo: VaultRepo, result: SyncResult, upstream: Upstream): Promise<void> {
  await ensureVaultGitFiles(repo.root);
  // Before any merge or checkout of this sync: Baton's rules outrank every .gitattributes from then on.
  await ensureInfoAttributes(await repo.infoAttributesFile());
  const merging = await repo.inMerge();
  if (merging) {
    // A merge left by an earlier sync (a person's conflict, or a sync killed half way).
    await resolveInProgress(repo, 'MERGE_HEAD', result);
    if (result.conflicts.length) throw conflictError(repo.root, result);
  }
  const { staged, refused } = await repo.stageAll();
  refuse(
    result,
    refused.map((r) => ({ path: r.path, reason: `${r.reason}: left out of the sync (the file stays here, unshared)` })),
  );
  if (staged.length === 0 && !merging) return;
  await repo.commit(merging ? `baton sync: merge ${upstream.remote} on ${host()}` : `baton sync: ${staged.length} file(s) from ${host()}`);
  result.committed += staged.length;
}

/** Step 3: merge what was fetched; resolve Baton's files; commit. */
async function mergeFetched(repo: VaultRepo, vault: FsVault, upstream: Upstream, result: SyncResult): Promise<void> {
  await vault.withVaultExclusive(async () => {
    // Agents wrote between step 1 and now: their notes go into this merge's commit.
    await commitLocal(repo, result, upstream);
    const before = (await repo.git(['rev-parse', '-q', '--verify', 'HEAD'])).out.trim();
    // What Baton never takes from the remote is taken out before git sees it: merged, it would already be in this working tree.
    const base = before ? (await repo.git(['merge-base', 'HEAD', upstream.tracking])).out.trim() : '';
    const theirs = await repo.withoutRefused(upstream.tracking, base, `baton sync: leave out what is not shared (on ${host()})`);
    refuse(
      result,
      theirs.refused.map((r) => ({ path: r.path, reason: `${r.reason}: not merged (taken out of the remote's next commit)` })),
    );
    const m = await repo.git(['merge', '--no-edit', '--no-verify', '--allow-unrelated-histories', '-m', `baton sync: merge ${upstream.remote} on ${host()}`, theirs.commit], {
      config: await repo.identityConfig(),
    });
    if (m.code !== 0) {
      const unmerged = await repo.unmerged();
      if (!unmerged.length)
        throw new SyncError(`git could not merge the remote's changes into ${repo.root}: ${gitSays(m)}. Nothing was lost; fix that, then sync again.`, result, 'git');
      await resolveInProgress(repo, 'MERGE_HEAD', result);
      if (result.conflicts.length) throw conflictError(repo.root, result);
      await repo.commit(`baton sync: merge ${upstream.remote} on ${host()}`);
    }
    if (before) result.unreadable.push(...(await unreadableArrivals(repo, before)));
  });
}

export async function syncVault(root: string, opts: SyncOptions = {}): Promise<SyncResult> {
  const { repo, upstream } = await vaultRepoOf(root);
  const vault = new FsVault(root);
  // One sync of a vault at a time (the editor's and a terminal's): two fetches
  // at once fight over the remote-tracking ref and one would fail as if offline.
  // Not the gate: writers go on while this one fetches and pushes.
  return vault.withLock('vault:syncing', () => syncOnce(repo, vault, upstream, opts));
}

/** The vault's `.gitattributes` rules that Baton's own rules outrank, for the report. */
async function attributesReport(repo: VaultRepo, result: SyncResult): Promise<void> {
  const tracked = (await repo.git(['ls-files', '-z', '--', SESSIONS_DIR])).out.split('\0').filter((p) => p && kindOf(p) !== 'other');
  const found = await overriddenAttributes(repo.root, tracked);
  refuse(
    result,
    found.map((what) => ({
      path: '.gitattributes',
      reason: `sets ${what}, which would change how Baton merges or stores them; Baton's own rules in the repository's info/attributes outrank it, so it has no effect here (remove it from the shared .gitattributes)`,
    })),
  );
}

async function syncOnce(repo: VaultRepo, vault: FsVault, upstream: Upstream, opts: SyncOptions): Promise<SyncResult> {
  const result = await syncSteps(repo, vault, upstream, opts);
  await attributesReport(repo, result);
  return result;
}

async function syncSteps(repo: VaultRepo, vault: FsVault, upstream: Upstream, opts: SyncOptions): Promise<SyncResult> {
  const root = repo.root;
  const result = empty();
  await vault.withVaultExclusive(() => commitLocal(repo, result, upstream));
  const retries = opts.retries ?? 5;
  for (let attempt = 0; ; attempt++) {
    const f = await repo.git(['fetch', '--quiet', '--no-tags', upstream.remote], { timeoutMs: NETWORK_MS });
    if (f.code !== 0) throw offlineError(root, upstream, 'fetch from', gitSays(f), result);
    const remoteHas = await repo.hasRef(upstream.tracking);
    if (remoteHas) {
      const behind = await repo.count(`HEAD..${upstream.tracking}`);
      if (behind > 0 || !(await repo.hasRef('HEAD'))) {
        await mergeFetched(repo, vault, upstream, result);
        result.pulled += behind;
      }
    }
    const ahead = remoteHas ? await repo.count(`${upstream.tracking}..HEAD`) : (await repo.hasRef('HEAD')) ? await repo.count('HEAD') : 0;
    if (ahead === 0) return result;
    // An explicit destination: whatever push.default says, the vault's branch goes to its upstream.
    const p = await repo.git(['push', '--quiet', '--no-verify', upstream.remote, `HEAD:${upstream.merge}`], { timeoutMs: NETWORK_MS });
    if (p.code === 0) {
      result.pushed += ahead;
      // The tracking ref as the remote now stands, so ahead/behind read right at once.
      await repo.git(['update-ref', upstream.tracking, 'HEAD']);
      return result;
    }
    if (!isRejectedPush(p)) throw offlineError(root, upstream, 'push to', gitSays(p), result);
    if (attempt >= retries) {
      throw new SyncError(
        `The remote "${upstream.remote}" moved on ${attempt + 1} times while this sync merged (others are pushing right now). ` +
          'Everything is committed locally; run baton sync again.',
        result,
        'busy',
      );
    }
  }
}

/** Where the vault stands against its remote, from what the last fetch saw: no network. For a status bar. */
export interface SyncState {
  ahead: number;
  behind: number;
  /** Files changed since the last commit (Baton's included: they go with the next sync). */
  changed: number;
}

export async function syncState(root: string): Promise<SyncState> {
  // Asked after every change of the vault: a vault that is no repository of its own costs no process.
  if (!fs.existsSync(path.join(root, '.git'))) throw new SyncError(`The vault ${root} is not a git repository of its own.`, empty(), 'notRepo');
  const { repo, upstream } = await vaultRepoOf(root);
  const remoteHas = await repo.hasRef(upstream.tracking);
  const headHas = await repo.hasRef('HEAD');
  const ahead = remoteHas ? await repo.count(`${upstream.tracking}..HEAD`) : headHas ? await repo.count('HEAD') : 0;
  const behind = remoteHas && headHas ? await repo.count(`HEAD..${upstream.tracking}`) : 0;
  const status = await repo.git(['status', '--porcelain', '-z', '--untracked-files=all']);
  const changed = status.out.split('\0').filter((r) => r.length > 3).length;
  return { ahead, behind, changed };
}

// Everything that lives as long as one vault folder: the core over it, the one
// open index, the watcher, and the caches the views and editor read from.
// When the `baton.vault` setting changes the whole session is disposed and a
// new one built, so nothing can keep answering from the old vault.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { Baton } from '../core/baton';
import type { Checkpoint, Plan, Touch } from '../core/model';
import { SqlIndex, INDEX_FILE } from '../adapters/index/sqlIndex';
import { parseCheckpoint } from '../adapters/markdown/checkpointFile';
import { systemClock } from '../adapters/openBaton';
import { SharedIndexLease } from '../adapters/sharedIndex';
import { FsVault } from '../adapters/vault/fsVault';
import { PendingNotes } from '../adapters/vault/pendingNotes';
import { readCapped } from '../adapters/vault/atomicFile';
import type { VaultState } from './ids';
import { Disposable } from './lifecycle';
import type { Log } from './log';
import { VaultWatcher } from './vaultWatcher';

/** What changed: the scopes whose files moved, or undefined for "anything may have". */
export interface VaultChange {
  scopes?: ReadonlySet<string>;
}

export class VaultSession extends Disposable {
  readonly baton: Baton;
  readonly vault: FsVault;
  private readonly lease: SharedIndexLease;
  private readonly changeEmitter = this.register(new vscode.EventEmitter<VaultChange>());
  /** Fired (debounced) after the vault changed on disk or through Baton itself. */
  readonly onDidChange = this.changeEmitter.event;

  private readonly histories = new Map<string, Promise<Checkpoint[]>>();
  private readonly plansByScope = new Map<string, Promise<Plan[]>>();
  private readonly touches = new Map<string, Promise<Touch[]>>();
  private readonly checkpointFiles = new Map<string, Promise<Checkpoint | null>>();

  constructor(
    readonly root: string,
    private readonly log: Log,
  ) {
    super();
    this.vault = new FsVault(root);
    this.lease = new SharedIndexLease({
      open: () => SqlIndex.open(this.vault),
      onError: (err) => log.error('Saving the Baton index failed (it is a cache; the next start rescans)', err),
    });
    this.baton = new Baton({
      vault: this.vault,
      clock: systemClock,
      pending: new PendingNotes(path.join(this.vault.dataDir, 'pending')),
      index: this.lease,
    });
    const watcher = this.register(new VaultWatcher(root, log, () => this.lease.changed()));
    if (watcher.watching) this.lease.followChanges();
    this.register(watcher.onDidChange((files) => this.changed(files.map((f) => this.scopeOfFile(f)))));
  }

  /**
   * Where the vault stands, for the welcome views. Reads two directory
   * listings, never a file: it runs on every refresh.
   */
  async probe(): Promise<VaultState> {
    try {
      const st = await fs.promises.stat(this.root);
      if (!st.isDirectory()) return 'unreadable';
      await fs.promises.readdir(this.root);
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'noVault' : 'unreadable';
    }
    try {
      const entries = await fs.promises.readdir(this.vault.sessionsDir, { withFileTypes: true });
      return entries.some((e) => e.isDirectory() && !e.name.startsWith('.')) ? 'ready' : 'empty';
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'empty' : 'unreadable';
    }
  }

  /**
   * Forgets what the caches hold for these scopes (all of them when none are
   * named) and tells the views. Called by the watcher and after Baton's own
   * writes, so the person sees their commit without waiting for the watcher.
   */
  changed(scopes?: readonly (string | undefined)[]): void {
    if (this.isDisposed) return;
    this.lease.changed();
    const known = scopes?.filter((s): s is string => s !== undefined);
    if (!known || known.length !== scopes?.length) {
      this.histories.clear();
      this.plansByScope.clear();
      this.checkpointFiles.clear();
      this.touches.clear();
      this.changeEmitter.fire({});
      return;
    }
    for (const scope of known) {
      this.histories.delete(scope);
      this.plansByScope.delete(scope);
      for (const slug of this.checkpointFiles.keys()) if (slug.startsWith(`sessions/${scope}/`)) this.checkpointFiles.delete(slug);
    }
    // Which files a checkpoint touches is a question across every scope.
    this.touches.clear();
    this.changeEmitter.fire({ scopes: new Set(known) });
  }

  history(scope: string): Promise<Checkpoint[]> {
    return cached(this.histories, scope, () => this.baton.history(scope));
  }

  plans(scope: string): Promise<Plan[]> {
    return cached(this.plansByScope, scope, () => this.baton.plans(scope));
  }

  /** Checkpoints that touched `file` (workspace-relative or absolute), newest first, from the index. */
  why(file: string): Promise<Touch[]> {
    return cached(this.touches, file, () => this.baton.why(file, 200));
  }

  /** One checkpoint read from its file, or null when it cannot be read or lies outside the vault. */
  checkpoint(slug: string): Promise<Checkpoint | null> {
    return cached(this.checkpointFiles, slug, async () => {
      const file = this.fileOf(slug);
      const text = file ? await readCapped(file) : null;
      if (text === null) return null;
      const rel = slug.split('/');
      return parseCheckpoint(text, rel[rel.length - 1], rel.slice(1, -1).join('/'));
    });
  }

  /** The absolute file of a vault-relative slug, or undefined when it would leave the vault's sessions. */
  fileOf(slug: string): string | undefined {
    try {
      return this.vault.pathOf(slug);
    } catch {
      return undefined;
    }
  }

  /** Deletes the saved index and rebuilds it from the markdown files (nothing is lost: it is a cache). */
  async rebuildIndex(): Promise<{ checkpoints: number; restored: number; rescued: number }> {
    await this.lease.reset(() => fs.promises.rm(path.join(this.vault.dataDir, INDEX_FILE), { force: true }));
    const result = await this.baton.reindex();
    await this.lease.flush();
    this.changed();
    return result;
  }

  /** Is this absolute path inside the vault (where lenses and hovers would only echo the vault itself)? */
  contains(file: string): boolean {
    const rel = path.relative(this.root, file);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  }

  override dispose(): void {
    super.dispose();
    this.lease.dispose().catch((err) => this.log.error('Closing the Baton index failed', err));
  }

  /** Saves the index now; deactivate awaits this so the next start has less to rescan. */
  flush(): Promise<void> {
    return this.lease.dispose();
  }

  /**
   * The scope a vault file belongs to: `sessions/<project>[/<worktree>]/[plans/]<file>`.
   * Undefined for anything else (then every cache is dropped, which is safe).
   */
  private scopeOfFile(file: string): string | undefined {
    const rel = path.relative(this.vault.sessionsDir, file).split(path.sep);
    if (rel.length < 2 || rel[0] === '..' || rel[0] === '') return undefined;
    const dirs = rel.slice(0, -1);
    if (dirs[dirs.length - 1] === 'plans') dirs.pop();
    return dirs.length >= 1 && dirs.length <= 2 ? dirs.join('/') : undefined;
  }
}

/** A promise per key, dropped again when it fails so the next ask retries. */
function cached<T>(map: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let p = map.get(key);
  if (!p) {
    p = load();
    map.set(key, p);
    p.catch(() => {
      if (map.get(key) === p) map.delete(key);
    });
  }
  return p;
}

// Everything that lives as long as one vault folder: the core over it, the one
// open index, the watcher, and the caches the views and editor read from.
// When the `baton.vault` setting changes the whole session is disposed and a
// new one built, so nothing can keep answering from the old vault.
import * as vscode from 'vscode';
import type { Baton } from '../core/baton';
import type { IndexResult } from '../core/requests';
import type { Checkpoint, Plan, Touch } from '../core/model';
import { KeptVault } from '../app/keptVault';
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
  private readonly kept: KeptVault;
  private readonly writeEmitter = this.register(new vscode.EventEmitter<VaultChange>());
  /**
   * Fired once the vault was written: at once for Baton's own writes (the core
   * announces each), debounced for the watcher's (agents' CLIs, other
   * windows, a person's editor). The caches here are dropped first, so a
   * listener that asks again reads the new files. Nobody has to call for it.
   */
  readonly onDidWrite = this.writeEmitter.event;

  private readonly histories = new Map<string, Promise<Checkpoint[]>>();
  private readonly plansByScope = new Map<string, Promise<Plan[]>>();
  private readonly touches = new Map<string, Promise<Touch[]>>();
  private readonly checkpointFiles = new Map<string, Promise<Checkpoint | null>>();
  private readonly lastSeen = new Map<string, Promise<{ agent: string; ts: number }[]>>();

  constructor(
    readonly root: string,
    private readonly log: Log,
  ) {
    super();
    this.kept = new KeptVault(root, {
      onWrite: (scope) => this.wrote([scope]),
      onError: (err) => log.error('Saving the Baton index failed (it is a cache; the next start rescans)', err),
    });
    this.baton = this.kept.baton;
    const watcher = this.register(new VaultWatcher(root, log, () => this.kept.changed()));
    if (watcher.watching) this.kept.followChanges();
    this.register(watcher.onDidChange((files) => this.wrote(files.map((f) => this.kept.scopeOfFile(f)))));
  }

  /** Where the vault stands, for the welcome views. */
  probe(): Promise<VaultState> {
    return this.kept.probe();
  }

  /**
   * The first read every view waits behind (the index opened and brought up
   * to date with the files): until it answers, the views say loading.
   */
  async load(): Promise<void> {
    await this.baton.continuity();
  }

  /** Refresh: forgets every cache and tells everyone to ask again (the watcher makes this rarely needed). */
  forget(): void {
    this.wrote();
  }

  /**
   * Forgets what the caches hold for these scopes (all of them when any is
   * unknown or none are named) and fires `onDidWrite`.
   */
  private wrote(scopes?: readonly (string | undefined)[]): void {
    if (this.isDisposed) return;
    this.kept.changed();
    this.lastSeen.clear();
    const known = scopes?.filter((s): s is string => s !== undefined);
    if (!known || known.length !== scopes?.length) {
      this.histories.clear();
      this.plansByScope.clear();
      this.checkpointFiles.clear();
      this.touches.clear();
      this.writeEmitter.fire({});
      return;
    }
    for (const scope of known) {
      this.histories.delete(scope);
      this.plansByScope.delete(scope);
      for (const slug of this.checkpointFiles.keys()) {
        const of = this.kept.scopeOfSlug(slug);
        if (of === scope || of?.startsWith(`${scope}/`)) this.checkpointFiles.delete(slug);
      }
    }
    // Which files a checkpoint touches is a question across every scope.
    this.touches.clear();
    this.writeEmitter.fire({ scopes: new Set(known) });
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

  /** Per agent name, when it last wrote to the vault (Unix seconds), for the Agents view. */
  lastByAgent(): Promise<{ agent: string; ts: number }[]> {
    return cached(this.lastSeen, '', () => this.kept.lastByAgent());
  }

  /** One checkpoint read from its file, or null when it cannot be read or lies outside the vault. */
  checkpoint(slug: string): Promise<Checkpoint | null> {
    return cached(this.checkpointFiles, slug, () => this.kept.checkpoint(slug));
  }

  /** The absolute file of a vault-relative slug, or undefined when it would leave the vault's sessions. */
  fileOf(slug: string): string | undefined {
    return this.kept.fileOf(slug);
  }

  /** The absolute file of `scope`'s working notes, or undefined when it would leave the vault. */
  notesFileOf(scope: string): string | undefined {
    return this.kept.notesFileOf(scope);
  }

  /** Deletes the saved index and rebuilds it from the markdown files (nothing is lost: it is a cache). */
  async rebuildIndex(): Promise<IndexResult> {
    const result = await this.kept.rebuildIndex();
    this.forget();
    return result;
  }

  /** Is this absolute path inside the vault (where lenses and hovers would only echo the vault itself)? */
  contains(file: string): boolean {
    return this.kept.contains(file);
  }

  override dispose(): void {
    super.dispose();
    this.kept.close().catch((err) => this.log.error('Closing the Baton index failed', err));
  }

  /** Saves the index now; deactivate awaits this so the next start has less to rescan. */
  flush(): Promise<void> {
    return this.kept.close();
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

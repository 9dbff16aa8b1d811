// A vault held open by a long-lived process (the extension): the core over one
// index kept open and lent in turn, and the questions an editor asks of the
// vault's files (is there a vault, which scope a changed file is of, one
// checkpoint by its slug). Kept free of `vscode`, so the editor's session only
// adds caches, a watcher and events on top.
import type { Baton } from '../core/baton';
import type { IndexResult } from '../core/requests';
import type { Checkpoint } from '../core/model';
import { SqlIndex } from '../adapters/index/sqlIndex';
import { parseCheckpoint } from '../adapters/markdown/checkpointFile';
import type { SharedIndexLease } from '../adapters/sharedIndex';
import { readCheckpointText } from '../adapters/vault/checkpointText';
import { FsVault } from '../adapters/vault/fsVault';
import { insideVault, notesSlug, probeVault, scopeOfVaultFile, scopeOfVaultPath, type VaultProbe } from '../adapters/vaultLayout';
import { keptIndex, openBaton } from './openBaton';

export interface KeptVaultOptions {
  /** Told the scope after each of the core's own writes. */
  onWrite(scope: string): void;
  /** Told about failed background saves of the index (a cache: logged, not fatal). */
  onError(err: unknown): void;
}

export class KeptVault {
  readonly baton: Baton;
  private readonly vault: FsVault;
  private readonly lease: SharedIndexLease;

  constructor(
    readonly root: string,
    opts: KeptVaultOptions,
  ) {
    this.vault = new FsVault(root);
    this.lease = keptIndex(root, { onError: opts.onError });
    this.baton = openBaton(root, { index: this.lease, onWrite: opts.onWrite });
  }

  /** A watcher now reports every change: a query with nothing reported since may skip its refresh. */
  followChanges(): void {
    this.lease.followChanges();
  }

  /** The vault changed on disk (or may have): the next query refreshes the index. */
  changed(): void {
    this.lease.changed();
  }

  probe(): Promise<VaultProbe> {
    return probeVault(this.root, this.vault.sessionsDir);
  }

  /** The scope of a changed vault file, undefined when it is no scope's. */
  scopeOfFile(file: string): string | undefined {
    return scopeOfVaultFile(this.vault.sessionsDir, file);
  }

  contains(file: string): boolean {
    return insideVault(this.root, file);
  }

  /** The absolute file of a vault-relative slug, or undefined when it would leave the vault's sessions. */
  fileOf(slug: string): string | undefined {
    try {
      return this.vault.pathOf(slug);
    } catch {
      return undefined;
    }
  }

  /** The absolute file of `scope`'s working notes, or undefined when the scope would leave the vault. */
  notesFileOf(scope: string): string | undefined {
    return this.fileOf(notesSlug(scope));
  }

  /** The scope a vault slug belongs to (a checkpoint's, a plan's), undefined for a slug outside the sessions. */
  scopeOfSlug(slug: string): string | undefined {
    return scopeOfVaultPath(slug);
  }

  /** One checkpoint read from its file (by its slug), or null when it cannot be read or lies outside the vault. */
  async checkpoint(slug: string): Promise<Checkpoint | null> {
    const file = this.fileOf(slug);
    const scope = scopeOfVaultPath(slug);
    const text = file && scope ? await readCheckpointText(file) : null;
    if (text === null || !scope) return null;
    return parseCheckpoint(text, slug.slice(slug.lastIndexOf('/') + 1), scope);
  }

  /** Per agent name, when it last wrote a note or checkpoint: the same query `baton doctor` asks, so its "last seen" agrees. */
  lastByAgent(): Promise<{ agent: string; ts: number }[]> {
    return this.baton.withIndex((index) => index.lastByAgent());
  }

  /** Deletes the saved index and rebuilds it from the markdown files (nothing is lost: it is a cache). */
  async rebuildIndex(): Promise<IndexResult> {
    await this.lease.reset(() => SqlIndex.removeSaved(this.vault));
    const result = await this.baton.reindex();
    await this.lease.flush();
    return result;
  }

  /** Saves and closes the index for good. */
  close(): Promise<void> {
    return this.lease.dispose();
  }
}

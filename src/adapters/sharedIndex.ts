// The extension's index lease: one SqlIndex kept open for the life of the
// extension, lent to one caller at a time, and saved when idle.
//
// A CLI process opens, refreshes, saves and closes the index per command; doing
// that on every tree refresh, hover and lens would reload the whole database
// (and rewrite it to disk) dozens of times a minute. Keeping it open makes each
// query an incremental refresh (a stat per scope folder) plus a SQL lookup.
//
// sql.js is not re-entrant across awaits: `refresh()` holds a transaction open
// while it reads files, and `export()` (save) in the middle of that transaction
// would corrupt it. So every use, including the idle save, takes its turn in
// one promise queue.
//
// A refresh still stats every scope folder (hundreds in a year-old vault), which
// was most of a warm hover's cost. Once `followChanges()` says a watcher reports
// every change, a query with nothing reported since the last refresh skips it;
// a full refresh still runs at least every `staleAfterMs`, for the events a
// watcher can drop (a deleted folder, an overflowing event queue).
import type { IndexLease, IndexPort } from '../core/ports';

export interface SharedIndexOptions {
  /** Opens the index (SqlIndex.open in the extension, a fake in tests). */
  open: () => Promise<IndexPort>;
  /** Idle time after the last release before the index is saved. */
  saveAfterMs?: number;
  /** Told about failed background saves: a cache failing to save is logged, not fatal. */
  onError?: (err: unknown) => void;
  /** With a watcher reporting changes, the longest a query may go without a real refresh. */
  staleAfterMs?: number;
  /** Milliseconds since some epoch; a test moves it by hand. */
  now?: () => number;
}

export class SharedIndexLease implements IndexLease {
  private index: IndexPort | undefined;
  private opening: Promise<IndexPort> | undefined;
  /** Resolved when the current holder releases; the tail of the queue. */
  private tail: Promise<void> = Promise.resolve();
  private releaseTurn: (() => void) | undefined;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  private readonly saveAfterMs: number;
  private following = false;
  /** Something may have changed since the last refresh began. */
  private dirty = true;
  private lastRefresh = Number.NEGATIVE_INFINITY;

  constructor(private readonly opts: SharedIndexOptions) {
    this.saveAfterMs = opts.saveAfterMs ?? 5000;
  }

  /** From now on every change to the vault is reported through `changed()` (a watcher is running). */
  followChanges(): void {
    this.following = true;
  }

  /** The vault changed on disk (a watcher event) or may have: the next query refreshes. */
  changed(): void {
    this.dirty = true;
  }

  /** The core wrote to the vault itself. */
  wrote(): void {
    this.dirty = true;
  }

  /** Called by the holder of the index before it queries. */
  async refresh(index: IndexPort): Promise<void> {
    const now = this.opts.now?.() ?? Date.now();
    if (this.following && !this.dirty && now - this.lastRefresh < (this.opts.staleAfterMs ?? 30_000)) return;
    // Cleared before the refresh reads anything, so a change reported during it is not lost.
    this.dirty = false;
    try {
      await index.refresh();
      this.lastRefresh = now;
    } catch (err) {
      this.dirty = true;
      throw err;
    }
  }

  /** Waits for the previous holder, then lends the one open index. */
  async acquire(): Promise<IndexPort> {
    await this.takeTurn();
    try {
      if (this.disposed) throw new Error('The Baton index was closed (the vault changed or the extension stopped).');
      return await this.openOnce();
    } catch (err) {
      // The caller never gets an index to release, so the turn is given back here.
      this.giveTurn();
      throw err;
    }
  }

  async release(_index: IndexPort): Promise<void> {
    this.giveTurn();
    this.scheduleSave();
  }

  /**
   * Drops the open index and deletes nothing: the next acquire reopens from the
   * saved file. Used by Rebuild Index after it removed that file, so the
   * rebuild really starts from the vault.
   */
  async reset(beforeReopen?: () => Promise<void>): Promise<void> {
    await this.takeTurn();
    try {
      this.cancelSave();
      this.index?.close();
      this.index = undefined;
      this.opening = undefined;
      this.dirty = true;
      await beforeReopen?.();
    } finally {
      this.giveTurn();
    }
  }

  /** Saves now if anything changed (the index skips a clean save itself). */
  async flush(): Promise<void> {
    this.cancelSave();
    await this.takeTurn();
    try {
      await this.index?.save();
    } finally {
      this.giveTurn();
    }
  }

  /** Saves and closes for good; waits for the current holder first. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.cancelSave();
    await this.takeTurn();
    this.disposed = true;
    try {
      await this.index?.save();
    } catch (err) {
      this.opts.onError?.(err);
    } finally {
      this.index?.close();
      this.index = undefined;
      this.giveTurn();
    }
  }

  private async openOnce(): Promise<IndexPort> {
    if (this.index) return this.index;
    this.opening ??= this.opts.open();
    try {
      this.index = await this.opening;
      // A freshly opened index knows only what was saved.
      this.dirty = true;
      return this.index;
    } finally {
      // A failed open is retried by the next caller rather than cached.
      this.opening = undefined;
    }
  }

  private async takeTurn(): Promise<void> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.releaseTurn = release;
  }

  private giveTurn(): void {
    const release = this.releaseTurn;
    this.releaseTurn = undefined;
    release?.();
  }

  private scheduleSave(): void {
    if (this.disposed) return;
    this.cancelSave();
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.flush().catch((err) => this.opts.onError?.(err));
    }, this.saveAfterMs);
    // An idle save must never keep a Node process (a test, the CLI) alive.
    this.saveTimer.unref?.();
  }

  private cancelSave(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
  }
}

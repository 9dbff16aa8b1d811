// The writing half of the index: a refresh walks the vault's scope folders,
// reads what changed (a cold build reads everything, with worker threads: see
// parallelRead.ts) and writes it in one transaction. It keeps in memory what
// every refresh consults: the scopes with their folder and notes-file stats,
// the paths already stored, and the next free ids.
//
// Speed (see BENCHMARKS.md): files are read with synchronous calls in slices of
// a few milliseconds with a yield to the event loop between slices, so an
// extension host stays responsive during a cold build. Frontmatter in Baton's
// own shape is read by hand (indexRecord.ts); a scope folder whose mtime has
// not moved costs one stat, and its notes file is not even looked for when it
// had none (creating one would have moved the folder's mtime). Plans and notes
// have their own tables and files (planRows.ts, noteRows.ts).
import * as path from 'path';
import * as fs from 'fs';
import type { RefreshStats } from '../../core/ports';
import { isCheckpointFileName } from '../markdown/checkpointFile';
import type { FsVault } from '../vault/fsVault';
import { NOTES_FILE, PLANS_DIR } from '../vault/fsVault';
import { indexRecord } from './indexRecord';
import { CheckpointRows, type StoredCheckpoint } from './checkpointRows';
import type { WorkerOptions, WorkersRead } from './parallelRead';
import { readDeferred, type ColdSink, type Deferred } from './coldBuild';
import { BULK_INDEXES, DROP_BULK_INDEXES } from './schema';
import type { Statements } from './statements';
import { PathTouches } from './pathTouches';
import { readCheckpointTextSync } from '../vault/checkpointText';
import { LISTING_COST, RACY_MS, statOf, subdirs, type Stat } from './vaultFiles';
import { openSearch, type SearchOptions, type SearchPort } from '../search';
import { PlanRows } from './planRows';
import { NoteRows } from './noteRows';
import { listScopes, withRoom, type Listed } from './roomyBuild';
import { configure } from './sqlJs';

/** What a stat counts for, in bytes of re-read vault, when deciding to save (a listing: LISTING_COST). */
const STAT_COST = 256;
/**
 * SQLite's page cache during a first build, in KiB: as much as the database
 * needs (it grows only as pages are used), up to 1 GiB of sql.js's WASM
 * memory (past that, a vault of some 1.5 million checkpoints, pages are
 * written out and read back as before).
 */
const BULK_CACHE_KIB = -1024 * 1024;
/** Longest stretch of synchronous work before the event loop gets a turn. */
const SLICE_MS = 15;

/** What the index's owner chooses (app/openBaton.ts passes it down): full-text search's options, and how a cold build uses workers. */
export interface IndexOptions {
  search?: SearchOptions;
  workers?: WorkerOptions;
}

interface ScopeRow {
  id: number;
  name: string;
  /** The folder's mtime at the last scan when it was old enough to trust, else -1. */
  mtime: number;
  /** The notes file as last mirrored; null when there was none. */
  notes: Stat | null;
  /** The `plans/` folder's mtime when trusted (-1: rescan it); null when the scope had none. */
  plans: number | null;
  /** The folder, and its notes file (absolute). */
  dir: string;
  notesFile: string;
}

/** What a look at one scope folder found. */
interface ScopeScan {
  /** Its mtime had not moved: nothing was read. */
  unchanged: boolean;
  /** Worktree sub-folders (of a project scope that was read). */
  worktrees: string[];
  /** Whether the listing held a `plans/` folder (when read). */
  hasPlans: boolean;
}

export class IndexWriter {
  /**
   * Bytes of vault a process loading the saved copy would read again (files
   * parsed, notes mirrored, plus a notional amount per stat and listing).
   */
  unsavedWork = 0;
  private scopes = new Map<string, ScopeRow>();
  /** Scope names by id, for the queries. */
  scopeNames = new Map<number, string>();
  private nextScope = 1;
  private sliceStart = 0;
  /** A first build's listings of the scope folders, read once before the walk (makeRoom). */
  private listings: Map<string, Listed> | null = null;
  private readonly paths: PathTouches;
  readonly text: SearchPort;
  private readonly plans: PlanRows;
  private readonly notes: NoteRows;
  private readonly checkpoints: CheckpointRows;

  constructor(
    private readonly vault: FsVault,
    private readonly sql: Statements,
    private readonly opts: IndexOptions = {},
  ) {
    this.paths = new PathTouches(sql);
    this.text = openSearch(sql, opts.search);
    this.plans = new PlanRows(sql, this.text);
    this.notes = new NoteRows(sql, this.text);
    this.checkpoints = new CheckpointRows(sql, this.text, this.paths);
  }

  /** The in-memory mirror of the small tables, and the next free ids (again after a rollback). */
  loadState(): void {
    this.scopes = new Map();
    this.scopeNames = new Map();
    for (const [id, name, mtime, nm, ns, pm] of this.sql.rows<[number, string, number, number | null, number | null, number | null]>(
      'SELECT id, name, mtime, notes_mtime, notes_size, plans_mtime FROM scopes',
    )) {
      this.scopes.set(name, { id, name, mtime, notes: nm === null || ns === null ? null : { mtime: nm, size: ns }, plans: pm, ...this.pathsOf(name) });
      this.scopeNames.set(id, name);
    }
    this.text.load();
    // A row's postings may outlive it (search/textIndex.ts): ids of every kind start past every id the lists hold.
    const past = this.text.lastRowId();
    const max = (table: string): number => Number(this.sql.rows<[number | null]>(`SELECT MAX(id) FROM ${table}`)[0]?.[0] ?? 0);
    this.nextScope = max('scopes') + 1;
    this.checkpoints.reset(Math.max(max('checkpoints'), past) + 1);
    this.plans.reset(Math.max(max('plans'), past) + 1);
    this.notes.reset(Math.max(Number(this.sql.rows<[number | null]>('SELECT MAX(rowid) FROM notes')[0]?.[0] ?? 0), past) + 1);
    this.paths.reset(max('paths') + 1);
  }

  /** Brings the database up to date with the vault, in one transaction; `changed` when anything was written. */
  async refresh(): Promise<{ stats: RefreshStats; changed: boolean }> {
    const stats: RefreshStats = { checkpointsParsed: 0, checkpointsReadInWorkers: 0, checkpointsRemoved: 0, scopesScanned: 0, notesScopesRead: 0 };
    const knownCount = this.scopes.size;
    // Worktree scopes per project, as last seen: what an unchanged project folder still holds.
    const worktrees = new Map<string, string[]>();
    for (const name of this.scopes.keys()) {
      const slash = name.indexOf('/');
      if (slash < 0) continue;
      const project = name.slice(0, slash);
      const list = worktrees.get(project) ?? [];
      list.push(name.slice(slash + 1));
      worktrees.set(project, list);
    }
    const seen = new Map<string, boolean>();
    let plansChanged = false;
    this.sliceStart = performance.now();
    // A first build loads everything: the secondary indexes are built once at the end.
    const bulk = this.sql.rows('SELECT 1 FROM checkpoints LIMIT 1').length === 0 && this.paths.empty;
    if (bulk) await this.makeRoom();
    // A first build's pages all stay in the cache until the commit: past the
    // usual cache they were written out, read back by the secondary indexes'
    // build, and written again (BENCHMARKS.md). The usual size is put back after.
    const cache = bulk ? this.sql.rows<[number]>('PRAGMA cache_size')[0]?.[0] : undefined;
    if (cache !== undefined) this.sql.run(`PRAGMA cache_size = ${BULK_CACHE_KIB}`);
    this.sql.run('BEGIN');
    let terms: WorkersRead | null = null;
    try {
      if (bulk) this.sql.db.exec(DROP_BULK_INDEXES);
      const deferred: Deferred[] | null = bulk ? [] : null;
      for (const project of subdirs(this.vault.sessionsDir)) {
        const scan = await this.refreshScope(project, stats, deferred);
        seen.set(project, scan.unchanged);
        if (this.refreshPlans(project, scan)) plansChanged = true;
        for (const wt of scan.unchanged ? (worktrees.get(project) ?? []) : scan.worktrees) {
          const sub = await this.refreshScope(`${project}/${wt}`, stats, deferred);
          seen.set(`${project}/${wt}`, sub.unchanged);
          if (this.refreshPlans(`${project}/${wt}`, sub)) plansChanged = true;
        }
      }
      if (deferred) {
        terms = await readDeferred(deferred, stats, this.coldSink(), this.opts.workers);
        this.sliceStart = performance.now();
      }
      for (const scope of [...this.scopes.keys()]) if (!seen.has(scope)) this.forgetScope(scope, stats);
      for (const [scope, unchanged] of seen) {
        const row = this.scopes.get(scope);
        const notes = row ? this.notes.refresh(row, unchanged) : { changed: false, read: 0 };
        this.unsavedWork += notes.read;
        if (notes.changed) stats.notesScopesRead += 1;
        await this.breathe();
      }
      this.paths.write();
      if (bulk) this.sql.db.exec(BULK_INDEXES);
      // The workers cut the last batches' terms meanwhile (parallelRead.ts).
      const last = terms;
      terms = null;
      await last?.finish();
      this.text.flush();
      this.sql.run('COMMIT');
    } catch (err) {
      await terms?.stop();
      this.sql.run('ROLLBACK');
      this.loadState();
      throw err;
    } finally {
      if (cache !== undefined) this.sql.run(`PRAGMA cache_size = ${cache}`);
      this.listings = null;
    }
    const changed = plansChanged || stats.checkpointsParsed > 0 || stats.checkpointsRemoved > 0 || stats.notesScopesRead > 0 || seen.size !== knownCount;
    return { stats, changed };
  }

  /** A first build: lists every scope folder once (the walk reads these listings) and opens the database again with room for what it holds (roomyBuild.ts). */
  private async makeRoom(): Promise<void> {
    const { listings, checkpoints } = listScopes(this.vault);
    const db = this.sql.db;
    this.sql.free();
    const roomy = await withRoom(db, checkpoints);
    this.listings = listings;
    if (roomy === db) return;
    configure(roomy);
    this.sql.reopen(roomy);
  }

  /** Lets the event loop run when the current slice of synchronous work is long enough. */
  private async breathe(): Promise<void> {
    if (performance.now() - this.sliceStart < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStart = performance.now();
  }

  /**
   * Rescans one scope folder when its mtime moved. `unchanged` when it did not;
   * otherwise the worktree sub-folders found (for a project scope).
   */
  private async refreshScope(scope: string, stats: RefreshStats, deferred: Deferred[] | null): Promise<ScopeScan> {
    const known = this.scopes.get(scope);
    const dir = known?.dir ?? this.vault.scopeDir(scope);
    const listed = this.listings?.get(dir);
    const st = listed ? listed.stat : statOf(dir);
    if (st && known && known.mtime === st.mtime) return { unchanged: true, worktrees: [], hasPlans: false };
    stats.scopesScanned += 1;
    this.unsavedWork += LISTING_COST;
    const isProject = !scope.includes('/');
    let entries: fs.Dirent[] = [];
    if (listed) entries = listed.entries;
    else {
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        // an unreadable folder holds no checkpoints we can see
      }
    }
    const row = known ?? this.addScope(scope);
    const stored = new Map<string, StoredCheckpoint>();
    // A scope new to the index has nothing stored.
    if (known) {
      for (const [id, name, mtime, size, ts, paths] of this.sql.rows<[number, string, number, number, number, Uint8Array]>(
        'SELECT id, name, mtime, size, ts, paths FROM checkpoints WHERE scope = ?',
        [row.id],
      )) {
        stored.set(`${name}.md`, { id, mtime, size, ts, paths });
      }
    }
    const names = new Set<string>();
    for (const e of entries) if (e.isFile() && isCheckpointFileName(e.name)) names.add(e.name);
    for (const [name, cp] of stored) {
      if (!names.has(name)) {
        this.checkpoints.remove(cp);
        stats.checkpointsRemoved += 1;
      }
    }
    for (const name of names) {
      const file = dir + path.sep + name;
      const prev = stored.get(name);
      if (deferred && !prev) {
        // A bulk load reads new files all together, after the walk (parallelRead.ts).
        deferred.push({ scope: row.id, name, file });
        continue;
      }
      if (prev) {
        const fst = statOf(file);
        this.unsavedWork += STAT_COST;
        if (!fst) continue;
        if (prev.mtime === fst.mtime && prev.size === fst.size) continue;
      }
      const read = readCheckpointTextSync(file);
      if (read === null) continue;
      this.unsavedWork += read.stat.size;
      if (prev) this.checkpoints.remove(prev);
      this.putCheckpoint(row.id, name, read.stat, read.text);
      stats.checkpointsParsed += 1;
      await this.breathe();
    }
    row.mtime = st && Date.now() - st.mtime > RACY_MS ? st.mtime : -1;
    this.sql.run('UPDATE scopes SET mtime = ? WHERE id = ?', [row.mtime, row.id]);
    await this.breathe();
    return {
      unchanged: false,
      worktrees: isProject ? entries.filter((e) => e.isDirectory() && e.name !== PLANS_DIR && !e.name.startsWith('.')).map((e) => e.name) : [],
      hasPlans: entries.some((e) => e.isDirectory() && e.name === PLANS_DIR),
    };
  }

  /** A scope's plans, when its `plans/` folder may have changed (planRows.ts); true when any was written or removed. */
  private refreshPlans(scope: string, scan: ScopeScan): boolean {
    const row = this.scopes.get(scope);
    if (!row) return false;
    const { changed, work } = this.plans.refresh(row, scan.unchanged ? null : scan.hasPlans);
    this.unsavedWork += work;
    return changed;
  }

  private pathsOf(scope: string): { dir: string; notesFile: string } {
    const dir = this.vault.scopeDir(scope);
    return { dir, notesFile: path.join(dir, NOTES_FILE) };
  }

  private addScope(name: string): ScopeRow {
    const row: ScopeRow = { id: this.nextScope++, name, mtime: -1, notes: null, plans: null, ...this.pathsOf(name) };
    this.sql.run('INSERT INTO scopes(id, name, mtime) VALUES (?, ?, -1)', [row.id, name]);
    this.scopes.set(name, row);
    this.scopeNames.set(row.id, name);
    return row;
  }

  private putCheckpoint(scope: number, fileName: string, st: Stat, text: string): void {
    this.checkpoints.putRecord(scope, fileName, st, indexRecord(text, fileName.slice(0, -3), this.text.on));
  }

  /** How a cold build's deferred read writes what it reads (coldBuild.ts). */
  private coldSink(): ColdSink {
    return {
      putWhole: (d, st, text) => {
        this.unsavedWork += st.size;
        this.putCheckpoint(d.scope, d.name, st, text);
      },
      putRead: (d, st, rec, pathIds) => {
        this.unsavedWork += st.size;
        return this.checkpoints.put(d.scope, d.name, st, rec, pathIds);
      },
      paths: this.paths,
      text: this.text,
      breathe: () => this.breathe(),
    };
  }

  private forgetScope(scope: string, stats: RefreshStats): void {
    const row = this.scopes.get(scope);
    if (!row) return;
    const rows = this.sql.rows<[number, number, number, number, Uint8Array]>('SELECT id, mtime, size, ts, paths FROM checkpoints WHERE scope = ?', [row.id]);
    for (const [id, mtime, size, ts, paths] of rows) this.checkpoints.remove({ id, mtime, size, ts, paths });
    stats.checkpointsRemoved += rows.length;
    this.notes.forget(row);
    this.plans.forget(row);
    this.sql.run('DELETE FROM scopes WHERE id = ?', [row.id]);
    this.scopes.delete(scope);
    this.scopeNames.delete(row.id);
  }
}

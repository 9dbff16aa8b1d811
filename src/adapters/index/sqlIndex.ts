// The index: a sql.js database under `<vault>/.baton/`, a cache of the vault.
// A process loads the saved copy, brings it up to date from what changed on
// disk (folders whose mtime moved, notes files whose size or mtime moved), and
// saves it atomically under a lock. It never reads the whole vault unless the
// whole vault is new to it.
//
// Speed (see BENCHMARKS.md): files are read with synchronous calls, which cost
// a quarter of the promise-based ones here, in slices of a few milliseconds with
// a yield to the event loop between slices, so an extension host stays
// responsive during a cold build. Frontmatter in Baton's own shape is read by
// hand (indexRecord.ts); statements are prepared once; a refresh is one
// transaction; a scope folder whose mtime has not moved costs one stat, and its
// notes file is not even looked for when it had none (creating one would have
// moved the folder's mtime).
import * as fs from 'fs';
import * as path from 'path';
import type { Database, SqlJsStatic, SqlValue, Statement } from 'sql.js';
import type { Touch } from '../../core/model';
import type { DeadEnd, IndexPort, RefreshStats, ScopeNote, ScopeSummary } from '../../core/ports';
import { normalizeTouchPath } from '../../core/touching';
import { isCheckpointFileName, parseNotes } from '../markdown/checkpointFile';
import { writeAtomic } from '../vault/atomicFile';
import type { FsVault } from '../vault/fsVault';
import { NOTES_FILE, PLANS_DIR } from '../vault/fsVault';
import type { IndexRecord } from './fastReader';
import { indexRecord } from './indexRecord';
import { readInWorker, worthAWorker, type ReadResult } from './parallelRead';
import { flatPairs, HEAD_ENTRIES, splitPairs, touchAt, touchCount } from './touches';
import { loadSqlJs } from './sqlJs';
import { BULK_INDEXES, DROP_BULK_INDEXES, SCHEMA, SCHEMA_VERSION } from './schema';

export const INDEX_FILE = 'index.sqlite';
/** A folder modified this recently may change again within the same mtime tick: rescan it next time. */
const RACY_MS = 2000;
/** The most of a checkpoint file that is read (a 50 MB file dropped in the vault must not stall a view). */
const CHECKPOINT_CAP = 1 << 20;
const NOTES_CAP = 256 << 20;
/** What a stat and a folder listing count for, in bytes of re-read vault, when deciding to save. */
const STAT_COST = 256;
const LISTING_COST = 4096;
/** Save once the work a saved copy would spare, times this, reaches the database's size... */
const SAVE_WORK_FACTOR = 4;
/** ...or once the saved copy is this old: small changes are not re-read by every process forever. */
const SAVE_AT_LEAST_EVERY_MS = 60_000;
/** SQLite's page cache, in KiB (negative: a size, not a page count). */
const CACHE_KIB = -65536;
/** Longest stretch of synchronous work before the event loop gets a turn. */
const SLICE_MS = Number(process.env.SLICE_MS ?? 15);

interface Stat {
  mtime: number;
  size: number;
}

interface ScopeRow {
  id: number;
  name: string;
  /** The folder's mtime at the last scan when it was old enough to trust, else -1. */
  mtime: number;
  /** The notes file as last mirrored; null when there was none. */
  notes: Stat | null;
  /** The folder, and its notes file (absolute). */
  dir: string;
  notesFile: string;
}

/** One path's touches added and removed in a refresh: added as flat (ts, checkpoint) pairs. */
interface TouchChange {
  add: number[];
  remove: Set<number> | null;
}

/** A file a bulk load reads after the walk. */
interface Deferred {
  scope: ScopeRow;
  /** The file name (with .md). */
  name: string;
  file: string;
}

interface StoredCheckpoint {
  id: number;
  mtime: number;
  size: number;
  ts: number;
  /** Path ids, packed (see packIds). */
  paths: Uint8Array;
}

export class SqlIndex implements IndexPort {
  private dirty = false;
  /** Built here from nothing (no saved copy, or one of another schema): always worth saving. */
  private fresh = false;
  /**
   * Bytes of vault a process loading the saved copy would read again (files
   * parsed, notes mirrored, plus a notional amount per stat and listing).
   */
  private unsavedWork = 0;
  private readonly statements = new Map<string, Statement>();
  /** Per statement, which result columns are text. */
  private readonly textColumns = new Map<string, boolean[]>();
  private scopes = new Map<string, ScopeRow>();
  private scopeNames = new Map<number, string>();
  private pathIds = new Map<string, number>();
  private rawPathIds = new Map<string, number | null>();
  private nextScope = 1;
  private nextCheckpoint = 1;
  private nextPath = 1;
  /** True when every path in the database is in `pathIds` (it was empty when loaded). */
  private pathsComplete = false;
  /** Paths met in this refresh that the database does not have yet. */
  private newPaths = new Map<number, string>();
  /** Touches added and removed in this refresh, per path id; written once, before the commit. */
  private touchChanges = new Map<number, TouchChange>();
  private sliceStart = 0;

  private constructor(
    private readonly vault: FsVault,
    private readonly db: Database,
  ) {}

  static async open(vault: FsVault): Promise<SqlIndex> {
    const SQL = await loadSqlJs();
    const file = path.join(vault.dataDir, INDEX_FILE);
    const saved = openSaved(SQL, file);
    const db = saved ?? new SQL.Database();
    const index = new SqlIndex(vault, db);
    index.fresh = saved === null;
    // The database lives in memory and is saved whole: a rollback journal in
    // memory is all a transaction needs.
    db.run('PRAGMA locking_mode = EXCLUSIVE');
    db.run('PRAGMA journal_mode = MEMORY');
    // A page SQLite does not hold in its cache is copied out of sql.js's
    // in-memory file system on every read, which is slow: the cache may hold
    // the index of a 100k vault whole (it grows only as pages are used).
    db.run(`PRAGMA cache_size = ${CACHE_KIB}`);
    if (index.version() !== SCHEMA_VERSION) index.reset();
    index.loadState();
    return index;
  }

  private version(): number {
    try {
      const r = this.db.exec("SELECT value FROM meta WHERE key = 'version'");
      return Number(r[0]?.values[0]?.[0] ?? 0);
    } catch {
      return 0;
    }
  }

  private reset(): void {
    this.freeStatements();
    const tables = this.db.exec("SELECT name FROM sqlite_master WHERE type = 'table'")[0]?.values ?? [];
    for (const [name] of tables) this.db.run(`DROP TABLE IF EXISTS "${String(name)}"`);
    this.db.run(SCHEMA + BULK_INDEXES);
    this.db.run("INSERT INTO meta(key, value) VALUES ('version', ?)", [SCHEMA_VERSION]);
    this.dirty = true;
    this.fresh = true;
  }

  /** The in-memory mirror of the small tables, and the next free ids. */
  private loadState(): void {
    this.scopes = new Map();
    this.scopeNames = new Map();
    this.pathIds = new Map();
    this.rawPathIds = new Map();
    for (const [id, name, mtime, nm, ns] of this.rows<[number, string, number, number | null, number | null]>(
      'SELECT id, name, mtime, notes_mtime, notes_size FROM scopes',
    )) {
      this.scopes.set(name, { id, name, mtime, notes: nm === null || ns === null ? null : { mtime: nm, size: ns }, ...this.pathsOf(name) });
      this.scopeNames.set(id, name);
    }
    const max = (table: string): number => Number(this.rows<[number | null]>(`SELECT MAX(id) FROM ${table}`)[0]?.[0] ?? 0);
    this.nextScope = max('scopes') + 1;
    this.nextCheckpoint = max('checkpoints') + 1;
    this.nextPath = max('paths') + 1;
    this.pathsComplete = this.nextPath === 1;
    this.newPaths = new Map();
    this.touchChanges = new Map();
  }

  async refresh(): Promise<RefreshStats> {
    const stats: RefreshStats = { checkpointsParsed: 0, checkpointsRemoved: 0, scopesScanned: 0, notesScopesRead: 0 };
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
    this.sliceStart = performance.now();
    // A first build loads everything: the secondary indexes are built once at the end.
    const bulk = this.nextCheckpoint === 1 && this.nextPath === 1;
    this.run('BEGIN');
    try {
      if (bulk) this.db.exec(DROP_BULK_INDEXES);
      const deferred: Deferred[] | null = bulk ? [] : null;
      for (const project of subdirs(this.vault.sessionsDir)) {
        const scan = await this.refreshScope(project, stats, deferred);
        seen.set(project, scan.unchanged);
        for (const wt of scan.unchanged ? (worktrees.get(project) ?? []) : scan.worktrees) {
          const sub = await this.refreshScope(`${project}/${wt}`, stats, deferred);
          seen.set(`${project}/${wt}`, sub.unchanged);
        }
      }
      if (deferred) await this.readDeferred(deferred, stats);
      for (const scope of [...this.scopes.keys()]) if (!seen.has(scope)) this.forgetScope(scope, stats);
      for (const [scope, unchanged] of seen) {
        if (this.refreshNotes(scope, unchanged)) stats.notesScopesRead += 1;
        await this.breathe();
      }
      this.writeTouches();
      if (bulk) this.db.exec(BULK_INDEXES);
      this.run('COMMIT');
    } catch (err) {
      this.run('ROLLBACK');
      this.loadState();
      throw err;
    }
    if (stats.checkpointsParsed || stats.checkpointsRemoved || stats.notesScopesRead || seen.size !== knownCount) this.dirty = true;
    return stats;
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
  private async refreshScope(scope: string, stats: RefreshStats, deferred: Deferred[] | null): Promise<{ unchanged: boolean; worktrees: string[] }> {
    const known = this.scopes.get(scope);
    const dir = known?.dir ?? this.vault.scopeDir(scope);
    const st = statOf(dir);
    if (st && known && known.mtime === st.mtime) return { unchanged: true, worktrees: [] };
    stats.scopesScanned += 1;
    this.unsavedWork += LISTING_COST;
    const isProject = !scope.includes('/');
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      // an unreadable folder holds no checkpoints we can see
    }
    const row = known ?? this.addScope(scope);
    const stored = new Map<string, StoredCheckpoint>();
    // A scope new to the index has nothing stored.
    if (known) {
      for (const [id, name, mtime, size, ts, paths] of this.rows<[number, string, number, number, number, Uint8Array]>(
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
        this.removeCheckpoint(cp);
        stats.checkpointsRemoved += 1;
      }
    }
    for (const name of names) {
      const file = path.join(dir, name);
      const prev = stored.get(name);
      if (deferred && !prev) {
        // A bulk load reads new files all together, after the walk (parallelRead.ts).
        deferred.push({ scope: row, name, file });
        continue;
      }
      if (prev) {
        const fst = statOf(file);
        this.unsavedWork += STAT_COST;
        if (!fst) continue;
        if (prev.mtime === fst.mtime && prev.size === fst.size) continue;
      }
      const read = readCapped(file, CHECKPOINT_CAP);
      if (read === null) continue;
      this.unsavedWork += read.stat.size;
      if (prev) this.removeCheckpoint(prev);
      this.putCheckpoint(row, name, read.stat, read.text);
      stats.checkpointsParsed += 1;
      await this.breathe();
    }
    row.mtime = st && Date.now() - st.mtime > RACY_MS ? st.mtime : -1;
    this.run('UPDATE scopes SET mtime = ? WHERE id = ?', [row.mtime, row.id]);
    await this.breathe();
    return {
      unchanged: false,
      worktrees: isProject ? entries.filter((e) => e.isDirectory() && e.name !== PLANS_DIR && !e.name.startsWith('.')).map((e) => e.name) : [],
    };
  }

  private pathsOf(scope: string): { dir: string; notesFile: string } {
    const dir = this.vault.scopeDir(scope);
    return { dir, notesFile: path.join(dir, NOTES_FILE) };
  }

  private addScope(name: string): ScopeRow {
    const row: ScopeRow = { id: this.nextScope++, name, mtime: -1, notes: null, ...this.pathsOf(name) };
    this.run('INSERT INTO scopes(id, name, mtime) VALUES (?, ?, -1)', [row.id, name]);
    this.scopes.set(name, row);
    this.scopeNames.set(row.id, name);
    return row;
  }

  private putCheckpoint(scope: ScopeRow, fileName: string, st: Stat, text: string): void {
    this.putRecord(scope, fileName, st, indexRecord(text, fileName.slice(0, -3), scope.name));
  }

  /** Reads the deferred files, in a worker when there are many, and writes each. */
  private async readDeferred(deferred: Deferred[], stats: RefreshStats): Promise<void> {
    const put = (d: Deferred, r: ReadResult): void => {
      if (!r) return;
      this.unsavedWork += r.bytes;
      const st = { mtime: r.mtime, size: r.size };
      if (r.rec) this.putRecord(d.scope, d.name, st, r.rec);
      else this.putCheckpoint(d.scope, d.name, st, r.text ?? '');
      stats.checkpointsParsed += 1;
    };
    let from = 0;
    if (worthAWorker(deferred.length)) {
      from = await readInWorker(
        deferred.map((d) => ({ file: d.file, id: d.name.slice(0, -3) })),
        CHECKPOINT_CAP,
        async (results, at) => {
          results.forEach((r, i) => put(deferred[at + i], r));
          await this.breathe();
        },
      );
    }
    for (const d of deferred.slice(from)) {
      const read = readCapped(d.file, CHECKPOINT_CAP);
      put(d, read && { mtime: read.stat.mtime, size: read.stat.size, bytes: read.stat.size, rec: null, text: read.text });
      await this.breathe();
    }
  }

  private putRecord(scope: ScopeRow, fileName: string, st: Stat, rec: IndexRecord): void {
    const name = fileName.slice(0, -3);
    const id = this.nextCheckpoint++;
    const pathIds: number[] = [];
    if (!rec.empty) {
      // `why` never shows an empty checkpoint, so it is given no touches.
      // A path is kept once per checkpoint, by its normalised form (one id per form).
      const written = new Set<number>();
      for (const raw of rec.paths) {
        const pid = this.pathIdOfRaw(raw);
        if (pid === null || written.has(pid)) continue;
        written.add(pid);
        pathIds.push(pid);
        this.changesOf(pid).add.push(rec.ts, id);
      }
    }
    this.run('INSERT INTO checkpoints(id, scope, name, mtime, size, agent, ts, task, empty, paths, failed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', [
      id,
      scope.id,
      name,
      st.mtime,
      st.size,
      rec.agent,
      rec.ts,
      rec.task,
      rec.empty ? 1 : 0,
      packIds(pathIds),
      rec.failed.join('\n'),
    ]);
  }

  private changesOf(pid: number): TouchChange {
    let c = this.touchChanges.get(pid);
    if (!c) {
      c = { add: [], remove: null };
      this.touchChanges.set(pid, c);
    }
    return c;
  }

  /** `pathId` of a path as it appears in a file (the same few spellings recur across a project); null for one that normalises to nothing. */
  private pathIdOfRaw(raw: string): number | null {
    let id = this.rawPathIds.get(raw);
    if (id === undefined) {
      const p = normalizeTouchPath(raw);
      id = p ? this.pathId(p) : null;
      this.rawPathIds.set(raw, id);
    }
    return id;
  }

  /** The id of a path as written (normalised), new ids for paths the database lacks. */
  private pathId(p: string): number {
    const cached = this.pathIds.get(p);
    if (cached !== undefined) return cached;
    const rmatch = reversed(p);
    let id = this.pathsComplete ? undefined : this.rows<[number]>('SELECT id FROM paths WHERE rmatch = ?', [rmatch])[0]?.[0];
    if (id === undefined) {
      id = this.nextPath++;
      this.newPaths.set(id, rmatch);
    }
    this.pathIds.set(p, id);
    return id;
  }

  /** Writes this refresh's touches: one row per new path, one rewrite per changed one. */
  private writeTouches(): void {
    for (const [pid, change] of this.touchChanges) {
      const fresh = this.newPaths.get(pid);
      if (fresh !== undefined) {
        this.run('INSERT INTO paths(id, rmatch, head, rest) VALUES (?, ?, ?, ?)', [pid, fresh, ...splitPairs(change.add, change.remove)]);
        this.newPaths.delete(pid);
        continue;
      }
      const row = this.rows<[Uint8Array, Uint8Array]>('SELECT head, rest FROM paths WHERE id = ?', [pid])[0];
      if (!row) continue;
      const flat = flatPairs(row[1], flatPairs(row[0]));
      this.run('UPDATE paths SET head = ?, rest = ? WHERE id = ?', [...splitPairs(flat.concat(change.add), change.remove), pid]);
    }
    for (const [pid, fresh] of this.newPaths) this.run('INSERT INTO paths(id, rmatch, head, rest) VALUES (?, ?, ?, ?)', [pid, fresh, ...splitPairs([], null)]);
    this.newPaths.clear();
    this.touchChanges.clear();
  }

  private removeCheckpoint(cp: StoredCheckpoint): void {
    for (const pid of unpackIds(cp.paths)) {
      const c = this.changesOf(pid);
      (c.remove ??= new Set()).add(cp.id);
    }
    this.run('DELETE FROM checkpoints WHERE id = ?', [cp.id]);
  }

  private forgetScope(scope: string, stats: RefreshStats): void {
    const row = this.scopes.get(scope);
    if (!row) return;
    const rows = this.rows<[number, number, number, number, Uint8Array]>('SELECT id, mtime, size, ts, paths FROM checkpoints WHERE scope = ?', [row.id]);
    for (const [id, mtime, size, ts, paths] of rows) this.removeCheckpoint({ id, mtime, size, ts, paths });
    stats.checkpointsRemoved += rows.length;
    this.run('DELETE FROM notes WHERE scope = ?', [row.id]);
    this.run('DELETE FROM scopes WHERE id = ?', [row.id]);
    this.scopes.delete(scope);
    this.scopeNames.delete(row.id);
  }

  /**
   * Mirrors a scope's `uncommitted.md` when its size or mtime moved. A scope
   * whose folder did not change and which had no notes file still has none
   * (creating one moves the folder's mtime), so it costs nothing.
   */
  private refreshNotes(scope: string, folderUnchanged: boolean): boolean {
    const row = this.scopes.get(scope);
    if (!row) return false;
    const prev = row.notes;
    if (folderUnchanged && !prev) return false;
    const file = row.notesFile;
    const st = statOf(file);
    if (!st) {
      if (!prev) return false;
      this.run('DELETE FROM notes WHERE scope = ?', [row.id]);
      this.setNotesStat(row, null);
      return true;
    }
    if (prev && prev.mtime === st.mtime && prev.size === st.size && Date.now() - st.mtime > RACY_MS) return false;
    const read = readCapped(file, NOTES_CAP);
    this.unsavedWork += read?.stat.size ?? 0;
    const text = read?.text ?? '';
    this.run('DELETE FROM notes WHERE scope = ?', [row.id]);
    for (const n of parseNotes(text)) this.run('INSERT INTO notes(scope, agent, ts, text) VALUES (?, ?, ?, ?)', [row.id, n.agent, n.ts, n.text]);
    this.setNotesStat(row, st);
    return !prev || prev.mtime !== st.mtime || prev.size !== st.size;
  }

  private setNotesStat(row: ScopeRow, st: Stat | null): void {
    row.notes = st;
    this.run('UPDATE scopes SET notes_mtime = ?, notes_size = ? WHERE id = ?', [st?.mtime ?? null, st?.size ?? null, row.id]);
  }

  summaries(): ScopeSummary[] {
    const rows = this.rows<[string, number, number, number]>(
      `SELECT s.name, s.id, COUNT(*), MAX(c.ts) FROM checkpoints c JOIN scopes s ON s.id = c.scope
       WHERE c.empty = 0 GROUP BY c.scope ORDER BY s.name`,
    );
    return rows.map(([scope, id, count, last]) => {
      const agent = this.rows<[string]>('SELECT agent FROM checkpoints WHERE scope = ? AND empty = 0 AND ts = ? ORDER BY name DESC LIMIT 1', [id, last]);
      return { scope, checkpoints: count, lastCheckpoint: last, lastAgent: agent[0]?.[0] ?? '' };
    });
  }

  openNotes(): ScopeNote[] {
    return this.rows<[number, string, number, string]>('SELECT scope, agent, ts, text FROM notes ORDER BY rowid').map(([scope, agent, ts, text]) => ({
      scope: this.scopeNames.get(scope) ?? '',
      agent,
      ts,
      text,
    }));
  }

  /**
   * Checkpoints that touched `query`, newest first. With a `limit`, only the
   * newest `limit` are looked at: per matching path the index is read newest
   * first and stops once it has `limit` (and every tie of the last one), so the
   * cost does not grow with how often a popular file was touched.
   */
  touching(query: string, limit = Infinity): Touch[] {
    const wanted = normalizeTouchPath(query);
    if (!wanted || !(limit > 0)) return [];
    // Matching paths: the query itself or one of its trailing whole-segment
    // parts, or any path ending in "/" + the query (a prefix of its reversal).
    const found = new Map<number, { head: Uint8Array; written: string }>();
    const collect = (sql: string, params: SqlValue[]): void => {
      for (const [id, rmatch, head] of this.rows<[number, string, Uint8Array]>(sql, params)) found.set(id, { head, written: reversed(rmatch) });
    };
    for (let i = 0; i >= 0; ) {
      collect('SELECT id, rmatch, head FROM paths WHERE rmatch = ?', [reversed(wanted.slice(i))]);
      const slash = wanted.indexOf('/', i);
      i = slash < 0 || slash === wanted.length - 1 ? -1 : slash + 1;
    }
    const r = reversed(wanted);
    collect('SELECT id, rmatch, head FROM paths WHERE rmatch >= ? AND rmatch < ?', [`${r}/`, `${r}0`]);

    // Per matching path, its checkpoints newest first: the newest `limit` and
    // every tie of the last (the rest of a long list is read only if needed).
    const hits = new Map<number, { ts: number; paths: number[] }>();
    for (const [pid, { head }] of found) {
      let blob = head;
      let lastTs = Infinity;
      for (let i = 0; ; i++) {
        if (i === touchCount(blob)) {
          if (blob !== head || i < HEAD_ENTRIES) break;
          const rest = this.rows<[Uint8Array]>('SELECT rest FROM paths WHERE id = ?', [pid])[0]?.[0];
          if (!rest || touchCount(rest) === 0) break;
          blob = rest;
          i = 0;
        }
        const { ts, cp } = touchAt(blob, i);
        const taken = blob === head ? i : HEAD_ENTRIES + i;
        if (taken >= limit && ts < lastTs) break;
        lastTs = ts;
        const hit = hits.get(cp);
        if (hit) hit.paths.push(pid);
        else hits.set(cp, { ts, paths: [pid] });
      }
    }
    // Only the newest `limit` (and ties) across all paths are looked up.
    let candidates = [...hits];
    if (candidates.length > limit) {
      const cut = candidates.map(([, h]) => h.ts).sort((a, b) => b - a)[limit - 1];
      candidates = candidates.filter(([, h]) => h.ts >= cut);
    }
    const out: Touch[] = [];
    for (const [cp, hit] of candidates) {
      const row = this.rows<[number, string, string, number, string, Uint8Array]>('SELECT scope, name, agent, ts, task, paths FROM checkpoints WHERE id = ?', [cp])[0];
      if (!row) continue;
      const [scopeId, session, agent, ts, task, written] = row;
      // The path shown is the first the checkpoint wrote that matches.
      let pid = hit.paths[0];
      if (hit.paths.length > 1) {
        const order = unpackIds(written);
        pid = hit.paths.reduce((best, p) => (order.indexOf(p) < order.indexOf(best) ? p : best), pid);
      }
      const matched = found.get(pid)?.written ?? '';
      const scope = this.scopeNames.get(scopeId) ?? '';
      out.push({ session, project: scope, agent, task, matched, ts, slug: `sessions/${scope}/${session}` });
    }
    out.sort((a, b) => b.ts - a.ts || cmp(b.session, a.session) || cmp(b.slug, a.slug));
    return Number.isFinite(limit) ? out.slice(0, limit) : out;
  }

  deadEnds(): DeadEnd[] {
    const out: DeadEnd[] = [];
    for (const [failed, scopeId, session, agent, ts] of this.rows<[string, number, string, string, number]>(
      'SELECT failed, scope, name, agent, ts FROM checkpoints WHERE length(failed) > 0 ORDER BY ts DESC, id',
    )) {
      const project = this.scopeNames.get(scopeId) ?? '';
      for (const text of failed.split('\n')) out.push({ text, session, project, agent, ts, slug: `sessions/${project}/${session}` });
    }
    return out;
  }

  checkpointCount(): number {
    return this.rows<[number]>('SELECT COUNT(*) FROM checkpoints')[0]?.[0] ?? 0;
  }

  /**
   * Saves the whole database atomically, when it is worth it. The database is
   * exported and written whole, so saving a big index after a small change
   * costs far more than the change: a process loading the older copy only
   * re-reads what changed since (the folders whose mtime moved). So while the
   * saved copy is less than a minute old, a save is skipped (the index stays
   * dirty) unless the work it would spare the next process, in bytes of vault
   * re-read, reaches a quarter of the database's size. An index built here
   * from nothing is always saved, and so is one when `force` is given.
   */
  async save(force = false): Promise<void> {
    if (!this.dirty) return;
    const file = path.join(this.vault.dataDir, INDEX_FILE);
    if (!force && !this.fresh && this.unsavedWork * SAVE_WORK_FACTOR < this.databaseBytes() && savedWithin(file, SAVE_AT_LEAST_EVERY_MS)) return;
    // A cache may skip a save while another process holds the lock: the next
    // process simply rescans what this one would have saved.
    const saved = await this.vault.tryLock('index', async () => {
      await writeAtomic(file, this.db.export());
      return true;
    });
    if (saved) {
      this.dirty = false;
      this.fresh = false;
      this.unsavedWork = 0;
    }
  }

  private databaseBytes(): number {
    const pages = Number(this.db.exec('PRAGMA page_count')[0]?.values[0]?.[0] ?? 0);
    const size = Number(this.db.exec('PRAGMA page_size')[0]?.values[0]?.[0] ?? 0);
    return pages * size;
  }

  close(): void {
    this.freeStatements();
    this.db.close();
  }

  private freeStatements(): void {
    for (const stmt of this.statements.values()) stmt.free();
    this.statements.clear();
    this.textColumns.clear();
  }

  /** A prepared statement, kept for the life of the index. */
  private stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  private run(sql: string, params: SqlValue[] = []): void {
    if (params.length === 0) {
      this.db.run(sql);
      return;
    }
    this.stmt(sql).run(params.map(bindable));
  }

  private rows<T extends unknown[]>(sql: string, params: SqlValue[] = []): T[] {
    const out: T[] = [];
    this.each<T>(sql, params, (row) => {
      out.push(row);
      return true;
    });
    return out;
  }

  /** Steps through the rows (text back as strings) until `fn` returns false. */
  private each<T extends unknown[]>(sql: string, params: SqlValue[], fn: (row: T) => boolean): void {
    const stmt = this.stmt(sql);
    let text = this.textColumns.get(sql);
    if (!text) {
      text = stmt.getColumnNames().map((c) => !BINARY_COLUMNS.has(c));
      this.textColumns.set(sql, text);
    }
    try {
      if (params.length) stmt.bind(params.map(bindable));
      while (stmt.step()) {
        const row = stmt.get();
        for (let i = 0; i < row.length; i++) {
          const v = row[i];
          if (text[i] && v instanceof Uint8Array) row[i] = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('utf8');
        }
        if (!fn(row as T)) break;
      }
    } finally {
      stmt.reset();
    }
  }
}

/** Columns that really hold bytes; every other blob read back is UTF-8 text. */
const BINARY_COLUMNS = new Set(['head', 'rest', 'paths']);

/**
 * Text goes into the database as its UTF-8 bytes (a blob): Node encodes them
 * natively, where sql.js would encode a string one character at a time in
 * JavaScript, which made text most of the cost of a cold build. Byte order is
 * the order SQLite gives UTF-8 text, so comparisons and indexes are unchanged,
 * as long as every value and parameter of a column is bound this way. An empty
 * string stays text: a zero-length blob may be bound as NULL.
 */
function bindable(v: SqlValue): SqlValue {
  return typeof v === 'string' && v.length > 0 ? Buffer.from(v, 'utf8') : v;
}

/** A list of ids as little-endian uint32s. */
function packIds(ids: number[]): Uint8Array {
  const out = Buffer.alloc(ids.length * 4);
  ids.forEach((id, i) => out.writeUInt32LE(id, i * 4));
  return out;
}

function unpackIds(blob: Uint8Array | string | null): number[] {
  if (!(blob instanceof Uint8Array)) return [];
  const buf = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  const out: number[] = [];
  for (let i = 0; i + 4 <= buf.length; i += 4) out.push(buf.readUInt32LE(i));
  return out;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Reversed code point by code point, so a surrogate pair stays a pair. */
function reversed(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(s)) {
    let out = '';
    for (let i = s.length - 1; i >= 0; i--) out += s[i];
    return out;
  }
  return Array.from(s).reverse().join('');
}

function openSaved(SQL: SqlJsStatic, file: string): Database | null {
  try {
    const buf = fs.readFileSync(file);
    if (buf.length === 0) return null;
    const db = new SQL.Database(buf);
    db.exec('SELECT 1 FROM sqlite_master LIMIT 1');
    return db;
  } catch {
    // A missing or corrupt cache is rebuilt from the vault.
    return null;
  }
}

function savedWithin(file: string, ms: number): boolean {
  const st = statOf(file);
  return st !== null && Date.now() - st.mtime < ms;
}

function statOf(p: string): Stat | null {
  try {
    const st = fs.statSync(p, { throwIfNoEntry: false });
    return st ? { mtime: st.mtimeMs, size: st.size } : null;
  } catch {
    return null;
  }
}

/** Reads at most `limit` bytes of a file, with the stat of the open file; null when it cannot be read. */
function readCapped(file: string, limit: number): { text: string; stat: Stat } | null {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const st = fs.fstatSync(fd);
    const buf = Buffer.allocUnsafe(Math.min(st.size, limit));
    let read = 0;
    while (read < buf.length) {
      const n = fs.readSync(fd, buf, read, buf.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return { text: buf.toString('utf8', 0, read), stat: { mtime: st.mtimeMs, size: st.size } };
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function subdirs(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name);
  } catch {
    return [];
  }
}

// The index: a sql.js database under `<vault>/.baton/`, a cache of the vault.
// A process loads the saved copy, brings it up to date from what changed on
// disk (folders whose mtime moved, notes files whose size or mtime moved), and
// saves it atomically under a lock. It never reads the whole vault unless the
// whole vault is new to it.
import * as fs from 'fs';
import * as path from 'path';
import type { Database, SqlJsStatic } from 'sql.js';
import type { Touch } from '../../core/model';
import { isEmptyCheckpoint } from '../../core/checkpointBody';
import type { DeadEnd, IndexPort, RefreshStats, ScopeNote, ScopeSummary } from '../../core/ports';
import { normalizeTouchPath, pathsMatch, touchKey } from '../../core/touching';
import { isCheckpointFileName, parseCheckpoint, parseNotes } from '../markdown/checkpointFile';
import { readCapped, writeAtomic } from '../vault/atomicFile';
import type { FsVault } from '../vault/fsVault';
import { NOTES_FILE, PLANS_DIR } from '../vault/fsVault';
import { loadSqlJs } from './sqlJs';
import { SCHEMA, SCHEMA_VERSION } from './schema';

export const INDEX_FILE = 'index.sqlite';
/** A folder modified this recently may change again within the same mtime tick: rescan it next time. */
const RACY_MS = 2000;

interface Stat {
  mtime: number;
  size: number;
}

export class SqlIndex implements IndexPort {
  private dirty = false;

  private constructor(
    private readonly vault: FsVault,
    private readonly db: Database,
  ) {}

  static async open(vault: FsVault): Promise<SqlIndex> {
    const SQL = await loadSqlJs();
    const file = path.join(vault.dataDir, INDEX_FILE);
    const db = openSaved(SQL, file) ?? new SQL.Database();
    const index = new SqlIndex(vault, db);
    if (index.version() !== SCHEMA_VERSION) index.reset();
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
    const tables = this.db.exec("SELECT name FROM sqlite_master WHERE type = 'table'")[0]?.values ?? [];
    for (const [name] of tables) this.db.run(`DROP TABLE IF EXISTS "${String(name)}"`);
    this.db.run(SCHEMA);
    this.db.run("INSERT INTO meta(key, value) VALUES ('version', ?)", [SCHEMA_VERSION]);
    this.dirty = true;
  }

  async refresh(): Promise<RefreshStats> {
    const stats: RefreshStats = { checkpointsParsed: 0, checkpointsRemoved: 0, scopesScanned: 0, notesScopesRead: 0 };
    const known = new Map<string, number>();
    for (const [p, m] of this.rows<[string, number]>('SELECT path, mtime FROM dirs')) known.set(p, m);
    const seen = new Set<string>();
    this.db.run('BEGIN');
    try {
      for (const project of await subdirs(this.vault.sessionsDir)) {
        const worktrees = await this.refreshScope(project, known, stats);
        seen.add(project);
        for (const wt of worktrees) {
          await this.refreshScope(`${project}/${wt}`, known, stats);
          seen.add(`${project}/${wt}`);
        }
      }
      for (const scope of known.keys()) if (!seen.has(scope)) this.forgetScope(scope, stats);
      for (const scope of seen) if (await this.refreshNotes(scope)) stats.notesScopesRead += 1;
      this.db.run('COMMIT');
    } catch (err) {
      this.db.run('ROLLBACK');
      throw err;
    }
    if (stats.checkpointsParsed || stats.checkpointsRemoved || stats.notesScopesRead || seen.size !== known.size) this.dirty = true;
    return stats;
  }

  /** Rescans one scope folder when its mtime moved; returns its worktree sub-folders. */
  private async refreshScope(scope: string, known: Map<string, number>, stats: RefreshStats): Promise<string[]> {
    const dir = this.vault.scopeDir(scope);
    const st = await statOf(dir);
    const isProject = !scope.includes('/');
    const storedMtime = known.get(scope);
    if (st && storedMtime !== undefined && storedMtime === st.mtime) {
      return isProject ? this.rows<[string]>('SELECT path FROM dirs WHERE path LIKE ?', [`${scope}/%`]).map(([p]) => p.slice(scope.length + 1)) : [];
    }
    stats.scopesScanned += 1;
    const entries = await fs.promises.readdir(dir, { withFileTypes: true }).catch(() => []);
    const names = new Set(entries.filter((e) => e.isFile() && isCheckpointFileName(e.name)).map((e) => e.name));
    const stored = new Map(
      this.rows<[string, number, number]>("SELECT path, mtime, size FROM files WHERE scope = ? AND kind = 'checkpoint'", [scope]).map(
        ([p, m, s]) => [path.posix.basename(p), { mtime: m, size: s }],
      ),
    );
    for (const name of stored.keys()) {
      if (!names.has(name)) {
        this.removeCheckpoint(`sessions/${scope}/${name}`);
        stats.checkpointsRemoved += 1;
      }
    }
    for (const name of names) {
      const file = path.join(dir, name);
      const fst = await statOf(file);
      if (!fst) continue;
      const prev = stored.get(name);
      if (prev && prev.mtime === fst.mtime && prev.size === fst.size) continue;
      const text = await readCapped(file);
      if (text === null) continue;
      this.putCheckpoint(scope, name, fst, text);
      stats.checkpointsParsed += 1;
    }
    const trusted = st && Date.now() - st.mtime > RACY_MS ? st.mtime : -1;
    this.db.run('INSERT OR REPLACE INTO dirs(path, mtime) VALUES (?, ?)', [scope, trusted]);
    return isProject ? entries.filter((e) => e.isDirectory() && e.name !== PLANS_DIR && !e.name.startsWith('.')).map((e) => e.name) : [];
  }

  private putCheckpoint(scope: string, name: string, st: Stat, text: string): void {
    const rel = `sessions/${scope}/${name}`;
    this.removeCheckpoint(rel);
    const cp = parseCheckpoint(text, name.slice(0, -3), scope);
    this.db.run("INSERT INTO files(path, kind, scope, mtime, size) VALUES (?, 'checkpoint', ?, ?, ?)", [rel, scope, st.mtime, st.size]);
    this.db.run('INSERT INTO checkpoints(path, scope, session, agent, ts, task, empty) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      rel,
      scope,
      cp.session,
      cp.agent,
      cp.ts,
      cp.task || cp.next,
      isEmptyCheckpoint(cp) ? 1 : 0,
    ]);
    const touched = new Set<string>();
    for (const raw of [...cp.files, ...cp.git.files]) {
      const p = normalizeTouchPath(raw);
      if (!p || touched.has(p)) continue;
      touched.add(p);
      this.db.run('INSERT INTO touches(key, path, cp) VALUES (?, ?, ?)', [touchKey(p), p, rel]);
    }
    for (const text of cp.failed) this.db.run('INSERT INTO dead_ends(cp, text) VALUES (?, ?)', [rel, text]);
  }

  private removeCheckpoint(rel: string): void {
    for (const table of ['files', 'checkpoints']) this.db.run(`DELETE FROM ${table} WHERE path = ?`, [rel]);
    for (const table of ['touches', 'dead_ends']) this.db.run(`DELETE FROM ${table} WHERE cp = ?`, [rel]);
  }

  private forgetScope(scope: string, stats: RefreshStats): void {
    const rels = this.rows<[string]>('SELECT path FROM checkpoints WHERE scope = ?', [scope]);
    for (const [rel] of rels) this.removeCheckpoint(rel);
    stats.checkpointsRemoved += rels.length;
    this.db.run('DELETE FROM files WHERE scope = ?', [scope]);
    this.db.run('DELETE FROM notes WHERE scope = ?', [scope]);
    this.db.run('DELETE FROM dirs WHERE path = ?', [scope]);
  }

  /** Mirrors a scope's `uncommitted.md` when its size or mtime moved. */
  private async refreshNotes(scope: string): Promise<boolean> {
    const file = path.join(this.vault.scopeDir(scope), NOTES_FILE);
    const rel = `sessions/${scope}/${NOTES_FILE}`;
    const st = await statOf(file);
    const prev = this.rows<[number, number]>('SELECT mtime, size FROM files WHERE path = ?', [rel])[0];
    if (!st) {
      if (!prev) return false;
      this.db.run('DELETE FROM files WHERE path = ?', [rel]);
      this.db.run('DELETE FROM notes WHERE scope = ?', [scope]);
      return true;
    }
    if (prev && prev[0] === st.mtime && prev[1] === st.size && Date.now() - st.mtime > RACY_MS) return false;
    const text = (await readCapped(file, 256 << 20)) ?? '';
    this.db.run('DELETE FROM notes WHERE scope = ?', [scope]);
    for (const n of parseNotes(text)) this.db.run('INSERT INTO notes(scope, agent, ts, text) VALUES (?, ?, ?, ?)', [scope, n.agent, n.ts, n.text]);
    this.db.run("INSERT OR REPLACE INTO files(path, kind, scope, mtime, size) VALUES (?, 'notes', ?, ?, ?)", [rel, scope, st.mtime, st.size]);
    return !prev || prev[0] !== st.mtime || prev[1] !== st.size;
  }

  summaries(): ScopeSummary[] {
    const rows = this.rows<[string, number, number]>('SELECT scope, COUNT(*), MAX(ts) FROM checkpoints WHERE empty = 0 GROUP BY scope');
    return rows.map(([scope, count, last]) => {
      const agent = this.rows<[string]>('SELECT agent FROM checkpoints WHERE scope = ? AND empty = 0 AND ts = ? ORDER BY session DESC LIMIT 1', [scope, last]);
      return { scope, checkpoints: count, lastCheckpoint: last, lastAgent: agent[0]?.[0] ?? '' };
    });
  }

  openNotes(): ScopeNote[] {
    return this.rows<[string, string, number, string]>('SELECT scope, agent, ts, text FROM notes ORDER BY rowid').map(([scope, agent, ts, text]) => ({
      scope,
      agent,
      ts,
      text,
    }));
  }

  touching(query: string): Touch[] {
    const wanted = normalizeTouchPath(query);
    if (!wanted) return [];
    const rows = this.rows<[string, string, string, string, string, number]>(
      `SELECT t.path, c.path, c.scope, c.session, c.agent, c.ts FROM touches t JOIN checkpoints c ON c.path = t.cp
       WHERE t.key = ? AND c.empty = 0`,
      [touchKey(wanted)],
    );
    const seen = new Map<string, Touch>();
    for (const [matched, rel, scope, session, agent, ts] of rows) {
      if (seen.has(rel) || !pathsMatch(matched, wanted)) continue;
      const task = this.rows<[string]>('SELECT task FROM checkpoints WHERE path = ?', [rel])[0]?.[0] ?? '';
      seen.set(rel, { session, project: scope, agent, task, matched, ts, slug: rel.slice(0, -3) });
    }
    return [...seen.values()].sort((a, b) => b.ts - a.ts || (a.session < b.session ? 1 : a.session > b.session ? -1 : 0));
  }

  deadEnds(): DeadEnd[] {
    return this.rows<[string, string, string, string, string, number]>(
      'SELECT d.text, c.path, c.scope, c.session, c.agent, c.ts FROM dead_ends d JOIN checkpoints c ON c.path = d.cp ORDER BY c.ts DESC',
    ).map(([text, rel, project, session, agent, ts]) => ({ text, session, project, agent, ts, slug: rel.slice(0, -3) }));
  }

  checkpointCount(): number {
    return this.rows<[number]>('SELECT COUNT(*) FROM checkpoints')[0]?.[0] ?? 0;
  }

  async save(): Promise<void> {
    if (!this.dirty) return;
    const file = path.join(this.vault.dataDir, INDEX_FILE);
    // A cache may skip a save while another process holds the lock: the next
    // process simply rescans what this one would have saved.
    const saved = await this.vault.tryLock('index', async () => {
      await writeAtomic(file, this.db.export());
      return true;
    });
    if (saved) this.dirty = false;
  }

  close(): void {
    this.db.close();
  }

  private rows<T extends unknown[]>(sql: string, params: unknown[] = []): T[] {
    const stmt = this.db.prepare(sql);
    try {
      stmt.bind(params as never[]);
      const out: T[] = [];
      while (stmt.step()) out.push(stmt.get() as T);
      return out;
    } finally {
      stmt.free();
    }
  }
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

async function statOf(p: string): Promise<Stat | null> {
  try {
    const st = await fs.promises.stat(p);
    return { mtime: st.mtimeMs, size: st.size };
  } catch {
    return null;
  }
}

async function subdirs(dir: string): Promise<string[]> {
  try {
    const entries = await fs.promises.readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name);
  } catch {
    return [];
  }
}

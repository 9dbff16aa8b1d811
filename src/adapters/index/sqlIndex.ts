// The index: a sql.js database under `<vault>/.baton/`, a cache of the vault.
// A process loads the saved copy, brings it up to date from what changed on
// disk (folders whose mtime moved, notes files whose size or mtime moved:
// indexWriter.ts), and saves it atomically under a lock. It never reads the
// whole vault unless the whole vault is new to it.
import * as fs from 'fs';
import * as path from 'path';
import type { Database, SqlJsStatic } from 'sql.js';
import type { Touch } from '../../core/model';
import type { DeadEnd, IndexPort, RefreshStats, ScopeNote, ScopeSummary, TextHit, TextQuery } from '../../core/ports';
import { VaultWriteError } from '../../core/errors';
import { ensureDir, writeAtomic } from '../vault/atomicFile';
import type { FsVault } from '../vault/fsVault';
import { IndexWriter, type IndexOptions } from './indexWriter';
import { BULK_INDEXES, SCHEMA, SCHEMA_VERSION } from './schema';
import { configure, loadSqlJs } from './sqlJs';
import { IndexRecords } from './searchRecords';
import { Statements } from './statements';
import { touching } from './touchQuery';
import { savedWithin } from './vaultFiles';

export type { IndexOptions };

export const INDEX_FILE = 'index.sqlite';
/** Save once the work a saved copy would spare, times this, reaches the database's size... */
const SAVE_WORK_FACTOR = 4;
/** ...or once the saved copy is this old: small changes are not re-read by every process forever. */
const SAVE_AT_LEAST_EVERY_MS = 60_000;

export class SqlIndex implements IndexPort {
  private dirty = false;
  /** Built here from nothing (no saved copy, or one of another schema): always worth saving. */
  private fresh = false;
  private readonly writer: IndexWriter;
  private readonly records: IndexRecords;

  private constructor(
    private readonly vault: FsVault,
    private readonly sql: Statements,
    opts: IndexOptions,
  ) {
    this.writer = new IndexWriter(vault, sql, opts);
    this.records = new IndexRecords(vault, sql, () => this.writer.scopeNames);
  }

  /** Deletes the saved index, so the next open rebuilds from the vault (nothing is lost: it is a cache). */
  static async removeSaved(vault: FsVault): Promise<void> {
    await fs.promises.rm(path.join(vault.dataDir, INDEX_FILE), { force: true });
  }

  static async open(vault: FsVault, opts: IndexOptions = {}): Promise<SqlIndex> {
    const SQL = await loadSqlJs();
    const file = path.join(vault.dataDir, INDEX_FILE);
    let saved = openSaved(SQL, file);
    if (saved && versionOf(saved) !== SCHEMA_VERSION) {
      // Dropping an old schema's tables would keep their pages, free, in every later save: start empty instead.
      saved.close();
      saved = null;
    }
    const db = saved ?? new SQL.Database();
    const index = new SqlIndex(vault, new Statements(db), opts);
    index.fresh = saved === null;
    configure(db);
    if (index.version() !== SCHEMA_VERSION) index.reset();
    index.writer.loadState();
    return index;
  }

  private version(): number {
    return versionOf(this.sql.db);
  }

  private reset(): void {
    this.sql.free();
    // A virtual table first: dropping it drops its shadow tables with it.
    const tables = this.sql.db.exec("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY sql LIKE 'CREATE VIRTUAL%' DESC")[0]?.values ?? [];
    for (const [name] of tables) this.sql.db.run(`DROP TABLE IF EXISTS "${String(name)}"`);
    this.sql.db.run(SCHEMA + BULK_INDEXES);
    this.sql.db.run("INSERT INTO meta(key, value) VALUES ('version', ?)", [SCHEMA_VERSION]);
    this.dirty = true;
    this.fresh = true;
  }

  async refresh(): Promise<RefreshStats> {
    const { stats, changed } = await this.writer.refresh();
    if (changed) this.dirty = true;
    return stats;
  }

  summaries(): ScopeSummary[] {
    // The least and greatest machine in the same scan: whether a scope has
    // two machines is all a view asks (views/whose.ts), not the whole set.
    const rows = this.sql.rows<[string, number, number, number, string | null, string | null]>(
      `SELECT s.name, s.id, COUNT(*), MAX(c.ts), MIN(NULLIF(c.machine, '')), MAX(NULLIF(c.machine, '')) FROM checkpoints c JOIN scopes s ON s.id = c.scope
       WHERE c.empty = 0 GROUP BY c.scope ORDER BY s.name`,
    );
    return rows.map(([scope, id, count, last, least, most]) => {
      const [row] = this.sql.rows<[string, string, string]>('SELECT agent, machine, person FROM checkpoints WHERE scope = ? AND empty = 0 AND ts = ? ORDER BY name DESC LIMIT 1', [
        id,
        last,
      ]);
      const machines = [...new Set([least, most].filter((m): m is string => !!m))];
      return { scope, checkpoints: count, lastCheckpoint: last, lastAgent: row?.[0] ?? '', lastMachine: row?.[1] ?? '', lastPerson: row?.[2] ?? '', machines };
    });
  }

  openNotes(): ScopeNote[] {
    return this.sql
      .rows<[number, string, number, string, string, string]>('SELECT scope, agent, ts, text, machine, asession FROM notes ORDER BY rowid')
      .map(([scope, agent, ts, text, machine, agentSession]) => ({
        scope: this.writer.scopeNames.get(scope) ?? '',
        agent,
        ts,
        text,
        // Absent, not "", on a line without an origin: as the vault's reader gives it.
        ...(machine ? { machine } : {}),
        ...(agentSession ? { agentSession } : {}),
      }));
  }

  /**
   * Checkpoints that touched `query`, newest first; with a `limit`, only the
   * newest `limit` are read (see touchQuery.ts).
   */
  touching(query: string, limit = Infinity): Touch[] {
    return touching(this.sql, this.writer.scopeNames, query, limit);
  }

  deadEnds(slugs?: string[]): DeadEnd[] {
    const out: DeadEnd[] = [];
    const rows = slugs
      ? slugs.flatMap((slug) => this.deadEndRows(slug))
      : this.sql.rows<[string, number, string, string, number]>('SELECT failed, scope, name, agent, ts FROM checkpoints WHERE length(failed) > 0 ORDER BY ts DESC, scope, name');
    for (const [failed, scopeId, session, agent, ts] of rows) {
      const project = this.writer.scopeNames.get(scopeId) ?? '';
      for (const text of failed.split('\n')) out.push({ text, session, project, agent, ts, slug: `sessions/${project}/${session}` });
    }
    return out;
  }

  search(query: TextQuery): TextHit[] {
    return this.writer.text.query(query, this.records);
  }

  /** What the text index holds (search/textIndex.ts). */
  textFigures(): { documents: number; dead: number; segments: number } {
    return this.writer.text.figures();
  }

  /** The dead-end row of the checkpoint at `sessions/<scope>/<id>`, if the index holds one. */
  private deadEndRows(slug: string): [string, number, string, string, number][] {
    const m = /^sessions\/(.+)\/([^/]+)$/.exec(slug);
    const scope = m ? [...this.writer.scopeNames].find(([, name]) => name === m[1])?.[0] : undefined;
    if (!m || scope === undefined) return [];
    return this.sql.rows('SELECT failed, scope, name, agent, ts FROM checkpoints WHERE scope = ? AND name = ? AND length(failed) > 0', [scope, m[2]]);
  }

  /** Per agent name, the newest stamp of its checkpoints and open notes: when each agent last wrote (for `baton doctor`). */
  lastByAgent(): { agent: string; ts: number }[] {
    return this.sql
      .rows<[string, number]>('SELECT agent, MAX(ts) FROM (SELECT agent, ts FROM checkpoints UNION ALL SELECT agent, ts FROM notes) GROUP BY agent ORDER BY agent')
      .map(([agent, ts]) => ({ agent, ts }));
  }

  checkpointCount(): number {
    return this.sql.rows<[number]>('SELECT COUNT(*) FROM checkpoints')[0]?.[0] ?? 0;
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
    if (!force && !this.fresh && this.writer.unsavedWork * SAVE_WORK_FACTOR < this.databaseBytes() && savedWithin(file, SAVE_AT_LEAST_EVERY_MS)) return;
    // A cache may skip a save while another process holds the lock: the next
    // process simply rescans what this one would have saved.
    // `.baton/` may be deleted at any time, this very moment included: a save
    // that finds no folder, or a folder that refuses it, is skipped.
    const saved = await this.vault
      .tryLock('index', async () => {
        await ensureDir(path.dirname(file));
        await writeAtomic(file, this.sql.db.export());
        return true;
      })
      .catch((err: unknown) => {
        if (err instanceof VaultWriteError || (err as NodeJS.ErrnoException)?.code === 'ENOENT') return false;
        throw err;
      });
    if (saved) {
      this.dirty = false;
      this.fresh = false;
      this.writer.unsavedWork = 0;
    }
  }

  private databaseBytes(): number {
    const pages = Number(this.sql.db.exec('PRAGMA page_count')[0]?.values[0]?.[0] ?? 0);
    const size = Number(this.sql.db.exec('PRAGMA page_size')[0]?.values[0]?.[0] ?? 0);
    return pages * size;
  }

  close(): void {
    this.sql.free();
    this.sql.db.close();
  }
}

function versionOf(db: Database): number {
  try {
    const r = db.exec("SELECT value FROM meta WHERE key = 'version'");
    return Number(r[0]?.values[0]?.[0] ?? 0);
  } catch {
    return 0;
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

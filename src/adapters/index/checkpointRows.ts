// The checkpoints table and what goes with each row: its touched paths
// (pathTouches.ts) and its search terms (the search module: adapters/search/). The refresh
// (indexWriter.ts) decides what to read; this writes and removes rows.
import type { SearchPort } from '../search';
import type { IndexRecord } from './indexRecord';
import type { PathTouches } from './pathTouches';
import type { Statements } from './statements';
import { TextRows } from './textRows';
import { packIds, unpackIds } from './touches';
import type { Stat } from './vaultFiles';

/** A checkpoint row as a refresh compares it with its file. */
export interface StoredCheckpoint {
  id: number;
  mtime: number;
  size: number;
  ts: number;
  /** Path ids, packed (see packIds). */
  paths: Uint8Array;
}

/** What a row holds of a record: `failed` joined by newlines, the paths as ids. */
type RowFields = Omit<IndexRecord, 'paths' | 'failed' | 'search'> & { failed: string };

export class CheckpointRows extends TextRows {
  constructor(
    sql: Statements,
    text: SearchPort,
    private readonly paths: PathTouches,
  ) {
    super(sql, text);
  }

  /** A checkpoint read on this thread: its row, touches and terms. */
  putRecord(scope: number, fileName: string, st: Stat, rec: IndexRecord): void {
    const id = this.put(
      scope,
      fileName,
      st,
      { ...rec, failed: rec.failed.join('\n') },
      rec.paths.map((raw) => this.paths.idOfRaw(raw)),
    );
    if (rec.search) this.text.put('checkpoint', id, rec.search);
  }

  /**
   * One checkpoint row, and its touches; `pathIds` are its paths in the order
   * written (null: normalised to nothing). Its id is returned for its terms.
   */
  put(scope: number, fileName: string, st: Stat, rec: RowFields, pathIds: (number | null)[]): number {
    const id = this.next++;
    const written: number[] = [];
    if (!rec.empty) {
      // `why` never shows an empty checkpoint, so it is given no touches.
      // A path is kept once per checkpoint, by its normalised form (one id per form).
      for (const pid of pathIds) {
        if (pid === null || written.includes(pid)) continue;
        written.push(pid);
        this.paths.add(pid, rec.ts, id);
      }
    }
    this.sql.run('INSERT INTO checkpoints(id, scope, name, mtime, size, agent, machine, person, ts, task, empty, paths, failed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', [
      id,
      scope,
      fileName.slice(0, -3),
      st.mtime,
      st.size,
      rec.agent,
      rec.machine,
      rec.person,
      rec.ts,
      rec.task,
      rec.empty ? 1 : 0,
      packIds(written),
      rec.failed,
    ]);
    return id;
  }

  remove(cp: StoredCheckpoint): void {
    for (const pid of unpackIds(cp.paths)) this.paths.remove(pid, cp.id);
    this.sql.run('DELETE FROM checkpoints WHERE id = ?', [cp.id]);
    this.text.remove('checkpoint', cp.id);
  }
}

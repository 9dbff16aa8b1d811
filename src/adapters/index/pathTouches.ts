// The paths table's side of a refresh: every touched path gets one id (its
// normalised form, stored reversed), and the checkpoints added to and removed
// from each path are gathered in memory, then written once per path before the
// commit: a cold build is one insert per distinct path, not one per touch.
import { normalizeTouchPath } from '../../core/touching';
import type { Statements } from './statements';
import { reversed } from './touchQuery';
import { flatPairs, splitPairs } from './touches';

/** One path's touches added and removed in a refresh: added as flat (ts, checkpoint) pairs. */
interface TouchChange {
  add: number[];
  remove: Set<number> | null;
}

export class PathTouches {
  private pathIds = new Map<string, number>();
  private rawPathIds = new Map<string, number | null>();
  private nextPath = 1;
  /** True when every path in the database is in `pathIds` (it was empty when loaded). */
  private pathsComplete = false;
  /** Paths met in this refresh that the database does not have yet. */
  private newPaths = new Map<number, string>();
  /** Touches added and removed in this refresh, per path id. */
  private touchChanges = new Map<number, TouchChange>();

  constructor(private readonly sql: Statements) {}

  /** Forgets what it holds (after a load or a rollback); `nextPath` is the next free id. */
  reset(nextPath: number): void {
    this.pathIds = new Map();
    this.rawPathIds = new Map();
    this.nextPath = nextPath;
    this.pathsComplete = nextPath === 1;
    this.newPaths = new Map();
    this.touchChanges = new Map();
  }

  get empty(): boolean {
    return this.nextPath === 1;
  }

  /** The id of a path as it appears in a file (the same few spellings recur across a project); null for one that normalises to nothing. */
  idOfRaw(raw: string): number | null {
    let id = this.rawPathIds.get(raw);
    if (id === undefined) {
      const p = normalizeTouchPath(raw);
      id = p ? this.pathId(p) : null;
      this.rawPathIds.set(raw, id);
    }
    return id;
  }

  add(pid: number, ts: number, checkpoint: number): void {
    this.changesOf(pid).add.push(ts, checkpoint);
  }

  remove(pid: number, checkpoint: number): void {
    (this.changesOf(pid).remove ??= new Set()).add(checkpoint);
  }

  /** Writes this refresh's touches: one row per new path, one rewrite per changed one. */
  write(): void {
    for (const [pid, change] of this.touchChanges) {
      const fresh = this.newPaths.get(pid);
      if (fresh !== undefined) {
        this.sql.run('INSERT INTO paths(id, rmatch, head, rest) VALUES (?, ?, ?, ?)', [pid, fresh, ...splitPairs(change.add, change.remove)]);
        this.newPaths.delete(pid);
        continue;
      }
      const row = this.sql.rows<[Uint8Array, Uint8Array]>('SELECT head, rest FROM paths WHERE id = ?', [pid])[0];
      if (!row) continue;
      const flat = flatPairs(row[1], flatPairs(row[0]));
      this.sql.run('UPDATE paths SET head = ?, rest = ? WHERE id = ?', [...splitPairs(flat.concat(change.add), change.remove), pid]);
    }
    for (const [pid, fresh] of this.newPaths) this.sql.run('INSERT INTO paths(id, rmatch, head, rest) VALUES (?, ?, ?, ?)', [pid, fresh, ...splitPairs([], null)]);
    this.newPaths.clear();
    this.touchChanges.clear();
  }

  private changesOf(pid: number): TouchChange {
    let c = this.touchChanges.get(pid);
    if (!c) {
      c = { add: [], remove: null };
      this.touchChanges.set(pid, c);
    }
    return c;
  }

  /** The id of a path as written (normalised), new ids for paths the database lacks. */
  private pathId(p: string): number {
    const cached = this.pathIds.get(p);
    if (cached !== undefined) return cached;
    const rmatch = reversed(p);
    let id = this.pathsComplete ? undefined : this.sql.rows<[number]>('SELECT id FROM paths WHERE rmatch = ?', [rmatch])[0]?.[0];
    if (id === undefined) {
      id = this.nextPath++;
      this.newPaths.set(id, rmatch);
    }
    this.pathIds.set(p, id);
    return id;
  }
}

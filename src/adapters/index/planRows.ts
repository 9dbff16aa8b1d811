// The index's rows of plans (`sessions/<scope>/plans/plan-*.md`), kept for
// full-text search. A scope's `plans/` folder is re-read only when its mtime
// moved, and looked at only when the scope folder's listing showed one
// (creating it moves the scope folder's mtime), so a scope without plans
// costs a refresh nothing.
import * as path from 'path';
import * as fs from 'fs';
import { parsePlan } from '../markdown/checkpointFile';
import { WHOLE_CAP } from '../vault/checkpointText';
import { PLANS_DIR } from '../vault/fsVault';
import { TextRows } from './textRows';
import { LISTING_COST, RACY_MS, readCapped, statOf } from './vaultFiles';

/** What PlanRows needs of a scope row (indexWriter.ts). */
interface PlanScope {
  id: number;
  name: string;
  dir: string;
  /** The `plans/` folder's mtime when trusted (-1: rescan it); null when the scope had none. */
  plans: number | null;
}

export class PlanRows extends TextRows {
  /**
   * Brings a scope's plans up to date. `listed`: whether the scope folder's
   * listing, read just now, held `plans/` (null: the folder did not change, so
   * neither did that). `work` is the bytes a saved copy would spare.
   */
  refresh(scope: PlanScope, listed: boolean | null): { changed: boolean; work: number } {
    if (listed === null ? scope.plans === null : !listed) {
      if (scope.plans === null) return { changed: false, work: 0 };
      this.forget(scope);
      this.setMtime(scope, null);
      return { changed: true, work: 0 };
    }
    const dir = scope.dir + path.sep + PLANS_DIR;
    const st = statOf(dir);
    if (st && scope.plans === st.mtime) return { changed: false, work: 0 };
    let work = LISTING_COST;
    const stored = new Map<string, { id: number; mtime: number; size: number }>();
    for (const [id, name, mtime, size] of this.sql.rows<[number, string, number, number]>('SELECT id, name, mtime, size FROM plans WHERE scope = ?', [scope.id])) {
      stored.set(name, { id, mtime, size });
    }
    let files: string[] = [];
    try {
      files = fs.readdirSync(dir).filter((n) => n.startsWith('plan-') && n.endsWith('.md'));
    } catch {
      // an unreadable folder holds no plans we can see
    }
    let changed = false;
    const drop = (id: number): void => {
      this.sql.run('DELETE FROM plans WHERE id = ?', [id]);
      this.text.remove('plan', id);
      changed = true;
    };
    const names = new Set(files.map((f) => f.slice(0, -3)));
    for (const [name, p] of stored) if (!names.has(name)) drop(p.id);
    for (const name of names) {
      const prev = stored.get(name);
      const read = readCapped(dir + path.sep + name + '.md', WHOLE_CAP);
      if (!read || (prev && prev.mtime === read.stat.mtime && prev.size === read.stat.size)) continue;
      if (prev) drop(prev.id);
      work += read.stat.size;
      const plan = parsePlan(read.text, name, scope.name);
      const id = this.next++;
      this.sql.run('INSERT INTO plans(id, scope, name, mtime, size, agent, ts, title) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
        id,
        scope.id,
        name,
        read.stat.mtime,
        read.stat.size,
        plan.agent,
        plan.ts,
        plan.title,
      ]);
      this.text.put('plan', id, plan.text);
      changed = true;
    }
    this.setMtime(scope, st && Date.now() - st.mtime > RACY_MS ? st.mtime : -1);
    return { changed, work };
  }

  forget(scope: PlanScope): void {
    for (const [id] of this.sql.rows<[number]>('SELECT id FROM plans WHERE scope = ?', [scope.id])) this.text.remove('plan', id);
    this.sql.run('DELETE FROM plans WHERE scope = ?', [scope.id]);
  }

  private setMtime(scope: PlanScope, mtime: number | null): void {
    scope.plans = mtime;
    this.sql.run('UPDATE scopes SET plans_mtime = ? WHERE id = ?', [mtime, scope.id]);
  }
}

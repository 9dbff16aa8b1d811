// What full-text search (adapters/search/query.ts) asks of the index's
// records: which checkpoints, notes and plans a filter lets through, their
// times, and a hit's row and text, read back from its file (the text index
// stores no text), so the snippet shows the words as written.
import * as path from 'path';
import type { TextQuery } from '../../core/ports';
import { checkpointSearchFields, type SearchKind } from '../../core/searchText';
import { sessionId } from '../../core/sessions';
import { parseCheckpointFields, parsePlan } from '../markdown/checkpointFile';
import type { FoundRecord, SearchRecords } from '../search';
import { readCheckpointTextSync, WHOLE_CAP } from '../vault/checkpointText';
import { PLANS_DIR, type FsVault } from '../vault/fsVault';
import type { Statements } from './statements';
import { readCapped } from './vaultFiles';

/** Each kind's table and its id column. */
const TABLE: Record<SearchKind, { table: string; id: string }> = {
  checkpoint: { table: 'checkpoints', id: 'id' },
  note: { table: 'notes', id: 'rowid' },
  plan: { table: 'plans', id: 'id' },
};

export class IndexRecords implements SearchRecords {
  constructor(
    private readonly vault: FsVault,
    private readonly sql: Statements,
    private readonly scopeNames: () => ReadonlyMap<number, string>,
  ) {}

  eachAllowed(q: TextQuery, allow: (kind: SearchKind, id: number) => void): boolean {
    if (q.project === undefined && !q.agent && q.since === undefined) return false;
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (q.project !== undefined) {
      const p = q.project;
      const ids = [...this.scopeNames()].filter(([, name]) => name === p || name.startsWith(`${p}/`)).map(([id]) => id);
      where.push(`scope IN (${ids.join(', ')})`);
    }
    if (q.agent) {
      where.push('agent = ?');
      params.push(q.agent);
    }
    if (q.since !== undefined) {
      where.push('ts >= ?');
      params.push(q.since);
    }
    for (const kind of q.kinds ?? (['checkpoint', 'note', 'plan'] as const)) {
      const { table, id } = TABLE[kind];
      // The scope list varies with the project asked: a statement of its own, freed after (Statements.once).
      for (const [row] of this.sql.once<[number]>(`SELECT ${id} FROM ${table} WHERE ${where.join(' AND ')}`, params)) allow(kind, row);
    }
    return true;
  }

  times(kind: SearchKind, ids: number[]): Map<number, number> {
    const { table, id } = TABLE[kind];
    const out = new Map<number, number>();
    // One kept statement asked per id (a hit list's few dozen): an IN list's text differs every search.
    for (const row of ids) {
      const ts = this.sql.rows<[number]>(`SELECT ts FROM ${table} WHERE ${id} = ?`, [row])[0]?.[0];
      if (ts !== undefined) out.set(row, ts);
    }
    return out;
  }

  found(kind: SearchKind, id: number): FoundRecord | null {
    const r =
      kind === 'checkpoint'
        ? this.sql.rows<[number, string, number, string, string]>('SELECT scope, agent, ts, name, task FROM checkpoints WHERE id = ?', [id])[0]
        : kind === 'note'
          ? this.sql.rows<[number, string, number, string, string]>("SELECT scope, agent, ts, '', text FROM notes WHERE rowid = ?", [id])[0]
          : this.sql.rows<[number, string, number, string, string]>('SELECT scope, agent, ts, name, title FROM plans WHERE id = ?', [id])[0];
    if (!r) return null;
    const [scope, agent, ts, name, title] = r;
    const project = this.scopeNames().get(scope) ?? '';
    let session = name;
    let slug = `sessions/${project}/${name}`;
    if (kind === 'note') {
      // Its session is its agent's on its machine (core/sessions.ts openSessions).
      const first =
        this.sql.rows<[number]>('SELECT MIN(ts) FROM notes WHERE scope = ? AND agent = ? AND machine = (SELECT machine FROM notes WHERE rowid = ?)', [scope, agent, id])[0]?.[0] ??
        ts;
      session = sessionId(first, agent);
      slug = `sessions/${project}/uncommitted`;
    } else if (kind === 'plan') slug = `sessions/${project}/plans/${name}`;
    return { project, agent, ts, session, slug, title, fields: this.fields(kind, name, title, project) };
  }

  /** A hit's text as fields, read back for its snippet. */
  private fields(kind: SearchKind, name: string, text: string, project: string): string[] | null {
    if (kind === 'note') return [text];
    const dir = this.vault.scopeDir(project);
    if (kind === 'checkpoint') {
      const read = readCheckpointTextSync(path.join(dir, `${name}.md`));
      // The fields as the parser reads them: the same words as the stretches the index cut them from (core/searchText.ts).
      return read ? checkpointSearchFields(parseCheckpointFields(read.text)) : null;
    }
    const read = readCapped(path.join(dir, PLANS_DIR, `${name}.md`), WHOLE_CAP);
    return read ? [parsePlan(read.text, name, project).text] : null;
  }
}

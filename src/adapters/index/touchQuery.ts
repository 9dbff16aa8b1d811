// "Which checkpoints touched this file", answered from the paths table: only
// the paths the contract's rule can match are looked up, and of each only the
// newest few checkpoints are read.
import type { SqlValue } from 'sql.js';
import type { Touch } from '../../core/model';
import { normalizeTouchPath } from '../../core/touching';
import type { Statements } from './statements';
import { HEAD_ENTRIES, touchAt, touchCount, unpackIds } from './touches';

/**
 * Checkpoints that touched `query`, newest first. With a `limit`, only the
 * newest `limit` are looked at: per matching path the index is read newest
 * first and stops once it has `limit` (and every tie of the last one), so the
 * cost does not grow with how often a popular file was touched.
 */
export function touching(db: Statements, scopeNames: ReadonlyMap<number, string>, query: string, limit = Infinity): Touch[] {
  const wanted = normalizeTouchPath(query);
  if (!wanted || !(limit > 0)) return [];
  // Matching paths: the query itself or one of its trailing whole-segment
  // parts, or any path ending in "/" + the query (a prefix of its reversal).
  const found = new Map<number, { head: Uint8Array; written: string }>();
  const collect = (sql: string, params: SqlValue[]): void => {
    for (const [id, rmatch, head] of db.rows<[number, string, Uint8Array]>(sql, params)) found.set(id, { head, written: reversed(rmatch) });
  };
  for (let i = 0; i >= 0;) {
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
        const rest = db.rows<[Uint8Array]>('SELECT rest FROM paths WHERE id = ?', [pid])[0]?.[0];
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
    const row = db.rows<[number, string, string, number, string, Uint8Array]>('SELECT scope, name, agent, ts, task, paths FROM checkpoints WHERE id = ?', [cp])[0];
    if (!row) continue;
    const [scopeId, session, agent, ts, task, written] = row;
    // The path shown is the first the checkpoint wrote that matches.
    let pid = hit.paths[0];
    if (hit.paths.length > 1) {
      const order = unpackIds(written);
      pid = hit.paths.reduce((best, p) => (order.indexOf(p) < order.indexOf(best) ? p : best), pid);
    }
    const matched = found.get(pid)?.written ?? '';
    const scope = scopeNames.get(scopeId) ?? '';
    out.push({ session, project: scope, agent, task, matched, ts, slug: `sessions/${scope}/${session}` });
  }
  out.sort((a, b) => b.ts - a.ts || cmp(b.session, a.session) || cmp(b.slug, a.slug));
  return Number.isFinite(limit) ? out.slice(0, limit) : out;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Reversed code point by code point, so a surrogate pair stays a pair. */
export function reversed(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(s)) {
    let out = '';
    for (let i = s.length - 1; i >= 0; i--) out += s[i];
    return out;
  }
  return Array.from(s).reverse().join('');
}

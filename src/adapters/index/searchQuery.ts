// Full-text search over the text index (textIndex.ts): each query term's
// posting lists are read in one call and scored here.
//
// Ranking is BM25 (k1 1.2, b 0.75) over a checkpoint's fields taken as one
// text, the Task counting double; hits holding more of the query's terms come
// first whatever their BM25, and the newer breaks a tie. Scores live in typed
// arrays indexed by docid, kept between queries, so a word held by most of a
// 100k vault costs one pass over its list.
//
// The text of the few hits shown is read back (their checkpoint or plan file,
// the note's row) to tell which field matched and cut the snippet
// (core/searchSnippet.ts).
import { sessionId } from '../../core/sessions';
import { DEAD_END_MARK, termOf } from '../../core/searchTerms';
import { snippetOf } from '../../core/searchSnippet';
import { SEARCH_FIELDS, SEARCH_KINDS, type SearchField, type SearchKind } from '../../core/searchText';
import type { TextHit, TextQuery } from '../../core/ports';
import { DOC_KIND } from './schema';
import { CHUNK } from './docLengths';
import { eachPosting } from './postings';
import type { Statements } from './statements';
import type { TextIndex } from './textIndex';

const LENGTH_SHIFT = Math.log2(CHUNK);
const LENGTH_MASK = CHUNK - 1;
const K1 = 1.2;
const B = 0.75;
/** A hit's key: the terms it holds first, then its BM25 (far below this per term). */
const PER_TERM = 1e6;
/** Words too common to count as a matched word when the query has others (core/deadEnds.ts drops its own). */
const STOP = new Set(['the', 'a', 'an', 'of', 'to', 'in', 'on', 'for', 'and', 'or', 'is', 'it', 'with', 'by', 'at', 'as', 'be']);

const KIND_OF = new Map<number, SearchKind>(SEARCH_KINDS.map((k) => [DOC_KIND[k], k]));

/** A record's row, and its text as fields (null: it could not be read). */
export interface RecordRow {
  scope: number;
  agent: string;
  ts: number;
  name: string;
  title: string;
}
export type ReadFields = (kind: SearchKind, row: RecordRow, project: string) => string[] | null;

/** Scores by docid, kept between queries: only the entries a query touched are cleared. */
export class SearchScratch {
  scores = new Float64Array(0);
  touched = new Int32Array(1024);
  count = 0;

  fit(maxDoc: number): void {
    if (this.scores.length <= maxDoc) this.scores = new Float64Array(Math.ceil((maxDoc + 1) * 1.25) + 64);
  }

  touch(docid: number): void {
    if (this.count === this.touched.length) {
      const next = new Int32Array(this.touched.length * 2);
      next.set(this.touched);
      this.touched = next;
    }
    this.touched[this.count++] = docid;
  }

  clear(): void {
    for (let i = 0; i < this.count; i++) this.scores[this.touched[i]] = 0;
    this.count = 0;
  }
}

/** The query's terms (stop words dropped when others remain), and the lists to read: in Didn't work only, its own. */
function termsOf(q: TextQuery): { terms: string[]; lists: string[] } {
  const all = [...new Set(q.words.map(termOf).filter((t) => t !== ''))];
  const kept = all.filter((t) => !STOP.has(t));
  const terms = kept.length > 0 ? kept : all;
  return { terms, lists: q.field === 'failed' ? terms.map((t) => DEAD_END_MARK + t) : terms };
}

export function searchText(sql: Statements, text: TextIndex, scratch: SearchScratch, scopeNames: ReadonlyMap<number, string>, read: ReadFields, q: TextQuery): TextHit[] {
  if (q.words.length === 0 || q.limit <= 0) return [];
  const { terms, lists: asked } = termsOf(q);
  if (terms.length === 0) return [];
  const allowed = allowedDocs(sql, scopeNames, q, text.maxDoc);
  const kinds = new Uint8Array(4).fill(1);
  if (q.kinds) {
    kinds.fill(0);
    for (const k of q.kinds) kinds[DOC_KIND[k]] = 1;
  }
  const { docs, avgLength } = text.corpus();
  const dead = text.deadDocs();
  const lengths = text.lengths.every();
  const filtered = q.kinds !== undefined || allowed !== null || dead !== null;
  scratch.fit(text.maxDoc);
  const { scores } = scratch;
  try {
    for (const term of asked) {
      const { lists, postings } = text.listsOf(term);
      if (lists.length === 0) continue;
      const idf = Math.log(1 + (docs - postings + 0.5) / (postings + 0.5));
      const norm = K1 * (1 - B);
      const perLength = (K1 * B) / avgLength;
      const visit = (docid: number, tf: number): void => {
        if (filtered && (kinds[docid & 3] === 0 || (allowed !== null && allowed[docid] === 0) || (dead !== null && dead[docid] === 1))) return;
        const len = lengths[docid >> LENGTH_SHIFT]?.[docid & LENGTH_MASK] ?? avgLength;
        if (scores[docid] === 0) scratch.touch(docid);
        // The matched term itself counts PER_TERM, so a hit with more terms ranks first whatever its BM25.
        scores[docid] += PER_TERM + idf * ((tf * (K1 + 1)) / (tf + norm + perLength * len));
      };
      for (const bytes of lists) eachPosting(bytes, visit);
    }
    const best = top(sql, scratch, q.limit);
    const wanted = new Set(terms);
    return best.map((c) => hitOf(sql, scopeNames, read, c, wanted, q.field));
  } finally {
    scratch.clear();
  }
}

interface Candidate {
  docid: number;
  key: number;
  ts: number;
}

/**
 * The best `limit` by key, the newer first among equals: a row's time is read
 * only for the candidates tied with the last one kept.
 */
function top(sql: Statements, scratch: SearchScratch, limit: number): Candidate[] {
  const { scores, touched, count } = scratch;
  if (count === 0) return [];
  // The limit-th best key, by a selection over a copy of the keys (no sort of every match).
  const keys = new Float64Array(count);
  for (let i = 0; i < count; i++) keys[i] = scores[touched[i]];
  const threshold = count <= limit ? -Infinity : kthLargest(keys, limit);
  const above: Candidate[] = [];
  const tied: Candidate[] = [];
  for (let i = 0; i < count; i++) {
    const docid = touched[i];
    const key = scores[docid];
    if (key > threshold) above.push({ docid, key, ts: -1 });
    else if (key === threshold) tied.push({ docid, key, ts: -1 });
  }
  const needTimes = count <= limit ? above : tied.length + above.length > limit ? tied : [];
  withTimes(sql, needTimes);
  const order = (a: Candidate, b: Candidate): number => b.key - a.key || b.ts - a.ts || b.docid - a.docid;
  return [...above, ...tied].sort(order).slice(0, limit);
}

/** The k-th largest of `a` (1-based), by quickselect; `a` is reordered. */
function kthLargest(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  const want = k - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] > pivot) i++;
      while (a[j] < pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (want <= j) hi = j;
    else if (want >= i) lo = i;
    else return a[want];
  }
  return a[want];
}

/** Each candidate's time, read in batches. */
function withTimes(sql: Statements, cs: Candidate[]): void {
  const byKind = new Map<number, Candidate[]>();
  for (const c of cs) {
    const list = byKind.get(c.docid % 4) ?? [];
    list.push(c);
    byKind.set(c.docid % 4, list);
  }
  for (const [kind, list] of byKind) {
    const table = kind === DOC_KIND.checkpoint ? 'checkpoints WHERE id' : kind === DOC_KIND.note ? 'notes WHERE rowid' : 'plans WHERE id';
    const key = kind === DOC_KIND.note ? 'rowid' : 'id';
    for (let i = 0; i < list.length; i += 500) {
      const part = list.slice(i, i + 500);
      const ts = new Map(sql.rows<[number, number]>(`SELECT ${key}, ts FROM ${table} IN (${part.map((c) => Math.floor(c.docid / 4)).join(', ')})`));
      for (const c of part) c.ts = ts.get(Math.floor(c.docid / 4)) ?? 0;
    }
  }
}

/** The docids a filter on scope, agent or time lets through, as a map by docid; null when there is none. */
function allowedDocs(sql: Statements, scopeNames: ReadonlyMap<number, string>, q: TextQuery, maxDoc: number): Uint8Array | null {
  if (q.project === undefined && !q.agent && q.since === undefined) return null;
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (q.project !== undefined) {
    const p = q.project;
    const ids = [...scopeNames].filter(([, name]) => name === p || name.startsWith(`${p}/`)).map(([id]) => id);
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
  const cond = where.join(' AND ');
  const out = new Uint8Array(maxDoc + 1);
  const add = (sqlText: string, kind: SearchKind): void => {
    for (const [id] of sql.rows<[number]>(sqlText, params)) {
      const d = id * 4 + DOC_KIND[kind];
      if (d <= maxDoc) out[d] = 1;
    }
  };
  if (!q.kinds || q.kinds.includes('checkpoint')) add(`SELECT id FROM checkpoints WHERE ${cond}`, 'checkpoint');
  if (!q.kinds || q.kinds.includes('note')) add(`SELECT rowid FROM notes WHERE ${cond}`, 'note');
  if (!q.kinds || q.kinds.includes('plan')) add(`SELECT id FROM plans WHERE ${cond}`, 'plan');
  return out;
}

function rowOf(sql: Statements, kind: SearchKind, id: number): RecordRow | null {
  const r =
    kind === 'checkpoint'
      ? sql.rows<[number, string, number, string, string]>('SELECT scope, agent, ts, name, task FROM checkpoints WHERE id = ?', [id])[0]
      : kind === 'note'
        ? sql.rows<[number, string, number, string, string]>("SELECT scope, agent, ts, '', text FROM notes WHERE rowid = ?", [id])[0]
        : sql.rows<[number, string, number, string, string]>('SELECT scope, agent, ts, name, title FROM plans WHERE id = ?', [id])[0];
  return r ? { scope: r[0], agent: r[1], ts: r[2], name: r[3], title: r[4] } : null;
}

function hitOf(sql: Statements, scopeNames: ReadonlyMap<number, string>, read: ReadFields, c: Candidate, terms: ReadonlySet<string>, only?: SearchField): TextHit {
  const kind = KIND_OF.get(c.docid % 4) ?? 'checkpoint';
  const id = Math.floor(c.docid / 4);
  const row = rowOf(sql, kind, id) ?? { scope: 0, agent: '', ts: c.ts, name: '', title: '' };
  const project = scopeNames.get(row.scope) ?? '';
  const fields = read(kind, row, project) ?? [];
  const column = kind === 'checkpoint' && only ? SEARCH_FIELDS.indexOf(only) : undefined;
  const cut = snippetOf(fields, terms, column);
  const field: SearchField = kind === 'checkpoint' ? (SEARCH_FIELDS[cut.field] ?? 'task') : 'state';
  let session = row.name;
  let slug = `sessions/${project}/${row.name}`;
  if (kind === 'note') {
    const first = sql.rows<[number]>('SELECT MIN(ts) FROM notes WHERE scope = ? AND agent = ?', [row.scope, row.agent])[0]?.[0] ?? row.ts;
    session = sessionId(first, row.agent);
    slug = `sessions/${project}/uncommitted`;
  } else if (kind === 'plan') slug = `sessions/${project}/plans/${row.name}`;
  const matched = Math.floor(c.key / PER_TERM);
  return {
    kind,
    project,
    agent: row.agent,
    ts: row.ts,
    session,
    slug,
    title: row.title,
    field,
    snippet: cut.snippet,
    marks: cut.marks,
    matched,
    score: Math.round((c.key - matched * PER_TERM) * 1000) / 1000,
  };
}

// Full-text search over the index's `fts` table (FTS4, porter; schema.ts).
//
// Every word is quoted as a phrase of its own, so nothing typed reaches FTS's
// query syntax (the words come from `queryWords`, which keeps only letters and
// digits). Ranking is BM25 (k1 1.2, b 0.75) per column from `matchinfo`, the
// Task counting double; hits holding more of the query's words come first
// whatever their BM25, and recency breaks ties. The 'y' and 'l' matchinfo
// flags are read per row and 'n', 'a' and 'x' once per query
// (sqlite.org/fts3.html#matchinfo): 'x' is per phrase over the whole table,
// the same in every row.
//
// All the words are asked first; only when that finds fewer than the limit are
// rows holding some of them scored too, so a precise question costs the few
// rows it matches, not every row that shares one common word.
import { sessionId } from '../../core/sessions';
import { SEARCH_FIELDS, SEARCH_KINDS, type SearchField, type SearchKind } from '../../core/searchText';
import type { TextHit, TextQuery } from '../../core/ports';
import { DOC_KIND } from './schema';
import type { Statements } from './statements';

const K1 = 1.2;
const B = 0.75;
const WEIGHTS = SEARCH_FIELDS.map((f) => (f === 'task' ? 2 : 1));
const COLUMNS = SEARCH_FIELDS.length;
/** Private marks around matched words in a snippet (searchable() keeps them out of the text). */
const OPEN = '\u0002';
const CLOSE = '\u0003';
const SNIPPET_TOKENS = 24;

const KIND_OF = new Map<number, SearchKind>(SEARCH_KINDS.map((k) => [DOC_KIND[k], k]));

/**
 * Each word a quoted phrase (the words hold no quote: see queryWords). In one
 * column it is `column:word`, bare: this SQLite (3.49, sql.js 1.17) reads
 * `column:"word"` as something else (tried: one phrase for the whole query, or
 * no rows), and a lower-case word of letters and digits is never an operator
 * (those are upper case: AND, OR, NOT, NEAR).
 */
const phrases = (words: string[], joiner: string, field?: SearchField): string => words.map((w) => (field ? `${field}:${w}` : `"${w}"`)).join(joiner);

interface Candidate {
  docid: number;
  ts: number;
  matched: number;
  score: number;
  field: number;
}

/** The table-wide figures BM25 needs: rows, average length per column, rows holding each phrase per column. */
interface Globals {
  /** Phrases in the query, as FTS parsed it. */
  phrases: number;
  rows: number;
  avg: number[];
  /** [phrase * COLUMNS + column]: rows with the phrase in that column. */
  df: number[];
}

export function searchText(sql: Statements, scopeNames: ReadonlyMap<number, string>, q: TextQuery): TextHit[] {
  if (q.words.length === 0 || q.limit <= 0) return [];
  const any = phrases(q.words, ' OR ', q.field);
  const globals = globalsOf(sql, any);
  if (!globals) return [];
  const filter = filterSql(scopeNames, q);
  let found = candidates(sql, phrases(q.words, ' ', q.field), filter, globals);
  if (found.length < q.limit && q.words.length > 1) found = candidates(sql, any, filter, globals);
  return best(sql, found, q.limit).map((c) => hitOf(sql, scopeNames, any, c));
}

const byRelevance = (a: Candidate, b: Candidate): number => b.matched - a.matched || b.score - a.score;

/**
 * The best `limit`, recency breaking ties. A row's time is read only for the
 * candidates tied with the last one kept (a query without filters reads no
 * other table for its thousands of rows).
 */
function best(sql: Statements, found: Candidate[], limit: number): Candidate[] {
  found.sort((a, b) => byRelevance(a, b) || b.docid - a.docid);
  if (found.length <= limit) return withTimes(sql, found).sort((a, b) => byRelevance(a, b) || b.ts - a.ts || b.docid - a.docid);
  const last = found[limit - 1];
  let end = limit;
  while (end < found.length && byRelevance(found[end], last) === 0) end++;
  let start = limit - 1;
  while (start > 0 && byRelevance(found[start - 1], last) === 0) start--;
  const tied = withTimes(sql, found.slice(start, end)).sort((a, b) => b.ts - a.ts || b.docid - a.docid);
  return [...found.slice(0, start), ...tied].slice(0, limit);
}

function withTimes(sql: Statements, cs: Candidate[]): Candidate[] {
  for (const c of cs) if (c.ts < 0) c.ts = rowOf(sql, KIND_OF.get(c.docid % 4) ?? 'checkpoint', Math.floor(c.docid / 4))?.ts ?? 0;
  return cs;
}

function globalsOf(sql: Statements, match: string): Globals | null {
  const row = sql.rows<[Uint8Array]>("SELECT matchinfo(fts, 'pcnax') AS mi FROM fts WHERE fts MATCH ? LIMIT 1", [match])[0];
  if (!row) return null;
  const m = ints(row[0]);
  // p c n a[c] x[3*c*p]
  const phrases = m[0];
  const rows = m[2];
  const avg = Array.from(m.subarray(3, 3 + COLUMNS));
  const df: number[] = [];
  for (let i = 0; i < phrases * COLUMNS; i++) df.push(m[3 + COLUMNS + i * 3 + 2]);
  return { phrases, rows, avg, df };
}

interface Filter {
  where: string;
  params: (string | number)[];
  /** Whether the filter needs the row of each match (its scope, agent or time), not only its docid. */
  rows: boolean;
}

/** The request's filters as SQL over the row's kind, scope, agent and time (ids inlined: they are numbers). */
function filterSql(scopeNames: ReadonlyMap<number, string>, q: TextQuery): Filter {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (q.kinds && q.kinds.length < SEARCH_KINDS.length) where.push(`kind IN (${q.kinds.map((k) => DOC_KIND[k]).join(', ')})`);
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
  return { where: where.length ? `WHERE ${where.join(' AND ')}` : '', params, rows: params.length > 0 || q.project !== undefined };
}

const CANDIDATES = `SELECT docid, mi, ts FROM (
  SELECT fts.docid AS docid, matchinfo(fts, 'yl') AS mi, fts.docid % 4 AS kind,
    CASE fts.docid % 4 WHEN 0 THEN c.scope WHEN 1 THEN n.scope ELSE p.scope END AS scope,
    CASE fts.docid % 4 WHEN 0 THEN c.agent WHEN 1 THEN n.agent ELSE p.agent END AS agent,
    CASE fts.docid % 4 WHEN 0 THEN c.ts WHEN 1 THEN n.ts ELSE p.ts END AS ts
  FROM fts
  LEFT JOIN checkpoints c ON fts.docid % 4 = 0 AND c.id = fts.docid / 4
  LEFT JOIN notes n ON fts.docid % 4 = 1 AND n.rowid = fts.docid / 4
  LEFT JOIN plans p ON fts.docid % 4 = 2 AND p.id = fts.docid / 4
  WHERE fts MATCH ?)`;

/** Without a filter on the rows, the docids alone: no join for each of the (maybe many) matches. */
const BARE = "SELECT docid, mi, -1 AS ts FROM (SELECT docid, matchinfo(fts, 'yl') AS mi, docid % 4 AS kind FROM fts WHERE fts MATCH ?)";

function candidates(sql: Statements, match: string, filter: Filter, g: Globals): Candidate[] {
  const out: Candidate[] = [];
  sql.each<[number, Uint8Array, number]>(`${filter.rows ? CANDIDATES : BARE} ${filter.where}`, [match, ...filter.params], ([docid, mi, ts]) => {
    out.push({ docid, ts, ...score(ints(mi), g) });
    return true;
  });
  return out;
}

/** BM25 of one row from its 'yl' matchinfo: y[phrase * COLUMNS + column] hits, then l[column] lengths. */
function score(m: Int32Array, g: Globals): { matched: number; score: number; field: number } {
  const phraseCount = g.phrases;
  let matched = 0;
  let total = 0;
  const byColumn = new Array<number>(COLUMNS).fill(0);
  for (let p = 0; p < phraseCount; p++) {
    let here = false;
    for (let c = 0; c < COLUMNS; c++) {
      const tf = m[p * COLUMNS + c];
      if (tf === 0) continue;
      here = true;
      const df = g.df[p * COLUMNS + c];
      const idf = Math.log(1 + (g.rows - df + 0.5) / (df + 0.5));
      const len = m[phraseCount * COLUMNS + c];
      const avg = g.avg[c] || 1;
      const s = WEIGHTS[c] * idf * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * len) / avg)));
      byColumn[c] += s;
      total += s;
    }
    if (here) matched += 1;
  }
  let field = 0;
  for (let c = 1; c < COLUMNS; c++) if (byColumn[c] > byColumn[field]) field = c;
  return { matched, score: total, field };
}

function ints(blob: Uint8Array): Int32Array {
  // matchinfo is an array of native-order 32-bit integers (little-endian in WASM); copied to be aligned.
  return new Int32Array(blob.slice().buffer);
}

interface Row {
  scope: number;
  agent: string;
  ts: number;
  name: string;
  title: string;
}

function rowOf(sql: Statements, kind: SearchKind, id: number): Row | null {
  const r =
    kind === 'checkpoint'
      ? sql.rows<[number, string, number, string, string]>('SELECT scope, agent, ts, name, task FROM checkpoints WHERE id = ?', [id])[0]
      : kind === 'note'
        ? sql.rows<[number, string, number, string, string]>("SELECT scope, agent, ts, '', text FROM notes WHERE rowid = ?", [id])[0]
        : sql.rows<[number, string, number, string, string]>('SELECT scope, agent, ts, name, title FROM plans WHERE id = ?', [id])[0];
  return r ? { scope: r[0], agent: r[1], ts: r[2], name: r[3], title: r[4] } : null;
}

function hitOf(sql: Statements, scopeNames: ReadonlyMap<number, string>, match: string, c: Candidate): TextHit {
  const kind = KIND_OF.get(c.docid % 4) ?? 'checkpoint';
  const id = Math.floor(c.docid / 4);
  const row = rowOf(sql, kind, id) ?? { scope: 0, agent: '', ts: c.ts, name: '', title: '' };
  const project = scopeNames.get(row.scope) ?? '';
  const field: SearchField = kind === 'checkpoint' ? SEARCH_FIELDS[c.field] : 'state';
  const column = SEARCH_FIELDS.indexOf(field);
  const raw =
    sql.rows<[string]>(`SELECT snippet(fts, '${OPEN}', '${CLOSE}', '…', ?, ${SNIPPET_TOKENS}) FROM fts WHERE fts MATCH ? AND docid = ?`, [column, match, c.docid])[0]?.[0] ?? '';
  const { snippet, marks } = unmark(raw);
  let session = row.name;
  let slug = `sessions/${project}/${row.name}`;
  if (kind === 'note') {
    const first = sql.rows<[number]>('SELECT MIN(ts) FROM notes WHERE scope = ? AND agent = ?', [row.scope, row.agent])[0]?.[0] ?? row.ts;
    session = sessionId(first, row.agent);
    slug = `sessions/${project}/uncommitted`;
  } else if (kind === 'plan') slug = `sessions/${project}/plans/${row.name}`;
  return {
    kind,
    project,
    agent: row.agent,
    ts: row.ts,
    session,
    slug,
    title: row.title,
    field,
    snippet,
    marks,
    matched: c.matched,
    score: Math.round(c.score * 1000) / 1000,
  };
}

/** The snippet without its marks, and where the marks were. */
export function unmark(raw: string): { snippet: string; marks: [number, number][] } {
  const marks: [number, number][] = [];
  let out = '';
  let open = -1;
  for (const ch of raw) {
    if (ch === OPEN) open = out.length;
    else if (ch === CLOSE) {
      if (open >= 0) marks.push([open, out.length]);
      open = -1;
    } else out += ch;
  }
  return { snippet: out, marks };
}

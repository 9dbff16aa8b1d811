// Full-text search over the text index (textIndex.ts): each query term's
// posting lists are read in one call and scored here.
//
// Ranking is BM25 (k1 1.2, b 0.75) over a checkpoint's fields taken as one
// text, the Task counting double; hits holding more of the query's terms come
// first whatever their BM25, and the newer breaks a tie. Scores live in typed
// arrays indexed by docid, kept between queries, so a word held by most of a
// 100k vault costs one pass over its list.
//
// The text of the few hits shown is read back by the records' owner (their
// checkpoint or plan file, the note's row: SearchRecords) to tell which field
// matched and cut the snippet (snippet.ts). This module never reads the
// index's other tables: what it needs of the records it asks SearchRecords.
import { DEAD_END_MARK, eachWord } from './terms';
import { snippetOf } from './snippet';
import { SEARCH_FIELDS, type SearchField, type SearchKind } from '../../core/searchText';
import type { TextHit, TextQuery } from '../../core/ports';
import { DOC_KIND, docId, kindOf, rowOf } from './docIds';
import { CHUNK } from './docLengths';
import { eachPosting } from './postings';
import type { TextIndex } from './textIndex';

const LENGTH_SHIFT = Math.log2(CHUNK);
const LENGTH_MASK = CHUNK - 1;
const K1 = 1.2;
const B = 0.75;
/** A hit's key: the terms it holds first, then its BM25 (far below this per term). */
const PER_TERM = 1e6;
/** Words too common to count as a matched word when the query has others (core/deadEnds.ts drops its own). */
const STOP = new Set(['the', 'a', 'an', 'of', 'to', 'in', 'on', 'for', 'and', 'or', 'is', 'it', 'with', 'by', 'at', 'as', 'be']);

/** A record as a hit shows it, and its text as fields (a note's and a plan's text is one field). */
export interface FoundRecord {
  project: string;
  agent: string;
  ts: number;
  session: string;
  slug: string;
  title: string;
  /** Null: its file could not be read (the hit keeps no snippet). */
  fields: string[] | null;
}

/** What a search asks of the records' owner (the index: index/searchRecords.ts). */
export interface SearchRecords {
  /**
   * When `q` filters by project, agent or time: calls `allow` with each record
   * it lets through (of the kinds asked) and returns true; false when it
   * filters by none of those.
   */
  eachAllowed(q: TextQuery, allow: (kind: SearchKind, id: number) => void): boolean;
  /** Each record's time, by id (a missing one counts as 0). */
  times(kind: SearchKind, ids: number[]): Map<number, number>;
  /** A record to show; null when it is gone. */
  found(kind: SearchKind, id: number): FoundRecord | null;
}

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

  private keyBuffer = new Float64Array(1024);

  /** A buffer of `n` keys to reorder, reused: a common word's matches are most of the vault. */
  keys(n: number): Float64Array {
    if (this.keyBuffer.length < n) this.keyBuffer = new Float64Array(Math.ceil(n * 1.25));
    return this.keyBuffer.subarray(0, n);
  }

  clear(): void {
    for (let i = 0; i < this.count; i++) this.scores[this.touched[i]] = 0;
    this.count = 0;
  }
}

/** The query's terms (stop words dropped when others remain), and the lists to read: in Didn't work only, its own. */
function termsOf(q: TextQuery): { terms: string[]; lists: string[] } {
  // Each word cut again by the index's own cutter: a query's terms are what the index would make of its words.
  const cut: string[] = [];
  for (const w of q.words) eachWord(w, (_s, _e, term) => cut.push(term));
  const all = [...new Set(cut)];
  const kept = all.filter((t) => !STOP.has(t));
  const terms = kept.length > 0 ? kept : all;
  return { terms, lists: q.field === 'failed' ? terms.map((t) => DEAD_END_MARK + t) : terms };
}

/** The best `q.limit` hits of `q`, best first (see the top). */
export function searchText(text: TextIndex, scratch: SearchScratch, records: SearchRecords, q: TextQuery): TextHit[] {
  if (q.words.length === 0 || q.limit <= 0) return [];
  const { terms, lists: asked } = termsOf(q);
  if (terms.length === 0) return [];
  const allowed = allowedDocs(records, q, text.maxDoc);
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
    const best = top(records, scratch, q.limit);
    const wanted = new Set(terms);
    return best.map((c) => hitOf(records, c, wanted, q.field));
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
 * only for the candidates kept and those tied with the last one kept.
 */
function top(records: SearchRecords, scratch: SearchScratch, limit: number): Candidate[] {
  const { scores, touched, count } = scratch;
  if (count === 0) return [];
  // The limit-th best key, by a selection over a copy of the keys (no sort of every match), in a buffer kept between queries.
  const keys = scratch.keys(count);
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
  // Every candidate kept, and every one tied with the last kept, needs its time: two hits of one key
  // above the threshold are ordered by it as much as the tie the limit cuts (at most `limit` of them
  // are above it). Reading only the cut tie's once ordered equal hits above it by docid, not time.
  withTimes(records, [...above, ...tied]);
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

/** Each candidate's time, asked per kind. */
function withTimes(records: SearchRecords, cs: Candidate[]): void {
  const byKind = new Map<SearchKind, Candidate[]>();
  for (const c of cs) {
    const kind = kindOf(c.docid);
    const list = byKind.get(kind) ?? [];
    list.push(c);
    byKind.set(kind, list);
  }
  for (const [kind, list] of byKind) {
    const ts = records.times(
      kind,
      list.map((c) => rowOf(c.docid)),
    );
    for (const c of list) c.ts = ts.get(rowOf(c.docid)) ?? 0;
  }
}

/** The docids a filter on scope, agent or time lets through, as a map by docid; null when there is none. */
function allowedDocs(records: SearchRecords, q: TextQuery, maxDoc: number): Uint8Array | null {
  const out = new Uint8Array(maxDoc + 1);
  const filtered = records.eachAllowed(q, (kind, id) => {
    const d = docId(id, kind);
    if (d <= maxDoc) out[d] = 1;
  });
  return filtered ? out : null;
}

function hitOf(records: SearchRecords, c: Candidate, terms: ReadonlySet<string>, only?: SearchField): TextHit {
  const kind = kindOf(c.docid);
  const found = records.found(kind, rowOf(c.docid)) ?? { project: '', agent: '', ts: c.ts, session: '', slug: '', title: '', fields: null };
  const column = kind === 'checkpoint' && only ? SEARCH_FIELDS.indexOf(only) : undefined;
  const cut = snippetOf(found.fields ?? [], terms, column);
  const field: SearchField = kind === 'checkpoint' ? (SEARCH_FIELDS[cut.field] ?? 'task') : 'state';
  const matched = Math.floor(c.key / PER_TERM);
  return {
    kind,
    project: found.project,
    agent: found.agent,
    ts: found.ts,
    session: found.session,
    slug: found.slug,
    title: found.title,
    field,
    snippet: cut.snippet,
    marks: cut.marks,
    matched,
    score: Math.round((c.key - matched * PER_TERM) * 1000) / 1000,
  };
}

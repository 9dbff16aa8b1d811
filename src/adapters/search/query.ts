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
import { decodePostings } from './postings';
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
  /** A list's postings, decoded (postings.ts). */
  docids = new Int32Array(1024);
  tfs = new Uint8Array(1024);
  /** The best keys of the hits holding every term, as a min-heap of `limit` (see `searchText`), and the hits that may be kept. */
  heap = new Float64Array(64);
  best = new Int32Array(256);
  bestCount = 0;
  private keyBuffer = new Float64Array(1024);

  fit(maxDoc: number, limit: number): void {
    if (this.scores.length <= maxDoc) this.scores = new Float64Array(Math.ceil((maxDoc + 1) * 1.25) + 64);
    if (this.heap.length < limit) this.heap = new Float64Array(limit);
  }

  /** Room for a list of `bytes` bytes: at most as many postings. */
  fitList(bytes: number): void {
    if (this.docids.length >= bytes) return;
    const n = Math.ceil(bytes * 1.25);
    this.docids = new Int32Array(n);
    this.tfs = new Uint8Array(n);
  }

  touch(docid: number): void {
    if (this.count === this.touched.length) this.touched = doubled(this.touched);
    this.touched[this.count++] = docid;
  }

  keep(docid: number): void {
    if (this.bestCount === this.best.length) this.best = doubled(this.best);
    this.best[this.bestCount++] = docid;
  }

  /** A buffer of `n` keys to reorder, reused: a common word's matches are most of the vault. */
  keys(n: number): Float64Array {
    if (this.keyBuffer.length < n) this.keyBuffer = new Float64Array(Math.ceil(n * 1.25));
    return this.keyBuffer.subarray(0, n);
  }

  clear(): void {
    // Most of the vault touched: one sequential fill costs less than as many scattered writes.
    if (this.count > this.scores.length >> 3) this.scores.fill(0);
    else for (let i = 0; i < this.count; i++) this.scores[this.touched[i]] = 0;
    this.count = 0;
    this.bestCount = 0;
  }
}

/** `a` copied into twice its room: the full check stays inline in the loops, the copy is rare. */
function doubled(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const next = new Int32Array(a.length * 2);
  next.set(a);
  return next;
}

/** Puts `key` in the min-heap `heap` of `size` (< its room); the new size. */
function heapPush(heap: Float64Array, size: number, key: number): number {
  let i = size;
  while (i > 0) {
    const up = (i - 1) >> 1;
    if (heap[up] <= key) break;
    heap[i] = heap[up];
    i = up;
  }
  heap[i] = key;
  return size + 1;
}

/** Replaces the least key of the full min-heap `heap` of `size` by `key`. */
function heapReplace(heap: Float64Array, size: number, key: number): void {
  let i = 0;
  for (;;) {
    let child = 2 * i + 1;
    if (child >= size) break;
    if (child + 1 < size && heap[child + 1] < heap[child]) child++;
    if (heap[child] >= key) break;
    heap[i] = heap[child];
    i = child;
  }
  heap[i] = key;
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

/** A hit can gain at most this from one term of this idf: PER_TERM and BM25's bound (tf / (tf + a positive) < 1). */
const most = (idf: number): number => PER_TERM + idf * (K1 + 1);

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
  const filtered = q.kinds !== undefined || allowed !== null || dead !== null;
  scratch.fit(text.maxDoc, q.limit);
  const { scores } = scratch;
  const norm = K1 * (1 - B);
  const perLength = (K1 * B) / avgLength;
  const lengths = text.lengths.every();
  // Rarest first, so the hits to beat are known before the common words' long lists are read.
  const read = asked
    .map((term) => {
      const { lists, postings } = text.listsOf(term);
      return { lists, postings, idf: Math.log(1 + (docs - postings + 0.5) / (postings + 0.5)) };
    })
    .filter((t) => t.lists.length > 0)
    .sort((a, b) => a.postings - b.postings);
  /** Per term, the most the terms from it on can add to a hit, and the postings they hold. */
  const gain = new Float64Array(read.length + 1);
  const left = new Float64Array(read.length + 1);
  for (let j = read.length - 1; j >= 0; j--) {
    gain[j] = gain[j + 1] + most(read[j].idf);
    left[j] = left[j + 1] + read[j].postings;
  }
  try {
    // Once `limit` hits hold a key no document still untouched could reach with every term left
    // (their bound strictly under it, so none can tie either), the rest only add to the hits touched.
    let admit = true;
    // While the last list is read, a hit holding every term has its final key (a docid is written
    // once per term: one refresh, one segment): the best `limit` of those keys are kept in a
    // min-heap, and a hit whose key is under the heap's least is never kept (nor tied with the last
    // kept) once `limit` hits hold every term, as any other hit's key is less.
    const heap = scratch.heap;
    let size = 0;
    let full = 0;
    const last = read.length - 1;
    const allBefore = last * PER_TERM;
    for (let j = 0; j < read.length; j++) {
      const { lists, idf } = read[j];
      // Worth a selection over the hits so far only when the lists left are longer.
      if (admit && j > 0 && scratch.count >= q.limit && scratch.count * 2 < left[j]) {
        const keys = scratch.keys(scratch.count);
        for (let i = 0; i < scratch.count; i++) keys[i] = scores[scratch.touched[i]];
        if (gain[j] * (1 + 1e-9) < kthLargest(keys, q.limit)) admit = false;
      }
      for (const bytes of lists) {
        scratch.fitList(bytes.length);
        const n = decodePostings(bytes, scratch.docids, scratch.tfs);
        const { docids, tfs } = scratch;
        for (let i = 0; i < n; i++) {
          const docid = docids[i];
          const before = scores[docid];
          if (before === 0) {
            if (!admit) continue;
            if (filtered && (kinds[docid & 3] === 0 || (allowed !== null && allowed[docid] === 0) || (dead !== null && dead[docid] === 1))) continue;
            scratch.touch(docid);
          }
          const tf = tfs[i];
          const len = lengths[docid >> LENGTH_SHIFT]?.[docid & LENGTH_MASK] ?? avgLength;
          // The matched term itself counts PER_TERM, so a hit with more terms ranks first whatever its BM25.
          const key = before + (PER_TERM + idf * ((tf * (K1 + 1)) / (tf + norm + perLength * len)));
          scores[docid] = key;
          if (j === last && before >= allBefore) {
            full++;
            if (size < q.limit) {
              size = heapPush(heap, size, key);
              scratch.keep(docid);
            } else if (key >= heap[0]) {
              if (key > heap[0]) heapReplace(heap, size, key);
              scratch.keep(docid);
            }
          }
        }
      }
    }
    const best = full >= q.limit ? topOf(records, scratch, scratch.best.subarray(0, scratch.bestCount), heap[0], q.limit) : top(records, scratch, q.limit);
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
  return topOf(records, scratch, touched.subarray(0, count), threshold, limit);
}

/** The best `limit` of `ids`, which hold every hit whose key is `threshold` (the limit-th best key) or more. */
function topOf(records: SearchRecords, scratch: SearchScratch, ids: Int32Array, threshold: number, limit: number): Candidate[] {
  const { scores } = scratch;
  const above: Candidate[] = [];
  const tied: Candidate[] = [];
  for (let i = 0; i < ids.length; i++) {
    const docid = ids[i];
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

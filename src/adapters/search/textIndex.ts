// Full-text search's half of the index: an inverted index of terms
// (core/searchTerms.ts) kept in the `terms` table (schema.ts), written by the
// same refresh that writes the rest of the index, so a hand-edited file is
// found by its new words and a deleted one no longer.
//
// Why not SQLite's FTS4 (the first version of this index; sql.js has no FTS5):
// measured on the bench's 100k vault, its stored text made the index 1.33×
// the vault, its tokenizer tripled a cold build, and asking it for a common
// word's rows cost 3 µs a row across sql.js, some 400 ms for a word in most
// checkpoints. Here a term's list is one blob read in one call and scored in
// JS (query.ts), the terms come from the cold build's worker threads,
// and no text is stored: a hit's snippet is cut from its file.
//
// Like a log-structured index, a refresh never rewrites what is stored: the
// postings it adds are written as a new segment, one row per term, and a
// removed document's docid is only marked dead (`text_dead`). Small segments
// are merged once there are too many, and everything is merged into one
// segment, the dead dropped, once the tail or the dead outgrow a share of the
// whole (MERGE_LIMITS): a posting is rewritten a few times in its life.
import { forgetTermIdsIfLarge, searchTextTerms, termId, termNames, textTerms, type DocTerms } from './terms';
import { DEAD_END_FIELD, FIELD_WEIGHTS, type SearchKind, type SearchText } from '../../core/searchText';
import { docId } from './docIds';
import { eachPosting, PostingWriter } from './postings';
import { DocLengths } from './docLengths';
import type { Sql } from './sql';
import type { TermTable, WorkerLists } from './workerTerms';

/** When segments are merged (see the top); a test gives its own. */
export interface MergeLimits {
  /** Segments a refresh may leave before they are merged into one. */
  maxSegments: number;
  /** The tail is merged into the base once it holds this share of it, and at least tailMin postings... */
  tailShare: number;
  tailMin: number;
  /** ...and the dead are dropped once they are this share of the documents, and at least deadMin. */
  deadShare: number;
  deadMin: number;
}

export const MERGE_LIMITS: MergeLimits = { maxSegments: 8, tailShare: 1 / 8, tailMin: 50_000, deadShare: 1 / 5, deadMin: 2_000 };

/**
 * The bytes of the lists read lately that are kept between searches. sql.js
 * copies a blob out of its memory a byte at a time: a word in most of a 100k
 * vault (60 KB) costs 0.2-0.4 ms to read, every search that asks it. The
 * words that cost it are the common ones, which most searches ask, and a 100k
 * vault's lists are about 17 MB in all.
 */
const KEPT_LIST_BYTES = 16 << 20;

/** The figures BM25 and the merges need, kept in `meta`. */
interface TextStats {
  /** Documents in the posting lists, the dead included, and their total length. */
  docs: number;
  length: number;
  /** The largest docid ever given postings. */
  maxDoc: number;
  /** The newest segment's number (0: only the base). */
  seg: number;
  /** Segments written since the tail was last merged. */
  segments: number;
  /** Postings in the base (segment 0) and in the tail (every other segment). */
  base: number;
  tail: number;
}

const ZERO: TextStats = { docs: 0, length: 0, maxDoc: 0, seg: 0, segments: 0, base: 0, tail: 0 };
const KEYS = Object.keys(ZERO) as (keyof TextStats)[];

/** What the index's owner chooses (app/openBaton.ts passes it down). */
export interface TextIndexOptions {
  /**
   * False: no postings are written, and no search text need be read: the
   * bench's one way to weigh what the text index costs a cold build, side by
   * side. Search then finds nothing; nothing else changes. Default true.
   */
  text?: boolean;
  /** When segments are merged (default MERGE_LIMITS); a test gives its own. */
  merge?: MergeLimits;
}

export class TextIndex {
  readonly on: boolean;
  private readonly limits: MergeLimits;
  /** What this refresh adds, by term id (terms.ts), and the ids in the order first met. */
  private pending: PostingWriter[] = [];
  private pendingIds: number[] = [];
  /** Moves on whenever `pending` is replaced, so a worker's cached writers are not reused (TermTable). */
  private generation = 0;
  private pendingDocs = 0;
  private pendingLength = 0;
  private pendingMax = 0;
  private deadAdded: number[] = [];
  private stats: TextStats = { ...ZERO };
  /** Docids removed from the index whose postings are still stored. */
  dead = new Set<number>();
  /** `dead` as a map by docid (1: dead), for a search's inner loop; rebuilt when `dead` changes. */
  private deadMap: Uint8Array | null = null;
  readonly lengths: DocLengths;
  /** Lists read lately, least recently asked first (KEPT_LIST_BYTES); forgotten whenever a list may change. */
  private kept = new Map<string, { lists: Uint8Array[]; postings: number; bytes: number }>();
  private keptBytes = 0;

  constructor(
    private readonly sql: Sql,
    opts: TextIndexOptions = {},
  ) {
    this.on = opts.text ?? true;
    this.limits = opts.merge ?? MERGE_LIMITS;
    this.lengths = new DocLengths(sql);
  }

  /** The stored figures and dead docids; anything pending is dropped (again after a rollback). */
  load(): void {
    this.forgetLists();
    this.pending = [];
    this.pendingIds = [];
    this.generation += 1;
    this.pendingDocs = this.pendingLength = this.pendingMax = 0;
    this.deadAdded = [];
    this.lengths.load();
    forgetTermIdsIfLarge();
    const stats = { ...ZERO };
    for (const [key, value] of this.sql.rows<[string, string]>("SELECT key, value FROM meta WHERE key LIKE 'text.%'")) {
      const k = key.slice(5) as keyof TextStats;
      if (KEYS.includes(k)) stats[k] = Number(value);
    }
    this.stats = stats;
    this.dead = new Set(this.sql.rows<[number]>('SELECT docid FROM text_dead').map(([d]) => d));
    this.deadMap = null;
  }

  /** The dead docids as a map by docid, null when there are none: a lookup per posting a search reads. */
  deadDocs(): Uint8Array | null {
    if (this.dead.size === 0) return null;
    if (!this.deadMap || this.deadMap.length <= this.maxDoc) {
      this.deadMap = new Uint8Array(this.maxDoc + 1);
      for (const d of this.dead) this.deadMap[d] = 1;
    }
    return this.deadMap;
  }

  /** The largest docid the stored lists may hold: ids below it are never given again while they may be dead. */
  get maxDoc(): number {
    return Math.max(this.stats.maxDoc, this.pendingMax);
  }

  /** The largest row id, of any kind, that a stored list may still hold: new rows are numbered past it (indexWriter.ts). */
  lastRowId(): number {
    return Math.floor(this.maxDoc / 4);
  }

  /** What the index holds (for tests): live documents, dead ones, segments. */
  figures(): { documents: number; dead: number; segments: number } {
    const segments = this.sql.rows<[number]>('SELECT COUNT(DISTINCT seg) FROM terms')[0]?.[0] ?? 0;
    return { documents: this.stats.docs - this.dead.size, dead: this.dead.size, segments };
  }

  /**
   * The documents and their average length, for BM25. The dead are counted
   * until the next full merge, as they are in each term's frequency: the two
   * stay in proportion, and a list is read once.
   */
  corpus(): { docs: number; avgLength: number } {
    return { docs: Math.max(1, this.stats.docs), avgLength: this.stats.docs > 0 ? this.stats.length / this.stats.docs : 1 };
  }

  /** A term's stored lists and how many postings they hold, the dead included (its document frequency, near enough). */
  listsOf(term: string): { lists: Uint8Array[]; postings: number } {
    const hit = this.kept.get(term);
    if (hit) {
      this.kept.delete(term);
      this.kept.set(term, hit);
      return hit;
    }
    let postings = 0;
    let bytes = 0;
    const lists: Uint8Array[] = [];
    for (const [n, b] of this.sql.rows<[number, Uint8Array]>('SELECT n, postings FROM terms WHERE term = ? ORDER BY seg', [term])) {
      postings += n;
      bytes += b.length;
      lists.push(b);
    }
    const read = { lists, postings, bytes };
    if (bytes <= KEPT_LIST_BYTES / 4) {
      this.kept.set(term, read);
      this.keptBytes += bytes;
      for (const [t, old] of this.kept) {
        if (this.keptBytes <= KEPT_LIST_BYTES) break;
        this.kept.delete(t);
        this.keptBytes -= old.bytes;
      }
    }
    return read;
  }

  private forgetLists(): void {
    this.kept.clear();
    this.keptBytes = 0;
  }

  /**
   * A record's words: a checkpoint's as the stretches of its file
   * (SearchText, its fields weighted, its Didn't work twinned), a note's or a
   * plan's as its text.
   */
  put(kind: SearchKind, id: number, text: SearchText | string): void {
    if (!this.on) return;
    this.putTerms(docId(id, kind), typeof text === 'string' ? textTerms(text) : searchTextTerms(text, FIELD_WEIGHTS, DEAD_END_FIELD));
  }

  /** A record gone: its docid is dead until a full merge drops its postings. */
  remove(kind: SearchKind, id: number): void {
    this.kill(docId(id, kind));
  }

  /**
   * A worker's batch of posting lists and lengths (workerTerms.ts), its r-th
   * file now the checkpoint `ids[r]` (-1: its terms were not the worker's,
   * skipped). When the ids follow one another, as they do unless a file was
   * read here instead, each list is moved by its first docid and copied; else
   * posting by posting. A batch's lists may come after later checkpoints'
   * (parallelRead.ts): a list's docids need not ascend, only cost a longer
   * varint where they step back (postings.ts).
   */
  putWorkerLists(lists: WorkerLists, ids: Int32Array, table: TermTable): void {
    if (!this.on) return;
    const { meta, postings, docs } = lists;
    for (let r = 0; r < ids.length; r++) if (ids[r] >= 0 && docs[2 * r] > 0) this.added(docId(ids[r], 'checkpoint'), docs[2 * r + 1]);
    if (meta.length === 0) return;
    if (table.generation !== this.generation) {
      table.slots = [];
      table.generation = this.generation;
    }
    const first = ids.length > 0 ? ids[0] : -1;
    let consecutive = first >= 0;
    for (let r = 1; consecutive && r < ids.length; r++) consecutive = ids[r] === first + r;
    const shift = docId(first, 'checkpoint');
    let start = 0;
    for (let m = 0; m < meta.length; m += 4) {
      const ref = meta[m];
      let w = table.slots[ref] as PostingWriter | undefined;
      if (!w) table.slots[ref] = w = this.writerOf(termId(table.raw[ref]));
      const bytes = postings.subarray(start, meta[m + 3]);
      start = meta[m + 3];
      if (consecutive) w.appendShifted(bytes, meta[m + 1], shift, meta[m + 2]);
      else {
        const into = w;
        eachPosting(bytes, (d, tf) => {
          const id = ids[d >> 2];
          if (id >= 0) into.add(docId(id, 'checkpoint'), tf);
        });
      }
    }
  }

  /** Writes what this refresh added, inside its transaction, and merges when it is time. */
  flush(): void {
    if (this.pendingIds.length === 0 && this.deadAdded.length === 0) return;
    this.forgetLists();
    if (this.deadAdded.length > 0) {
      for (const d of this.deadAdded) this.sql.run('INSERT OR IGNORE INTO text_dead(docid) VALUES (?)', [d]);
      this.deadAdded = [];
    }
    const s = this.stats;
    if (this.pendingIds.length > 0) {
      const first = s.base === 0 && s.tail === 0;
      const seg = first ? 0 : s.seg + 1;
      let postings = 0;
      for (const id of this.pendingIds) {
        const w = this.pending[id];
        this.sql.run('INSERT INTO terms(term, seg, n, postings) VALUES (?, ?, ?, ?)', [termNames[id], seg, w.count, w.bytes()]);
        postings += w.count;
      }
      if (first) s.base += postings;
      else {
        s.seg = seg;
        s.segments += 1;
        s.tail += postings;
      }
      s.docs += this.pendingDocs;
      s.length += this.pendingLength;
      s.maxDoc = Math.max(s.maxDoc, this.pendingMax);
      this.pending = [];
      this.pendingIds = [];
      this.generation += 1;
      this.pendingDocs = this.pendingLength = this.pendingMax = 0;
    }
    const l = this.limits;
    if (s.tail > Math.max(l.tailMin, s.base * l.tailShare) || this.dead.size > Math.max(l.deadMin, s.docs * l.deadShare)) this.mergeAll();
    else if (s.segments > l.maxSegments) this.mergeTail();
    this.lengths.flush();
    this.saveStats();
    forgetTermIdsIfLarge();
  }

  private putTerms(docid: number, doc: DocTerms): void {
    if (doc.count === 0) return;
    const pending = this.pending;
    for (let k = 0; k < doc.count; k++) (pending[doc.ids[k]] ?? this.writerOf(doc.ids[k])).add(docid, doc.tfs[k]);
    this.added(docid, doc.length);
  }

  private writerOf(id: number): PostingWriter {
    let w = this.pending[id];
    if (!w) {
      w = this.pending[id] = new PostingWriter();
      this.pendingIds.push(id);
    }
    return w;
  }

  private added(docid: number, length: number): void {
    this.lengths.set(docid, length);
    this.pendingDocs += 1;
    this.pendingLength += length;
    if (docid > this.pendingMax) this.pendingMax = docid;
  }

  private kill(docid: number): void {
    if (!this.on || this.dead.has(docid) || docid > this.maxDoc) return;
    this.dead.add(docid);
    if (this.deadMap) this.deadMap[docid] = 1;
    this.deadAdded.push(docid);
  }

  /** Every segment but the base, merged into segment 1. */
  private mergeTail(): void {
    const merged = new Map<string, PostingWriter>();
    for (const [term, bytes] of this.sql.rows<[string, Uint8Array]>('SELECT term, postings FROM terms WHERE seg > 0 ORDER BY term, seg')) {
      let w = merged.get(term);
      if (!w) merged.set(term, (w = new PostingWriter(bytes.length)));
      eachPosting(bytes, (d, tf) => w.add(d, tf));
    }
    this.sql.run('DELETE FROM terms WHERE seg > 0');
    for (const [term, w] of merged) this.sql.run('INSERT INTO terms(term, seg, n, postings) VALUES (?, 1, ?, ?)', [term, w.count, w.bytes()]);
    this.stats.seg = 1;
    this.stats.segments = 1;
  }

  /** Everything merged into the base, the dead dropped, the figures counted again. */
  private mergeAll(): void {
    const merged = new Map<string, PostingWriter>();
    const live = new Set<number>();
    let postings = 0;
    for (const [term, bytes] of this.sql.rows<[string, Uint8Array]>('SELECT term, postings FROM terms ORDER BY term, seg')) {
      let w = merged.get(term);
      eachPosting(bytes, (d, tf) => {
        if (this.dead.has(d)) return;
        if (!w) merged.set(term, (w = new PostingWriter(bytes.length)));
        w.add(d, tf);
        live.add(d);
        postings += 1;
      });
    }
    this.sql.run('DELETE FROM terms');
    this.sql.run('DELETE FROM text_dead');
    for (const [term, w] of merged) this.sql.run('INSERT INTO terms(term, seg, n, postings) VALUES (?, 0, ?, ?)', [term, w.count, w.bytes()]);
    let length = 0;
    let maxDoc = 0;
    const lengths = [...live].map((d) => [d, this.lengths.get(d)] as const);
    this.lengths.clear();
    for (const [d, len] of lengths) {
      this.lengths.set(d, len);
      length += len;
      if (d > maxDoc) maxDoc = d;
    }
    // maxDoc never goes down: ids stay unique for the life of the index, which costs nothing.
    this.stats = { docs: live.size, length, maxDoc: Math.max(maxDoc, this.stats.maxDoc), seg: 0, segments: 0, base: postings, tail: 0 };
    this.dead = new Set();
    this.deadMap = null;
  }

  private saveStats(): void {
    for (const k of KEYS) this.sql.run('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)', [`text.${k}`, String(this.stats[k])]);
  }
}

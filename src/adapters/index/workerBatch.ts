// The messages between the cold build (parallelRead.ts) and its worker threads
// (indexWorker.ts): both sides import this module, so the layout is written
// once. Messages are compact because copying them was a fifth of a worker's
// time: a batch's answer is one Float64Array (transferred, not copied) of
// numbers, three strings per file, and each touched path and each search term
// only the first time that worker meets it (afterwards a number).
//
// The worker cuts the search terms itself (core/searchTerms.ts), the most of
// what indexing the text costs, and writes the batch's posting lists as the
// index stores them (postings.ts), its files numbered from 0 in the order it
// read them. The main thread gives those files consecutive ids, so it moves a
// list into the index by rewriting its first docid and copying the rest
// (TextIndex.putWorkerLists): a posting costs this thread nothing. A batch
// asked for `later` is answered twice: its files at once, its lists once the
// worker is told it will be sent no more (termBacklog.ts).
import type { IndexRecord } from './indexRecord';
import type { Stat } from './vaultFiles';
import { searchTextTerms, termNames, type DocTerms } from '../../core/searchTerms';
import { MAX_TF, PostingWriter } from './postings';
import { docId } from './schema';
import { DEAD_END_FIELD, FIELD_WEIGHTS, type SearchText } from '../../core/searchText';
import { TermBacklog } from './termBacklog';

export interface ReadRequest {
  /** Absolute path. */
  file: string;
  /** The checkpoint id (file name without .md). */
  id: string;
}

/** What a worker is started with. */
export interface WorkerConfig {
  /** The most of a file that is read. */
  cap: number;
  /** The most bytes of text a worker keeps for later (termBacklog.ts). */
  laterBytes: number;
  /** Whether records are read with their search text (a build without the text index reads none: textIndex.ts). */
  search: boolean;
}

/** A batch of files for a worker to read; `later`: its terms may wait for `{ drain: true }`. */
export interface BatchRequest {
  seq: number;
  files: ReadRequest[];
  later: boolean;
}

/** What the main thread sends: a batch, or word that no more will come (the terms kept for later are cut then). */
export type ToWorker = BatchRequest | { drain: true };

/** A worker's answer to one batch: its files, and its terms unless they come later (BatchTerms). */
export interface BatchResult {
  seq: number;
  nums: Float64Array<ArrayBuffer>;
  strs: string[];
  /** Paths this worker met for the first time, in the order it numbered them. */
  fresh: string[];
  terms: BatchTerms | null;
}

/** A batch's search terms. */
export interface BatchTerms {
  seq: number;
  /** Search terms this worker met for the first time, in the order it numbered them. */
  freshTerms: string[];
  lists: WorkerLists;
}

/**
 * A batch's posting lists, its files numbered from 0 in the order the worker
 * recorded them (unreadable ones are not numbered), each file's docid that
 * number's checkpoint docid. For list k: `meta[4k]` the term's number (see
 * TermTable), `meta[4k+1]` its postings, `meta[4k+2]` its last docid, and its
 * bytes `postings[meta[4k-1] (0 for the first), meta[4k+3])`. For file r:
 * `docs[2r]` its distinct terms, `docs[2r+1]` its weighted length.
 */
export interface WorkerLists {
  meta: Float64Array<ArrayBuffer>;
  postings: Uint8Array<ArrayBuffer>;
  docs: Float64Array<ArrayBuffer>;
}

/** What a message transfers rather than copies. */
export function listBuffers(lists: WorkerLists): ArrayBuffer[] {
  return [lists.meta.buffer, lists.postings.buffer, lists.docs.buffer];
}

/** One file as a worker read it: the record with `failed` joined by newlines, the touched paths as numbers for `PathTable`. */
export interface WorkerFile {
  stat: Stat;
  rec: Omit<IndexRecord, 'paths' | 'failed' | 'search'> & { failed: string };
  refs: number[];
}

// What comes first in a file's numbers.
const UNREADABLE = 0;
const RECORD = 1;

/** A record read without its search text (a build without the text index: BATON_INDEX_TEXT=0). */
const NO_TEXT: SearchText = { text: '', pieces: [] };


/** A growable array of numbers, sent as the Float64Array it fills. */
class Numbers {
  buf = new Float64Array(1 << 16);
  at = 0;

  push(n: number): void {
    if (this.at === this.buf.length) this.grow(1);
    this.buf[this.at++] = n;
  }

  /** Room for `n` more, so a loop can write `buf[at++]` itself. */
  room(n: number): void {
    if (this.at + n > this.buf.length) this.grow(n);
  }

  take(): Float64Array<ArrayBuffer> {
    const out = this.buf.slice(0, this.at);
    this.at = 0;
    return out;
  }

  private grow(n: number): void {
    const next = new Float64Array(Math.max(this.buf.length * 2, this.at + n));
    next.set(this.buf.subarray(0, this.at));
    this.buf = next;
  }
}

/** The worker's side: numbers the paths and terms it meets and packs one batch's answer. */
export class BatchWriter {
  private readonly known = new Map<string, number>();
  /** By term id (searchTerms.ts), the number this worker gave it, plus one (0: none yet). */
  private termRefs = new Int32Array(1 << 12);
  private termCount = 0;
  private readonly nums = new Numbers();
  private strs: string[] = [];
  private fresh: string[] = [];
  private freshTerms: string[] = [];
  /** By term number, its list in this batch (kept between batches, emptied), and the numbers with postings in this batch. */
  private readonly writers: PostingWriter[] = [];
  private inBatch: number[] = [];
  /** Per file whose terms were cut in this batch: its distinct terms and weighted length. */
  private readonly docs = new Numbers();
  private readonly backlog = new TermBacklog();

  /** Bytes of search text kept for later. */
  get held(): number {
    return this.backlog.held;
  }

  unreadable(): void {
    this.nums.push(UNREADABLE);
  }

  /** A file read; with `later`, its terms are cut at `drain`. */
  record(stat: Stat, rec: IndexRecord, later: boolean): void {
    const nums = this.nums;
    nums.room(6 + rec.paths.length);
    nums.push(RECORD);
    nums.push(stat.mtime);
    nums.push(stat.size);
    nums.push(rec.ts);
    nums.push(rec.empty ? 1 : 0);
    nums.push(rec.paths.length);
    for (const p of rec.paths) {
      let ref = this.known.get(p);
      if (ref === undefined) {
        ref = this.known.size;
        this.known.set(p, ref);
        this.fresh.push(p);
      }
      nums.push(ref);
    }
    const src = rec.search ?? NO_TEXT;
    if (later) this.backlog.add(src);
    else this.cut(searchTextTerms(src, FIELD_WEIGHTS, DEAD_END_FIELD));
    this.strs.push(rec.agent, rec.task, rec.failed.join('\n'));
  }

  /** The batch's answer; the writer starts the next batch empty (but keeps its path and term numbers). */
  finish(seq: number, later: boolean): BatchResult {
    const out = { seq, nums: this.nums.take(), strs: this.strs, fresh: this.fresh, terms: later ? null : this.terms(seq) };
    if (later) this.backlog.close(seq);
    this.strs = [];
    this.fresh = [];
    return out;
  }

  /** The terms of every batch kept for later, oldest first. */
  drain(send: (terms: BatchTerms) => void): void {
    this.backlog.drain((seq, files, file) => {
      for (let r = 0; r < files; r++) this.cut(searchTextTerms(file(r), FIELD_WEIGHTS, DEAD_END_FIELD));
      send(this.terms(seq));
    });
  }

  /** One file's terms, into the batch's lists: it is the batch's next file. */
  private cut(doc: DocTerms): void {
    const docid = docId(this.docs.at / 2, 'checkpoint');
    this.docs.push(doc.count);
    this.docs.push(doc.length);
    for (let k = 0; k < doc.count; k++) {
      const id = doc.ids[k];
      if (id >= this.termRefs.length) {
        const next = new Int32Array(Math.max(id + 1, this.termRefs.length * 2));
        next.set(this.termRefs);
        this.termRefs = next;
      }
      let ref = this.termRefs[id] - 1;
      if (ref < 0) {
        ref = this.termCount++;
        this.termRefs[id] = ref + 1;
        this.freshTerms.push(termNames[id]);
      }
      let w = this.writers[ref];
      if (!w) w = this.writers[ref] = new PostingWriter();
      if (w.count === 0) this.inBatch.push(ref);
      w.add(docid, Math.min(MAX_TF, doc.tfs[k]));
    }
  }

  /** The lists of the files cut since the last call, numbered from 0. */
  private terms(seq: number): BatchTerms {
    const meta = new Float64Array(this.inBatch.length * 4);
    let bytes = 0;
    for (const ref of this.inBatch) bytes += this.writers[ref].bytes().length;
    const postings = new Uint8Array(bytes);
    let at = 0;
    let m = 0;
    for (const ref of this.inBatch) {
      const w = this.writers[ref];
      const b = w.bytes();
      postings.set(b, at);
      at += b.length;
      meta[m++] = ref;
      meta[m++] = w.count;
      meta[m++] = w.last;
      meta[m++] = at;
      w.reset();
    }
    const out = { seq, freshTerms: this.freshTerms, lists: { meta, postings, docs: this.docs.take() } };
    this.freshTerms = [];
    this.inBatch = [];
    return out;
  }
}

/** The main thread's side: unpacks `count` files of an answer, in order (null: could not be read). */
export function eachFile(result: BatchResult, count: number, visit: (k: number, file: WorkerFile | null) => void): void {
  const { nums, strs } = result;
  let n = 0;
  let s = 0;
  for (let k = 0; k < count; k++) {
    if (nums[n++] === UNREADABLE) {
      visit(k, null);
      continue;
    }
    const stat = { mtime: nums[n++], size: nums[n++] };
    const ts = nums[n++];
    const empty = nums[n++] === 1;
    const refs: number[] = [];
    for (let left = nums[n++]; left > 0; left--) refs.push(nums[n++]);
    const agent = strs[s++];
    const task = strs[s++];
    const failed = strs[s++];
    visit(k, { stat, rec: { agent, ts, task, empty, failed }, refs });
  }
}

/** The touched paths one worker has sent, by the number it gave them. */
export class PathTable {
  readonly raw: string[] = [];
  private readonly ids: (number | null | undefined)[] = [];

  /** The id `resolve` gives the path numbered `ref`, asked once per path. */
  id(ref: number, resolve: (raw: string) => number | null): number | null {
    let id = this.ids[ref];
    if (id === undefined) id = this.ids[ref] = resolve(this.raw[ref]);
    return id;
  }
}

/** The search terms one worker has sent, by the number it gave them; `slots` is the text index's cache (textIndex.ts). */
export class TermTable {
  readonly raw: string[] = [];
  slots: unknown[] = [];
  generation = -1;
}

// The search module's part of a cold build: the terms of a worker's batch of
// checkpoints (index/workerBatch.ts carries the rest of the batch), cut in the
// worker thread, the most of what indexing the text costs, and written as
// the batch's own posting lists (postings.ts), its files numbered from 0 in
// the order they were recorded. The main thread gives those files
// consecutive ids, so it moves a list into the index by rewriting its first
// docid and copying the rest (TextIndex.putWorkerLists): a posting costs that
// thread nothing. A term crosses between the threads once per worker, as a
// string; afterwards as the number that worker gave it (TermTable).
//
// A batch asked for `later` keeps its search text (termBacklog.ts) until the
// worker is told it will be sent no more (`drain`): the main thread then
// works alone, and the worker's core would otherwise be idle.
import { DEAD_END_FIELD, FIELD_WEIGHTS, type SearchText } from '../../core/searchText';
import { docId } from './docIds';
import { MAX_TF, PostingWriter } from './postings';
import { TermBacklog } from './termBacklog';
import { searchTextTerms, termNames, type DocTerms } from './terms';

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

/** The search terms one worker has sent, by the number it gave them; `slots` is the text index's cache (textIndex.ts). */
export class TermTable {
  readonly raw: string[] = [];
  slots: unknown[] = [];
  generation = -1;
}

/** A growable array of numbers, sent as the Float64Array it fills. */
class Numbers {
  buf = new Float64Array(1 << 12);
  at = 0;

  push(n: number): void {
    if (this.at === this.buf.length) {
      const next = new Float64Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.at++] = n;
  }

  take(): Float64Array<ArrayBuffer> {
    const out = this.buf.slice(0, this.at);
    this.at = 0;
    return out;
  }
}

/** The worker's side: cuts each file's terms into the batch's lists, numbering the terms it meets. */
export class BatchTermWriter {
  /** By term id (terms.ts), the number this worker gave it, plus one (0: none yet). */
  private termRefs = new Int32Array(1 << 12);
  private termCount = 0;
  private freshTerms: string[] = [];
  /** By term number, its list in this batch (kept between batches, emptied), and the numbers with postings in this batch. */
  private readonly writers: PostingWriter[] = [];
  private inBatch: number[] = [];
  /** Per file whose terms were cut in this batch: its distinct terms and weighted length. */
  private readonly docs = new Numbers();
  private readonly backlog: TermBacklog;

  constructor(laterBytes: number) {
    this.backlog = new TermBacklog(laterBytes);
  }

  /** Whether a batch may still keep its text for later: the text kept is bounded, past that a batch's terms are cut at once. */
  get roomForLater(): boolean {
    return this.backlog.held < this.backlog.limit;
  }

  /** A file's search text, the batch's next file: cut now, or kept for `drain` when `later`. */
  add(src: SearchText, later: boolean): void {
    if (later) this.backlog.add(src);
    else this.cut(searchTextTerms(src, FIELD_WEIGHTS, DEAD_END_FIELD));
  }

  /** The batch is complete: its lists, or null when `later` (they come from `drain`). */
  finish(seq: number, later: boolean): BatchTerms | null {
    if (!later) return this.terms(seq);
    this.backlog.close(seq);
    return null;
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

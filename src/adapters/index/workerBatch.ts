// The messages between the cold build (parallelRead.ts) and its worker threads
// (indexWorker.ts): both sides import this module, so the layout is written
// once. Messages are compact because copying them was a fifth of a worker's
// time: a batch's answer is one Float64Array (transferred, not copied) of
// numbers, three strings per file, and each touched path and each search term
// only the first time that worker meets it (afterwards a number). The worker
// cuts the search terms itself (core/searchTerms.ts): that is most of what
// indexing the text costs, and it is done beside this thread's writes.
import type { IndexRecord } from './indexRecord';
import type { Stat } from './vaultFiles';
import { docTerms, termNames } from '../../core/searchTerms';
import { DEAD_END_FIELD, FIELD_WEIGHTS } from '../../core/searchText';

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
}

/** A batch of files for a worker to read. */
export interface BatchRequest {
  seq: number;
  files: ReadRequest[];
}

/** A worker's answer to one batch. */
export interface BatchResult {
  seq: number;
  nums: Float64Array<ArrayBuffer>;
  strs: string[];
  /** Paths this worker met for the first time, in the order it numbered them. */
  fresh: string[];
  /** Search terms this worker met for the first time, in the order it numbered them. */
  freshTerms: string[];
}

/** One file as a worker read it: the record with `failed` joined by newlines, the touched paths as numbers for `PathTable`. */
export interface WorkerFile {
  stat: Stat;
  rec: Omit<IndexRecord, 'paths' | 'failed' | 'text'> & { failed: string };
  refs: number[];
  /** Its search terms: `terms[at + 2k]` is a term's number (see TermTable), `terms[at + 2k + 1]` its weighted count, for k < count. */
  terms: { nums: Float64Array; at: number; count: number; length: number };
}

// What comes first in a file's numbers.
const UNREADABLE = 0;
const RECORD = 1;

/** The worker's side: numbers the paths it meets and packs one batch's answer. */
export class BatchWriter {
  private readonly known = new Map<string, number>();
  /** By term id (searchTerms.ts), the number this worker gave it (+1; 0: none yet). */
  private readonly termRefs: number[] = [];
  private termCount = 0;
  private nums: number[] = [];
  private strs: string[] = [];
  private fresh: string[] = [];
  private freshTerms: string[] = [];

  unreadable(): void {
    this.nums.push(UNREADABLE);
  }

  record(stat: Stat, rec: IndexRecord): void {
    this.nums.push(RECORD, stat.mtime, stat.size, rec.ts, rec.empty ? 1 : 0, rec.paths.length);
    for (const p of rec.paths) {
      let ref = this.known.get(p);
      if (ref === undefined) {
        ref = this.known.size;
        this.known.set(p, ref);
        this.fresh.push(p);
      }
      this.nums.push(ref);
    }
    const doc = docTerms(rec.text, FIELD_WEIGHTS, DEAD_END_FIELD);
    this.nums.push(doc.count, doc.length);
    for (let k = 0; k < doc.count; k++) {
      const id = doc.ids[k];
      let ref = (this.termRefs[id] ?? 0) - 1;
      if (ref < 0) {
        ref = this.termCount++;
        this.termRefs[id] = ref + 1;
        this.freshTerms.push(termNames[id]);
      }
      this.nums.push(ref, doc.tfs[k]);
    }
    this.strs.push(rec.agent, rec.task, rec.failed.join('\n'));
  }

  /** The batch's answer; the writer starts the next batch empty (but keeps its path numbers). */
  finish(seq: number): BatchResult {
    const out = { seq, nums: Float64Array.from(this.nums), strs: this.strs, fresh: this.fresh, freshTerms: this.freshTerms };
    this.nums = [];
    this.strs = [];
    this.fresh = [];
    this.freshTerms = [];
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
    const count = nums[n++];
    const length = nums[n++];
    const terms = { nums, at: n, count, length };
    n += 2 * count;
    const agent = strs[s++];
    const task = strs[s++];
    const failed = strs[s++];
    visit(k, { stat, rec: { agent, ts, task, empty, failed }, refs, terms });
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

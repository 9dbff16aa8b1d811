// The messages between the cold build (parallelRead.ts) and its worker threads
// (indexWorker.ts): both sides import this module, so the layout is written
// once. Messages are compact because copying them was a fifth of a worker's
// time: a batch's answer is one Float64Array (transferred, not copied) of
// numbers, four strings per file (the search fields joined into one), and each touched path only the first time
// that worker meets it (afterwards a number).
import type { IndexRecord } from './indexRecord';
import type { Stat } from './vaultFiles';
import { SEARCH_FIELDS } from '../../core/searchText';

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
}

/** One file as a worker read it: the record with `failed` joined by newlines, the touched paths as numbers for `PathTable`. */
export interface WorkerFile {
  stat: Stat;
  rec: Omit<IndexRecord, 'paths' | 'failed'> & { failed: string };
  refs: number[];
}

// What comes first in a file's numbers.
const UNREADABLE = 0;
const RECORD = 1;

/** The worker's side: numbers the paths it meets and packs one batch's answer. */
export class BatchWriter {
  private readonly known = new Map<string, number>();
  private nums: number[] = [];
  private strs: string[] = [];
  private fresh: string[] = [];

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
    // The search fields travel as one string and their lengths: one string to clone instead of ten.
    for (const t of rec.text) this.nums.push(t.length);
    this.strs.push(rec.agent, rec.task, rec.failed.join('\n'), rec.text.join(''));
  }

  /** The batch's answer; the writer starts the next batch empty (but keeps its path numbers). */
  finish(seq: number): BatchResult {
    const out = { seq, nums: Float64Array.from(this.nums), strs: this.strs, fresh: this.fresh };
    this.nums = [];
    this.strs = [];
    this.fresh = [];
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
    const lengths = Array.from(nums.subarray(n, n + SEARCH_FIELDS.length));
    n += SEARCH_FIELDS.length;
    const agent = strs[s++];
    const task = strs[s++];
    const failed = strs[s++];
    const joined = strs[s++];
    const text: string[] = [];
    let at = 0;
    for (const len of lengths) {
      text.push(joined.slice(at, at + len));
      at += len;
    }
    visit(k, { stat, rec: { agent, ts, task, empty, failed, text }, refs });
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

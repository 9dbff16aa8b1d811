// The messages between the cold build (parallelRead.ts) and its worker threads
// (indexWorker.ts): both sides import this module, so the layout is written
// once. Messages are compact because copying them was a fifth of a worker's
// time: a batch's answer is one Float64Array (transferred, not copied) of
// numbers, three strings per file, and each touched path only the first time
// that worker meets it (afterwards a number). Its search terms are the search
// module's (search/workerTerms.ts): cut in the worker, sent as posting lists.
import type { IndexRecord } from './indexRecord';
import type { Stat } from './vaultFiles';
import type { SearchText } from '../../core/searchText';
import { BatchTermWriter, type BatchTerms } from '../search';

export type { BatchTerms };

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
  /** Whether records are read with their search text (a build without the text index reads none: search/textIndex.ts). */
  search: boolean;
  /** A test's failure: the worker exits when told to drain, holding the terms it was to send (parallelRead.ts reads those files again). */
  dieAtDrain?: boolean;
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

/** One file as a worker read it: the record with `failed` joined by newlines, the touched paths as numbers for `PathTable`. */
export interface WorkerFile {
  stat: Stat;
  rec: Omit<IndexRecord, 'paths' | 'failed' | 'search'> & { failed: string };
  refs: number[];
}

// What comes first in a file's numbers.
const UNREADABLE = 0;
const RECORD = 1;

/** A record read without its search text (a build without the text index). */
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

/** The worker's side: numbers the paths it meets and packs one batch's answer, its terms by the search module's writer. */
export class BatchWriter {
  private readonly known = new Map<string, number>();
  private readonly nums = new Numbers();
  private strs: string[] = [];
  private fresh: string[] = [];
  readonly terms: BatchTermWriter;

  constructor(laterBytes: number) {
    this.terms = new BatchTermWriter(laterBytes);
  }

  unreadable(): void {
    this.nums.push(UNREADABLE);
  }

  /** A file read; with `later`, its terms are cut at the drain. */
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
    this.terms.add(rec.search ?? NO_TEXT, later);
    this.strs.push(rec.agent, rec.machine, rec.person, rec.task, rec.failed.join('\n'));
  }

  /** The batch's answer; the writer starts the next batch empty (but keeps its path and term numbers). */
  finish(seq: number, later: boolean): BatchResult {
    const out = { seq, nums: this.nums.take(), strs: this.strs, fresh: this.fresh, terms: this.terms.finish(seq, later) };
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
    const agent = strs[s++];
    const machine = strs[s++];
    const person = strs[s++];
    const task = strs[s++];
    const failed = strs[s++];
    visit(k, { stat, rec: { agent, machine, person, ts, task, empty, failed }, refs });
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

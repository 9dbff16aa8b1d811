// A cold build reads and parses every checkpoint of the vault. Reading and
// parsing need nothing from the database, so worker threads do them while this
// thread writes what they have read into sql.js; and whenever this thread has
// nothing of theirs to write, it reads files itself, from the other end of the
// list, so neither core waits for the other.
//
// Messages are compact because copying them was a fifth of a worker's time: a
// batch is one Float64Array (transferred, not copied) of numbers, a few
// strings per file, and each touched path only the first time that worker
// meets it (afterwards a number).
//
// The worker is started from source (`eval`), not from a file, so nothing has
// to be bundled beside dist/cli.js and dist/extension.js: its code is the fast
// reader's own source (fastReader.ts keeps it self-contained for this), plus
// the few lines below. A file the fast reader gives up on comes back as text,
// for the real parser on this thread. If a worker cannot start or fails, this
// thread reads what it had: the result is the same, only slower.
import type * as Fs from 'fs';
import * as os from 'os';
import type * as WorkerThreads from 'worker_threads';
import { Worker } from 'worker_threads';
import { bodyReader } from '../markdown/bodyReader';
import { fastReader } from '../markdown/fastReader';

export interface ReadRequest {
  /** Absolute path. */
  file: string;
  /** The checkpoint id (file name without .md). */
  id: string;
}

/** One file as a worker read it. */
export interface WorkerFile {
  mtime: number;
  size: number;
  bytes: number;
  /** What the index keeps, with `failed` already joined by newlines; null when the fast reader gave up (then `text`). */
  rec: { agent: string; ts: number; task: string; empty: boolean; failed: string } | null;
  /** The touched paths, as numbers for `paths.raw`. */
  refs: number[];
  text: string;
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

/** Where the files go, in whatever order they are read. */
export interface ReadSink {
  /** File `at` as a worker read it; null when it could not be read. */
  fromWorker(at: number, file: WorkerFile | null, paths: PathTable): void;
  /** Files `from` to `to` (exclusive) are this thread's to read, now. */
  here(from: number, to: number): void;
}

// Field kinds in a batch's numbers.
const UNREADABLE = 0;
const RECORD = 1;
const TEXT = 2;

// Runs inside the worker. It must not reference anything outside itself: it
// is sent as source. `makeReader` is the fast reader's source.
function workerMain(makeReader: () => { fastRecord(text: string, id: string): unknown }): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require('fs') as typeof Fs;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parentPort, workerData } = require('worker_threads') as typeof WorkerThreads;
  const reader = makeReader();
  const cap: number = workerData.cap;
  const known = new Map<string, number>();
  let buf = Buffer.allocUnsafe(64 * 1024);
  parentPort?.on('message', (msg: { seq: number; files: { file: string; id: string }[] }) => {
    const nums: number[] = [];
    const strs: string[] = [];
    const fresh: string[] = [];
    for (const { file, id } of msg.files) {
      let fd: number | undefined;
      try {
        fd = fs.openSync(file, 'r');
        const st = fs.fstatSync(fd);
        const want = Math.min(st.size, cap);
        if (buf.length < want) buf = Buffer.allocUnsafe(want);
        let read = 0;
        while (read < want) {
          const n = fs.readSync(fd, buf, read, want - read, read);
          if (n === 0) break;
          read += n;
        }
        const text = buf.toString('utf8', 0, read);
        const rec = reader.fastRecord(text, id) as { agent: string; ts: number; task: string; empty: boolean; paths: string[]; failed: string[] } | null;
        if (!rec) {
          nums.push(2, st.mtimeMs, st.size, read);
          strs.push(text);
          continue;
        }
        nums.push(1, st.mtimeMs, st.size, read, rec.ts, rec.empty ? 1 : 0, rec.paths.length);
        for (const p of rec.paths) {
          let ref = known.get(p);
          if (ref === undefined) {
            ref = known.size;
            known.set(p, ref);
            fresh.push(p);
          }
          nums.push(ref);
        }
        strs.push(rec.agent, rec.task, rec.failed.join('\n'));
      } catch {
        nums.push(0);
      } finally {
        if (fd !== undefined) fs.closeSync(fd);
      }
    }
    const packed = Float64Array.from(nums);
    parentPort?.postMessage({ seq: msg.seq, nums: packed, strs, fresh }, [packed.buffer]);
  });
}

// `__name` is the helper a transpiler that keeps function names (tsx, in the
// tests) calls inside function bodies; the worker has none of the bundle's
// helpers, so it gets a stand-in.
const SOURCE = `var __name = (f) => f;\n(${workerMain.toString()})(() => (${fastReader.toString()})(${bodyReader.toString()}));`;

/** How many files workers have read in this process (the tests check the worker path really ran). */
export const workerReads = { files: 0 };

/** Files per message: large enough that messaging costs little, small enough to start writing early. */
const BATCH = 256;
/** Batches in flight per worker: keeps the workers busy while this thread writes. */
const AHEAD = 3;
/** Files this thread reads between two looks at the workers' messages (a few ms of work). */
const STEAL = 48;

function cores(): number {
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
}

/**
 * Whether a cold build of this many files is worth workers: they take a few
 * tens of ms to start, and need a second core. BATON_INDEX_WORKER=0 never uses
 * them, =1 always does (tests).
 */
export function worthAWorker(files: number): boolean {
  const env = process.env.BATON_INDEX_WORKER;
  if (env === '0' || env === '1') return env === '1';
  return files >= 2000 && cores() >= 2;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface InFlight {
  from: number;
  to: number;
  settled: boolean;
  done: Promise<void>;
  resolve: () => void;
  result: { nums: Float64Array; strs: string[] } | null;
  paths: PathTable;
}

/**
 * Reads `files` with worker threads (one per core beyond this one, at most 4)
 * and this thread together, handing every file to `sink` once. This thread
 * yields to the event loop between batches. BATON_INDEX_STEAL=0 leaves every
 * file to the workers (tests).
 */
export async function readInWorkers(files: ReadRequest[], cap: number, sink: ReadSink): Promise<void> {
  const count = Math.max(1, Math.min(4, Number(process.env.BATON_INDEX_WORKERS) || cores() - 1));
  const steal = process.env.BATON_INDEX_STEAL !== '0';
  const workers: { worker: Worker; paths: PathTable; waiting: Map<number, InFlight> }[] = [];
  let alive = true;
  const fail = (): void => {
    alive = false;
    for (const w of workers) {
      for (const f of w.waiting.values()) settle(f, null);
      w.waiting.clear();
    }
  };
  try {
    for (let i = 0; i < count; i++) {
      // A generous young generation: the reader allocates a string per file and little that lives long.
      const worker = new Worker(SOURCE, { eval: true, workerData: { cap }, resourceLimits: { maxYoungGenerationSizeMb: 48 } });
      const entry = { worker, paths: new PathTable(), waiting: new Map<number, InFlight>() };
      worker.on('message', (m: { seq: number; nums: Float64Array; strs: string[]; fresh: string[] }) => {
        // Paths are numbered in the order the worker met them, so they are kept as messages arrive.
        for (const p of m.fresh) entry.paths.raw.push(p);
        const f = entry.waiting.get(m.seq);
        entry.waiting.delete(m.seq);
        if (f) settle(f, m);
      });
      worker.on('error', fail);
      worker.on('exit', fail);
      workers.push(entry);
    }
  } catch {
    if (workers.length === 0) alive = false;
  }

  let front = 0;
  let back = files.length;
  let seq = 0;
  const inFlight: InFlight[] = [];
  const send = (): void => {
    const w = workers[seq % workers.length];
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    const f: InFlight = { from: front, to: Math.min(front + BATCH, back), settled: false, result: null, paths: w.paths, done, resolve };
    front = f.to;
    w.waiting.set(seq, f);
    w.worker.postMessage({ seq, files: files.slice(f.from, f.to) });
    seq += 1;
    inFlight.push(f);
  };
  try {
    for (;;) {
      while (alive && front < back && inFlight.length < AHEAD * workers.length) send();
      const ready = inFlight.findIndex((f) => f.settled);
      if (ready >= 0) {
        const [f] = inFlight.splice(ready, 1);
        if (f.result) hand(f, sink);
        else sink.here(f.from, f.to);
      } else if (front < back && (steal || !alive)) {
        const from = Math.max(front, back - STEAL);
        sink.here(from, back);
        back = from;
      } else if (inFlight.length > 0) {
        await Promise.race(inFlight.map((f) => f.done));
        continue;
      } else {
        break;
      }
      await nextTurn();
    }
  } finally {
    for (const w of workers) w.worker.removeAllListeners('exit');
    await Promise.all(workers.map((w) => w.worker.terminate()));
  }
}

function settle(f: InFlight, result: { nums: Float64Array; strs: string[] } | null): void {
  if (f.settled) return;
  f.settled = true;
  f.result = result;
  f.resolve();
}

/** Decodes a worker's batch (see workerMain) file by file into the sink. */
function hand(f: InFlight, sink: ReadSink): void {
  const { nums, strs } = f.result!;
  let n = 0;
  let s = 0;
  for (let at = f.from; at < f.to; at++) {
    const kind = nums[n++];
    if (kind === UNREADABLE) {
      sink.fromWorker(at, null, f.paths);
      continue;
    }
    const file: WorkerFile = { mtime: nums[n++], size: nums[n++], bytes: nums[n++], rec: null, refs: [], text: '' };
    if (kind === TEXT) {
      file.text = strs[s++];
    } else if (kind === RECORD) {
      const ts = nums[n++];
      const empty = nums[n++] === 1;
      const count = nums[n++];
      for (let k = 0; k < count; k++) file.refs.push(nums[n++]);
      file.rec = { agent: strs[s++], ts, task: strs[s++], empty, failed: strs[s++] };
    }
    sink.fromWorker(at, file, f.paths);
  }
  workerReads.files += f.to - f.from;
}

// A cold build reads and parses every checkpoint of the vault. Reading and
// parsing take most of that time and need nothing from the database, so they
// run in a worker thread while this thread writes what the worker has already
// read into sql.js: the two overlap on a machine with two cores or more.
//
// The worker is started from source (`eval`), not from a file, so nothing has
// to be bundled beside dist/cli.js and dist/extension.js: its code is the fast
// reader's own source (fastReader.ts keeps it self-contained for this), plus
// the few lines below. A file the fast reader gives up on comes back as text,
// for the real parser on this thread. If the worker cannot start or fails,
// the caller reads on its own thread: the result is the same, only slower.
import type * as Fs from 'fs';
import * as os from 'os';
import type * as WorkerThreads from 'worker_threads';
import { Worker } from 'worker_threads';
import { fastReader, type IndexRecord } from './fastReader';

export interface ReadRequest {
  /** Absolute path. */
  file: string;
  /** The checkpoint id (file name without .md). */
  id: string;
}

/** One file as read: its stat, and either its record or (when the fast reader gave up) its text; null when unreadable. */
export type ReadResult = { mtime: number; size: number; bytes: number; rec: IndexRecord | null; text: string | null } | null;

// Runs inside the worker. It must not reference anything outside itself: it
// is sent as source. `makeReader` is the fast reader's source.
function workerMain(makeReader: () => { fastRecord(text: string, id: string): unknown }): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require('fs') as typeof Fs;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parentPort, workerData } = require('worker_threads') as typeof WorkerThreads;
  const reader = makeReader();
  const cap: number = workerData.cap;
  let buf = Buffer.allocUnsafe(64 * 1024);
  parentPort?.on('message', (msg: { seq: number; files: { file: string; id: string }[] }) => {
    const out = msg.files.map(({ file, id }) => {
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
        const rec = reader.fastRecord(text, id);
        return { mtime: st.mtimeMs, size: st.size, bytes: read, rec, text: rec ? null : text };
      } catch {
        return null;
      } finally {
        if (fd !== undefined) fs.closeSync(fd);
      }
    });
    parentPort?.postMessage({ seq: msg.seq, out });
  });
}

// `__name` is the helper a transpiler that keeps function names (tsx, in the
// tests) calls inside function bodies; the worker has none of the bundle's
// helpers, so it gets a stand-in.
const SOURCE = `var __name = (f) => f;\n(${workerMain.toString()})(${fastReader.toString()});`;

/** How many files workers have read in this process (the tests check the worker path really ran). */
export const workerReads = { files: 0 };

/** Files per message: large enough that messaging costs little, small enough to start writing early. */
const BATCH = 256;
/** Batches in flight per worker: keeps the workers busy while this thread writes. */
const AHEAD = 3;

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

/**
 * Reads `files` in worker threads (one per core beyond this one, at most 4),
 * handing each batch's results to `take` in order, awaiting it before the
 * next. Returns the index of the first file not handed over (all of them on
 * success); the caller reads those itself.
 */
export async function readInWorker(
  files: ReadRequest[],
  cap: number,
  take: (results: ReadResult[], from: number) => Promise<void>,
): Promise<number> {
  const count = Math.max(1, Math.min(4, Number(process.env.BATON_INDEX_WORKERS) || cores() - 1));
  const workers: Worker[] = [];
  const waiting = new Map<number, (out: ReadResult[] | null) => void>();
  const fail = (): void => {
    for (const resolve of waiting.values()) resolve(null);
    waiting.clear();
  };
  try {
    for (let i = 0; i < count; i++) {
      // A generous young generation: the reader allocates a string per file and little that lives long.
      const w = new Worker(SOURCE, { eval: true, workerData: { cap }, resourceLimits: { maxYoungGenerationSizeMb: 48 } });
      w.on('message', (m: { seq: number; out: ReadResult[] }) => {
        waiting.get(m.seq)?.(m.out);
        waiting.delete(m.seq);
      });
      w.on('error', fail);
      w.on('exit', fail);
      workers.push(w);
    }
  } catch {
    if (workers.length === 0) return 0;
  }
  const send = (seq: number): Promise<ReadResult[] | null> =>
    new Promise((resolve) => {
      waiting.set(seq, resolve);
      workers[seq % workers.length].postMessage({ seq, files: files.slice(seq * BATCH, (seq + 1) * BATCH) });
    });
  const batches = Math.ceil(files.length / BATCH);
  const inFlight: Promise<ReadResult[] | null>[] = [];
  let next = 0;
  let done = 0;
  try {
    while (done < batches) {
      while (next < batches && next - done < AHEAD * workers.length) inFlight.push(send(next++));
      const out = await inFlight.shift();
      if (!out) return done * BATCH;
      await take(out, done * BATCH);
      workerReads.files += out.length;
      done += 1;
    }
    return files.length;
  } finally {
    for (const w of workers) w.removeAllListeners('exit');
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

// A cold build reads and parses every checkpoint of the vault. Reading and
// parsing need nothing from the database, so worker threads do them while this
// thread writes what they have read into sql.js; and whenever this thread has
// nothing of theirs to write, it reads files itself, from the other end of the
// list, so neither core waits for the other.
//
// A worker is a real entry point (indexWorker.ts) reading through the same
// modules as this thread; what it sends back is laid out in workerBatch.ts. If
// a worker cannot start or fails, this thread reads what it had: the result is
// the same, only slower.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Worker } from 'worker_threads';
import { eachFile, PathTable, TermTable, type BatchRequest, type BatchResult, type ReadRequest, type WorkerConfig, type WorkerFile, type WorkerLists } from './workerBatch';

/** Where the files go, in whatever order they are read. */
export interface ReadSink {
  /**
   * File `at` as a worker read it; null when it could not be read. Returns the
   * id of the checkpoint written whose terms are the worker's (-1: none).
   */
  fromWorker(at: number, file: WorkerFile | null, paths: PathTable): number;
  /** After the files of a batch: its posting lists, `ids[r]` what fromWorker returned for the batch's r-th file read. */
  workerLists(lists: WorkerLists, ids: Int32Array, terms: TermTable): void;
  /** Files `from` to `to` (exclusive) are this thread's to read, now. */
  here(from: number, to: number): void;
}

/** How to start a worker: a file, or (from source) code that loads one. */
interface WorkerScript {
  script: string;
  eval: boolean;
}

/**
 * The worker beside this code: dist/indexWorker.js beside the bundle that is
 * running (esbuild.js builds it beside cli.js, mcp.js and extension.js, and
 * the .vsix ships dist/*.js; bench/run.js puts one beside its own bundles).
 * When this module runs from source under tsx (the tests, `tsx src/cli.ts`),
 * indexWorker.ts is loaded through tsx's require hook, so no build is needed.
 * Null when there is none (a bundle built without it).
 */
function workerScript(): WorkerScript | null {
  if (__filename.endsWith('.ts')) {
    const entry = JSON.stringify(path.join(__dirname, 'indexWorker.ts'));
    return { script: `const r = require('module').createRequire(${entry}); r('tsx/cjs/api').register(); r(${entry});`, eval: true };
  }
  const file = path.join(__dirname, 'indexWorker.js');
  return fs.existsSync(file) ? { script: file, eval: false } : null;
}

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
 * them, =1 always does (tests; see `readInWorkers`).
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
  result: BatchResult | null;
  paths: PathTable;
  terms: TermTable;
}

/**
 * Reads `files` with worker threads (one per core beyond this one, at most 4)
 * and this thread together, handing every file to `sink` once; resolves to how
 * many the workers read. This thread yields to the event loop between batches.
 * BATON_INDEX_STEAL=0 leaves every file to the workers, and with
 * BATON_INDEX_WORKER=1 a worker that cannot be found or fails is an error, not
 * a quiet fallback: tests use both to be sure the workers did the reading.
 */
export async function readInWorkers(files: ReadRequest[], cap: number, sink: ReadSink): Promise<{ byWorkers: number }> {
  const count = Math.max(1, Math.min(4, Number(process.env.BATON_INDEX_WORKERS) || cores() - 1));
  const steal = process.env.BATON_INDEX_STEAL !== '0';
  const strict = process.env.BATON_INDEX_WORKER === '1';
  const script = workerScript();
  if (!script && strict) throw new Error(`No index worker beside ${__filename} (BATON_INDEX_WORKER=1 asks for one).`);
  const workers: { worker: Worker; paths: PathTable; terms: TermTable; waiting: Map<number, InFlight> }[] = [];
  let alive = script !== null;
  let failure: unknown = null;
  const fail = (err: unknown): void => {
    alive = false;
    failure ??= err ?? new Error('an index worker stopped');
    for (const w of workers) {
      for (const f of w.waiting.values()) settle(f, null);
      w.waiting.clear();
    }
  };
  const config: WorkerConfig = { cap };
  try {
    for (let i = 0; script && i < count; i++) {
      // A generous young generation: the reader allocates a string per file and little that lives long.
      const worker = new Worker(script.script, { eval: script.eval, workerData: config, resourceLimits: { maxYoungGenerationSizeMb: 48 } });
      const entry = { worker, paths: new PathTable(), terms: new TermTable(), waiting: new Map<number, InFlight>() };
      worker.on('message', (m: BatchResult) => {
        // Paths are numbered in the order the worker met them, so they are kept as messages arrive.
        for (const p of m.fresh) entry.paths.raw.push(p);
        for (const t of m.freshTerms) entry.terms.raw.push(t);
        const f = entry.waiting.get(m.seq);
        entry.waiting.delete(m.seq);
        if (f) settle(f, m);
      });
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`an index worker exited (${code})`)));
      workers.push(entry);
    }
  } catch (err) {
    failure = err;
    if (workers.length === 0) alive = false;
  }

  let front = 0;
  let back = files.length;
  let seq = 0;
  let byWorkers = 0;
  const inFlight: InFlight[] = [];
  const send = (): void => {
    const w = workers[seq % workers.length];
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    const f: InFlight = { from: front, to: Math.min(front + BATCH, back), settled: false, result: null, paths: w.paths, terms: w.terms, done, resolve };
    front = f.to;
    w.waiting.set(seq, f);
    const batch: BatchRequest = { seq, files: files.slice(f.from, f.to) };
    w.worker.postMessage(batch);
    seq += 1;
    inFlight.push(f);
  };
  try {
    for (;;) {
      while (alive && front < back && inFlight.length < AHEAD * workers.length) send();
      const ready = inFlight.findIndex((f) => f.settled);
      if (ready >= 0) {
        const [f] = inFlight.splice(ready, 1);
        if (f.result) {
          const ids = new Int32Array(f.to - f.from);
          let read = 0;
          eachFile(f.result, f.to - f.from, (k, file) => {
            const id = sink.fromWorker(f.from + k, file, f.paths);
            if (file) ids[read++] = id;
          });
          sink.workerLists(f.result.lists, ids.subarray(0, read), f.terms);
          byWorkers += f.to - f.from;
        } else sink.here(f.from, f.to);
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
  if (strict && failure) throw failure;
  return { byWorkers };
}

function settle(f: InFlight, result: BatchResult | null): void {
  if (f.settled) return;
  f.settled = true;
  f.result = result;
  f.resolve();
}

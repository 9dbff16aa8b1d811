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
import { TermTable, type BatchTerms, type WorkerLists } from '../search';
import { eachFile, PathTable, type BatchRequest, type BatchResult, type ReadRequest, type ToWorker, type WorkerConfig, type WorkerFile } from './workerBatch';

/** Where the files go, in whatever order they are read. */
interface ReadSink {
  /**
   * File `at` as a worker read it; null when it could not be read. Returns the
   * id of the checkpoint written whose terms are the worker's (-1: none).
   */
  fromWorker(at: number, file: WorkerFile | null, paths: PathTable): number;
  /**
   * A batch's posting lists, when they come (with its files, or after the
   * read for a batch cut later), `ids[r]` what fromWorker returned for the
   * batch's r-th file read.
   */
  workerLists(lists: WorkerLists, ids: Int32Array, terms: TermTable): void;
  /** Files `from` to `to` (exclusive) are this thread's to read, now. */
  here(from: number, to: number): void;
  /** The worker that read file `at` (checkpoint `id`) stopped before sending its terms: they are this thread's to cut. */
  termsHere(at: number, id: number): void;
}

/** A cold build's read, done but for the terms of the batches cut last. */
export interface WorkersRead {
  /** Files the workers read. */
  byWorkers: number;
  /** Resolves once every batch's terms have gone to the sink, and stops the workers. */
  finish(): Promise<void>;
  /** Stops the workers without waiting (a refresh that failed). */
  stop(): Promise<void>;
}

/** How a cold build uses workers: passed down from SqlIndex.open (app/openBaton.ts says where from). */
export interface WorkerOptions {
  /**
   * 'auto' (the default): workers for a build of 2000 files or more on two
   * cores; 'never'; 'always': workers however few the files, and a worker that
   * cannot be found or fails is an error, not a quiet fallback (tests use it
   * to be sure the workers did the reading).
   */
  mode?: 'auto' | 'never' | 'always';
  /** Workers to start (default one per core beyond this one; at most 4 either way). */
  count?: number;
  /** False: this thread reads none of the files, the workers read them all (default true). */
  steal?: boolean;
  /** A test's failure: each worker exits when told to drain, holding the terms it was to send. */
  dieAtDrain?: boolean;
  /** The worker to start instead of the one beside this code (null: none there; a test's missing worker). */
  script?: WorkerScript | null;
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
 * tens of ms to start, and need a second core (WorkerOptions.mode overrides).
 */
export function worthAWorker(files: number, opts: WorkerOptions = {}): boolean {
  if (opts.mode === 'never' || opts.mode === 'always') return opts.mode === 'always';
  return files >= 2000 && cores() >= 2;
}

/**
 * The share of a cold build's files whose terms the workers cut last, once
 * every file is read: about as long as what this thread then does alone
 * (touched paths, secondary indexes) keeps it, on the bench's vaults
 * (BENCHMARKS.md).
 */
const LATER_SHARE = 0.25;
/** The most bytes of text a worker keeps for later (search/termBacklog.ts). */
const LATER_BYTES = 48 * 1024 * 1024;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface InFlight {
  from: number;
  to: number;
  settled: boolean;
  done: Promise<void>;
  resolve: () => void;
  result: BatchResult | null;
}

/** A batch whose files are written, its terms not yet: where its files were and the ids they got. */
interface Awaited {
  at: Int32Array;
  ids: Int32Array;
}

interface Reader {
  worker: Worker;
  paths: PathTable;
  terms: TermTable;
  waiting: Map<number, InFlight>;
  /** Batches written whose terms are to come, and terms come before their batch was written. */
  awaited: Map<number, Awaited>;
  early: Map<number, BatchTerms>;
  dead: boolean;
}

/**
 * Reads `files` with worker threads (one per core beyond this one, at most 4)
 * and this thread together, handing every file to `sink` once, with its
 * search text when `search` (IndexRecord); resolves when
 * every file is written, the terms of the last batches still to come (see
 * LATER_SHARE): `finish` waits for them. This thread yields to the event loop
 * between batches. How workers are used, and whether this thread reads too,
 * is `opts` (WorkerOptions).
 */
export async function readInWorkers(files: ReadRequest[], cap: number, search: boolean, sink: ReadSink, opts: WorkerOptions = {}): Promise<WorkersRead> {
  const count = Math.max(1, Math.min(4, opts.count ?? cores() - 1));
  const steal = opts.steal ?? true;
  const strict = opts.mode === 'always';
  const script = opts.script === undefined ? workerScript() : opts.script;
  if (!script && strict) throw new Error(`No index worker beside ${__filename} (workers were required).`);
  const readers: Reader[] = [];
  let alive = script !== null;
  let failure: unknown = null;
  let allTermsIn: (() => void) | null = null;
  const termsOut = (): boolean => readers.some((r) => r.awaited.size > 0);
  const settledTerms = (): void => {
    if (allTermsIn && !termsOut()) allTermsIn();
  };
  const lost = (a: Awaited): void => {
    for (let r = 0; r < a.ids.length; r++) if (a.ids[r] >= 0) sink.termsHere(a.at[r], a.ids[r]);
  };
  const fail = (err: unknown): void => {
    alive = false;
    failure ??= err ?? new Error('an index worker stopped');
    for (const r of readers) {
      r.dead = true;
      for (const f of r.waiting.values()) settle(f, null);
      r.waiting.clear();
      for (const a of r.awaited.values()) lost(a);
      r.awaited.clear();
    }
    settledTerms();
  };
  const config: WorkerConfig = { cap, laterBytes: LATER_BYTES, search, dieAtDrain: opts.dieAtDrain };
  try {
    for (let i = 0; script && i < count; i++) {
      // A generous young generation: the reader allocates a string per file and little that lives long.
      const worker = new Worker(script.script, { eval: script.eval, workerData: config, resourceLimits: { maxYoungGenerationSizeMb: 48 } });
      const r: Reader = { worker, paths: new PathTable(), terms: new TermTable(), waiting: new Map(), awaited: new Map(), early: new Map(), dead: false };
      worker.on('message', (m: BatchResult | BatchTerms) => {
        // Paths and terms are numbered in the order the worker met them, so they are kept as messages arrive.
        const terms = 'nums' in m ? m.terms : m;
        if (terms) for (const t of terms.freshTerms) r.terms.raw.push(t);
        if ('nums' in m) {
          for (const p of m.fresh) r.paths.raw.push(p);
          const f = r.waiting.get(m.seq);
          r.waiting.delete(m.seq);
          if (f) settle(f, m);
          return;
        }
        const a = r.awaited.get(m.seq);
        if (!a) return void r.early.set(m.seq, m);
        r.awaited.delete(m.seq);
        sink.workerLists(m.lists, a.ids, r.terms);
        settledTerms();
      });
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`an index worker exited (${code})`)));
      readers.push(r);
    }
  } catch (err) {
    failure = err;
    if (readers.length === 0) alive = false;
  }
  const stop = async (): Promise<void> => {
    for (const r of readers) {
      r.worker.removeAllListeners('exit');
      r.worker.removeAllListeners('message');
    }
    await Promise.all(readers.map((r) => r.worker.terminate()));
  };

  let front = 0;
  let back = files.length;
  let seq = 0;
  let byWorkers = 0;
  const laterBudget = Math.floor(files.length * LATER_SHARE);
  let laterLeft = laterBudget;
  let drained = false;
  const inFlight: { f: InFlight; r: Reader; seq: number }[] = [];
  const send = (): void => {
    const r = readers[seq % readers.length];
    let resolve!: () => void;
    const done = new Promise<void>((ok) => (resolve = ok));
    const f: InFlight = { from: front, to: Math.min(front + BATCH, back), settled: false, result: null, done, resolve };
    // The last batches' terms are cut after the read (LATER_SHARE): this thread steals from the back, so "last" is when few files are left.
    const later = laterLeft > 0 && back - front <= 2 * laterBudget;
    if (later) laterLeft -= f.to - f.from;
    front = f.to;
    r.waiting.set(seq, f);
    const batch: BatchRequest = { seq, files: files.slice(f.from, f.to), later };
    r.worker.postMessage(batch);
    inFlight.push({ f, r, seq });
    seq += 1;
  };
  /** A batch's files, as its worker read them. */
  const write = (f: InFlight, r: Reader, s: number, result: BatchResult): void => {
    const ids = new Int32Array(f.to - f.from);
    const at = new Int32Array(f.to - f.from);
    let read = 0;
    eachFile(result, f.to - f.from, (k, file) => {
      const id = sink.fromWorker(f.from + k, file, r.paths);
      if (file) {
        ids[read] = id;
        at[read++] = f.from + k;
      }
    });
    const a: Awaited = { ids: ids.subarray(0, read), at: at.subarray(0, read) };
    const terms = result.terms ?? r.early.get(s);
    r.early.delete(s);
    if (terms) sink.workerLists(terms.lists, a.ids, r.terms);
    else if (r.dead) lost(a);
    else r.awaited.set(s, a);
    byWorkers += f.to - f.from;
  };
  try {
    for (;;) {
      while (alive && front < back && inFlight.length < AHEAD * readers.length) send();
      if (alive && front >= back && !drained) {
        drained = true;
        for (const r of readers) r.worker.postMessage({ drain: true } satisfies ToWorker);
      }
      const ready = inFlight.findIndex(({ f }) => f.settled);
      if (ready >= 0) {
        const [{ f, r, seq: s }] = inFlight.splice(ready, 1);
        if (f.result) write(f, r, s, f.result);
        else sink.here(f.from, f.to);
      } else if (front < back && (steal || !alive)) {
        const from = Math.max(front, back - STEAL);
        sink.here(from, back);
        back = from;
      } else if (inFlight.length > 0) {
        await Promise.race(inFlight.map(({ f }) => f.done));
        continue;
      } else {
        break;
      }
      await nextTurn();
    }
  } catch (err) {
    await stop();
    throw err;
  }
  if (strict && failure) {
    await stop();
    throw failure;
  }
  const finish = async (): Promise<void> => {
    try {
      if (termsOut()) await new Promise<void>((resolve) => (allTermsIn = resolve));
    } finally {
      await stop();
    }
    if (strict && failure) throw failure;
  };
  return { byWorkers, finish, stop };
}

function settle(f: InFlight, result: BatchResult | null): void {
  if (f.settled) return;
  f.settled = true;
  f.result = result;
  f.resolve();
}

// A cold build's second half: the checkpoint files the walk found new are read
// all together, here in slices or, when there are many, by worker threads
// (parallelRead.ts) whose records this side writes as they arrive.
import type { RefreshStats } from '../../core/ports';
import { readCheckpointTextSync, WHOLE_CAP } from '../vault/checkpointText';
import type { SearchPort } from '../search';
import { indexRecord } from './indexRecord';
import type { CheckpointRows } from './checkpointRows';
import type { PathTouches } from './pathTouches';
import { readInWorkers, worthAWorker, type WorkerOptions, type WorkersRead } from './parallelRead';
import type { Stat } from './vaultFiles';

/**
 * Checkpoint files up to this size are read whole (by the workers too); a
 * bigger one is read section by section, each section capped, with a line
 * saying what was left out (checkpointText.ts): a 50 MB State must neither
 * stall a view nor push Files and Didn't work out of the index. Notes files
 * are read whole, line by line, whatever their size.
 */
const CHECKPOINT_CAP = WHOLE_CAP;

/** A file a bulk load reads after the walk. */
export interface Deferred {
  /** Its scope's row id. */
  scope: number;
  /** The file name (with .md). */
  name: string;
  file: string;
}

/** What the writer lends the read: where records go, and a turn for the event loop. */
export interface ColdSink {
  /** A file read on this thread, whole text. */
  putWhole(d: Deferred, st: Stat, text: string): void;
  /** A record a worker parsed; returns its row id. */
  putRead(d: Deferred, st: Stat, rec: Parameters<CheckpointRows['put']>[3], pathIds: (number | null)[]): number;
  paths: PathTouches;
  text: SearchPort;
  breathe(): Promise<void>;
}

/** Reads the deferred files, with workers when there are many, and writes each; with workers, the terms of the last batches are still to come. */
export async function readDeferred(deferred: Deferred[], stats: RefreshStats, sink: ColdSink, workers?: WorkerOptions): Promise<WorkersRead | null> {
  const readHere = (d: Deferred): void => {
    const read = readCheckpointTextSync(d.file);
    if (!read) return;
    sink.putWhole(d, read.stat, read.text);
    stats.checkpointsParsed += 1;
  };
  const here = (from: number, to: number): void => {
    for (const d of deferred.slice(from, to)) readHere(d);
  };
  if (!worthAWorker(deferred.length, workers)) {
    for (let i = 0; i < deferred.length; i += 32) {
      here(i, i + 32);
      await sink.breathe();
    }
    return null;
  }
  const resolve = (raw: string): number | null => sink.paths.idOfRaw(raw);
  const read = await readInWorkers(
    deferred.map((d) => ({ file: d.file, id: d.name.slice(0, -3) })),
    CHECKPOINT_CAP,
    sink.text.on,
    {
      here,
      fromWorker: (at, file, paths) => {
        if (!file) return -1;
        const d = deferred[at];
        if (file.stat.size > CHECKPOINT_CAP) {
          // A worker reads the first CHECKPOINT_CAP bytes only: a bigger file is read here, every section kept.
          readHere(d);
          return -1;
        }
        const id = sink.putRead(
          d,
          file.stat,
          file.rec,
          file.refs.map((ref) => paths.id(ref, resolve)),
        );
        stats.checkpointsParsed += 1;
        return id;
      },
      workerLists: (lists, ids, terms) => sink.text.putBatch(lists, ids, terms),
      termsHere: (at, id) => {
        // A file changed since it was written here is written again by the next refresh (its stat moved).
        const d = deferred[at];
        const again = readCheckpointTextSync(d.file);
        const search = again && indexRecord(again.text, d.name.slice(0, -3)).search;
        if (search) sink.text.put('checkpoint', id, search);
      },
    },
    workers,
  );
  stats.checkpointsReadInWorkers += read.byWorkers;
  return read;
}

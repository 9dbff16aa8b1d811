// The entry point of a cold build's worker thread (started by parallelRead.ts).
// esbuild bundles it as dist/indexWorker.js, beside the bundles that start it;
// under tsx (the tests) this very file runs. It reads and parses through the
// same modules as the main thread (indexRecord.ts), the real parser included,
// so a file the fast reader gives up on is parsed here too.
import { parentPort, workerData } from 'worker_threads';
import { listBuffers } from '../search';
import { indexRecord } from './indexRecord';
import { readCapped, type Scratch } from './vaultFiles';
import { BatchWriter, type ToWorker, type WorkerConfig } from './workerBatch';

const { cap, laterBytes, search, dieAtDrain } = workerData as WorkerConfig;
const writer = new BatchWriter(laterBytes);
const scratch: Scratch = { buf: Buffer.allocUnsafe(64 * 1024) };

parentPort?.on('message', (msg: ToWorker) => {
  if ('drain' in msg) {
    if (dieAtDrain) process.exit(9);
    writer.terms.drain((terms) => parentPort?.postMessage(terms, listBuffers(terms.lists)));
    return;
  }
  const later = msg.later && search && writer.terms.roomForLater;
  for (const { file, id } of msg.files) {
    const read = readCapped(file, cap, scratch);
    if (read) writer.record(read.stat, indexRecord(read.text, id, search), later);
    else writer.unreadable();
  }
  const out = writer.finish(msg.seq, later);
  parentPort?.postMessage(out, [out.nums.buffer, ...(out.terms ? listBuffers(out.terms.lists) : [])]);
});

// The entry point of a cold build's worker thread (started by parallelRead.ts).
// esbuild bundles it as dist/indexWorker.js, beside the bundles that start it;
// under tsx (the tests) this very file runs. It reads and parses through the
// same modules as the main thread (indexRecord.ts), the real parser included,
// so a file the fast reader gives up on is parsed here too.
import { parentPort, workerData } from 'worker_threads';
import { indexRecord } from './indexRecord';
import { readCapped, type Scratch } from './vaultFiles';
import { BatchWriter, type BatchRequest, type WorkerConfig } from './workerBatch';

const { cap } = workerData as WorkerConfig;
const writer = new BatchWriter();
const scratch: Scratch = { buf: Buffer.allocUnsafe(64 * 1024) };

parentPort?.on('message', (msg: BatchRequest) => {
  for (const { file, id } of msg.files) {
    const read = readCapped(file, cap, scratch);
    if (read) writer.record(read.stat, indexRecord(read.text, id));
    else writer.unreadable();
  }
  const out = writer.finish(msg.seq);
  parentPort?.postMessage(out, [out.nums.buffer, out.lists.meta.buffer, out.lists.postings.buffer]);
});

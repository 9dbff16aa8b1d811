// What the index keeps of one checkpoint file: through the fast reader
// (fastReader.ts) when the file is in the shape Baton and Logos write, else
// through the real parser. Both give the same record (pinned by
// test/unit/indexRecord.test.ts).
import { isEmptyCheckpoint } from '../../core/checkpointBody';
import { parseCheckpointSlow } from '../markdown/checkpointFile';
import { fastReader, type BodyFacts, type IndexRecord } from '../markdown/fastReader';

export type { BodyFacts, IndexRecord };

const reader = fastReader();

/** The index's reading of a body (exported for the test that pins it to parseBody). */
export const bodyFacts = (body: string): BodyFacts => reader.bodyFacts(body);

/** The record through the real parser: the reference, and the fallback. */
export function recordOfCheckpoint(text: string, id: string, scope: string): IndexRecord {
  const cp = parseCheckpointSlow(text, id, scope);
  return {
    agent: cp.agent,
    ts: cp.ts,
    task: cp.task || cp.next,
    empty: isEmptyCheckpoint(cp),
    paths: [...cp.files, ...cp.git.files],
    failed: cp.failed,
  };
}

/** The record, through the fast reader when the file is in the known shape. */
export function indexRecord(text: string, id: string, scope: string): IndexRecord {
  const fast = typeof text === 'string' ? reader.fastRecord(text, id) : null;
  return fast ?? recordOfCheckpoint(text, id, scope);
}

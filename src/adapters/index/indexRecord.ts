// What the index keeps of one checkpoint file: through the fast reader
// (markdown/fastReader.ts) when the file is in the shape Baton and Logos write,
// else through the real parser. Both give the same record (pinned by
// test/unit/indexRecord.test.ts). The main thread and the cold build's worker
// threads (indexWorker.ts) both read through here.
import { isEmptyCheckpoint } from '../../core/checkpointBody';
import { checkpointSearchFields, fieldsSearchText } from '../../core/searchText';
import { originOf } from '../../core/thread';
import { parseCheckpointSlow } from '../markdown/checkpointFile';
import { fastRecord, type IndexRecord } from '../markdown/fastReader';

export type { IndexRecord };

/**
 * The record through the real parser: the reference, and the fallback. None
 * of it depends on the scope. `search`: with what full-text search indexes
 * (a build without the text index reads none: SearchOptions.text).
 */
export function recordOfCheckpoint(text: string, id: string, search = true): IndexRecord {
  const cp = parseCheckpointSlow(text, id, '');
  const origin = originOf(cp);
  return {
    agent: cp.agent,
    machine: origin.machine,
    person: origin.person,
    ts: cp.ts,
    task: cp.task || cp.next,
    empty: isEmptyCheckpoint(cp),
    paths: [...cp.files, ...cp.git.files],
    failed: cp.failed,
    search: search ? fieldsSearchText(checkpointSearchFields(cp)) : null,
  };
}

/** The record, through the fast reader when the file is in the known shape. */
export function indexRecord(text: string, id: string, search = true): IndexRecord {
  return (typeof text === 'string' ? fastRecord(text, id, search) : null) ?? recordOfCheckpoint(text, id, search);
}

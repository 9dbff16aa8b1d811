// Full-text search, as the rest of Baton sees it: one port (SearchPort) and
// what a cold build's workers carry. Everything else in this folder (term
// cutting and stemming, posting lists, document lengths, segments and merges,
// BM25) is its own: nothing outside imports it, and its tables (docIds.ts's
// SEARCH_SCHEMA) are read and written only here. See the index's README
// (src/adapters/index/README.md, "Full-text search") for the design.
import type { TextHit, TextQuery } from '../../core/ports';
import type { SearchKind, SearchText } from '../../core/searchText';
import { SearchScratch, searchText, type SearchRecords } from './query';
import type { Sql } from './sql';
import { TextIndex, type TextIndexOptions } from './textIndex';
import type { TermTable, WorkerLists } from './workerTerms';

export { SEARCH_SCHEMA } from './docIds';
export type { FoundRecord, SearchRecords } from './query';
export type { TextIndexOptions as SearchOptions } from './textIndex';
export { BatchTermWriter, listBuffers, TermTable, type BatchTerms, type WorkerLists } from './workerTerms';

export interface SearchPort {
  /** False when built without the text index (SearchOptions.text): puts are dropped, and no search text need be read. */
  readonly on: boolean;
  /** Reads the stored figures; anything pending is dropped (after opening, and again after a rollback). */
  load(): void;
  /** A record's words: a checkpoint's as stretches of its file, a note's or a plan's as its text. Written at `flush`. */
  put(kind: SearchKind, id: number, text: SearchText | string): void;
  /** A cold build's batch of checkpoints, cut by a worker (workerTerms.ts): its r-th file is checkpoint `ids[r]` (-1: not its). */
  putBatch(lists: WorkerLists, ids: Int32Array, table: TermTable): void;
  remove(kind: SearchKind, id: number): void;
  /** Writes what was put and removed, inside the refresh's transaction, merging segments when it is time. */
  flush(): void;
  /** The best `q.limit` hits, best first; `records` answers for the rows and texts (the index). */
  query(q: TextQuery, records: SearchRecords): TextHit[];
  /** The largest row id, of any kind, that stored lists may still hold: new rows are numbered past it. */
  lastRowId(): number;
  /** What the text index holds (for tests): live documents, dead ones, segments. */
  figures(): { documents: number; dead: number; segments: number };
}

/** The search module over the index's database. */
export function openSearch(sql: Sql, opts: TextIndexOptions = {}): SearchPort {
  const text = new TextIndex(sql, opts);
  const scratch = new SearchScratch();
  return {
    get on() {
      return text.on;
    },
    load: () => text.load(),
    put: (kind, id, src) => text.put(kind, id, src),
    putBatch: (lists, ids, table) => text.putWorkerLists(lists, ids, table),
    remove: (kind, id) => text.remove(kind, id),
    flush: () => text.flush(),
    query: (q, records) => searchText(text, scratch, records, q),
    lastRowId: () => text.lastRowId(),
    figures: () => text.figures(),
  };
}

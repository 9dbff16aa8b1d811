// The writing side of full-text search: every checkpoint, open note and plan
// the index holds has one row in the FTS4 table `fts` (schema.ts), written
// and removed by the same refresh that writes the rest of the index, so a
// hand-edited file is found by its new words and a deleted one no longer.
import { searchable, SEARCH_FIELDS } from '../../core/searchText';
import { docId } from './schema';
import type { Statements } from './statements';

const CHECKPOINT_INSERT = `INSERT INTO fts(docid, ${SEARCH_FIELDS.join(', ')}) VALUES (?${', ?'.repeat(SEARCH_FIELDS.length)})`;
const TEXT_INSERT = 'INSERT INTO fts(docid, state) VALUES (?, ?)';
const DELETE = 'DELETE FROM fts WHERE docid = ?';

export class TextIndex {
  /**
   * BATON_INDEX_TEXT=0 writes no rows: the benchmark's one way to weigh what
   * the text index costs a cold build, side by side (bench/search.ts). Search
   * then finds nothing; nothing else changes.
   */
  private readonly on = process.env.BATON_INDEX_TEXT !== '0';

  constructor(private readonly sql: Statements) {}

  /** `fields` in SEARCH_FIELDS order; a checkpoint with no text has no row. */
  putCheckpoint(id: number, fields: readonly string[]): void {
    if (!this.on || fields.every((f) => f === '')) return;
    this.sql.run(CHECKPOINT_INSERT, [docId(id, 'checkpoint'), ...fields.map(searchable)]);
  }

  putNote(rowid: number, text: string): void {
    if (!this.on) return;
    this.sql.run(TEXT_INSERT, [docId(rowid, 'note'), searchable(text)]);
  }

  putPlan(id: number, text: string): void {
    if (!this.on) return;
    this.sql.run(TEXT_INSERT, [docId(id, 'plan'), searchable(text)]);
  }

  /** Deleting a docid FTS does not hold is no error: a checkpoint with no text has none. */
  removeCheckpoint(id: number): void {
    this.sql.run(DELETE, [docId(id, 'checkpoint')]);
  }

  removeNote(rowid: number): void {
    this.sql.run(DELETE, [docId(rowid, 'note')]);
  }

  removePlan(id: number): void {
    this.sql.run(DELETE, [docId(id, 'plan')]);
  }
}

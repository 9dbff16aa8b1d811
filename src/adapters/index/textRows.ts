// What the tables of searchable records a scope holds (plans: planRows.ts,
// notes: noteRows.ts) have in common: they write their rows and the text
// index together, and number new rows from where the index left off.
import type { Statements } from './statements';
import type { SearchPort } from '../search';

export abstract class TextRows {
  protected next = 1;

  constructor(
    protected readonly sql: Statements,
    protected readonly text: SearchPort,
  ) {}

  /** The id the next row gets (past every id a docid of the text index may still hold: indexWriter.ts). */
  reset(next: number): void {
    this.next = next;
  }
}

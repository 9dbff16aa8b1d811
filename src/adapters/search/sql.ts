// The little of the index's database the search module uses: its own tables
// (docIds.ts's SEARCH_SCHEMA, and `text.*` keys in `meta`) through the index's
// prepared statements (index/statements.ts), and, for a query, nothing else
// (the records' owner answers through SearchRecords: query.ts).
import type { SqlValue } from 'sql.js';

export interface Sql {
  run(sql: string, params?: SqlValue[]): void;
  rows<T extends unknown[]>(sql: string, params?: SqlValue[]): T[];
}

// sql.js statements prepared once and kept, with text bound and read back as
// UTF-8 bytes (see bindable): the one way the index talks to its database.
import type { Database, SqlValue, Statement } from 'sql.js';

/** Columns that really hold bytes; every other blob read back is UTF-8 text. */
const BINARY_COLUMNS = new Set(['head', 'rest', 'paths', 'postings', 'lengths']);

const textColumnsOf = (stmt: Statement): boolean[] => stmt.getColumnNames().map((c) => !BINARY_COLUMNS.has(c));

export class Statements {
  private readonly statements = new Map<string, Statement>();
  /** Per statement, which result columns are text. */
  private readonly textColumns = new Map<string, boolean[]>();

  constructor(private current: Database) {}

  get db(): Database {
    return this.current;
  }

  /** Runs on `db` from now on (a first build's roomier copy: roomyBuild.ts); the statements of the old one are freed. */
  reopen(db: Database): void {
    this.free();
    this.current = db;
  }

  run(sql: string, params: SqlValue[] = []): void {
    if (params.length === 0) {
      this.db.run(sql);
      return;
    }
    this.stmt(sql).run(params.map(bindable));
  }

  rows<T extends unknown[]>(sql: string, params: SqlValue[] = []): T[] {
    const out: T[] = [];
    this.each<T>(sql, params, (row) => {
      out.push(row);
      return true;
    });
    return out;
  }

  /**
   * The rows of a statement whose text is made per call (an IN list): prepared,
   * read and freed, never kept, so such text cannot grow the kept ones
   * without bound over an extension host's life.
   */
  once<T extends unknown[]>(sql: string, params: SqlValue[] = []): T[] {
    const stmt = this.db.prepare(sql);
    const out: T[] = [];
    try {
      this.step<T>(stmt, textColumnsOf(stmt), params, (row) => {
        out.push(row);
        return true;
      });
    } finally {
      stmt.free();
    }
    return out;
  }

  /** How many statements are kept prepared. */
  get kept(): number {
    return this.statements.size;
  }

  /** Steps through the rows (text back as strings) until `fn` returns false. */
  each<T extends unknown[]>(sql: string, params: SqlValue[], fn: (row: T) => boolean): void {
    const stmt = this.stmt(sql);
    let text = this.textColumns.get(sql);
    if (!text) {
      text = textColumnsOf(stmt);
      this.textColumns.set(sql, text);
    }
    this.step(stmt, text, params, fn);
  }

  private step<T extends unknown[]>(stmt: Statement, text: boolean[], params: SqlValue[], fn: (row: T) => boolean): void {
    try {
      if (params.length) stmt.bind(params.map(bindable));
      while (stmt.step()) {
        const row = stmt.get();
        for (let i = 0; i < row.length; i++) {
          const v = row[i];
          if (text[i] && v instanceof Uint8Array) row[i] = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('utf8');
        }
        if (!fn(row as T)) break;
      }
    } finally {
      stmt.reset();
    }
  }

  /** Frees every prepared statement (before the schema is dropped, or the database closed). */
  free(): void {
    for (const stmt of this.statements.values()) stmt.free();
    this.statements.clear();
    this.textColumns.clear();
  }

  /** A prepared statement, kept for the life of the index. */
  private stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }
}

/**
 * Text goes into the database as its UTF-8 bytes (a blob): Node encodes them
 * natively, where sql.js would encode a string one character at a time in
 * JavaScript, which made text most of the cost of a cold build. Byte order is
 * the order SQLite gives UTF-8 text, so comparisons and indexes are unchanged,
 * as long as every value and parameter of a column is bound this way. An empty
 * string stays text: a zero-length blob may be bound as NULL.
 */
function bindable(v: SqlValue): SqlValue {
  return typeof v === 'string' && v.length > 0 ? Buffer.from(v, 'utf8') : v;
}

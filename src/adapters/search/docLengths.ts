// Each text-index document's length (its words, weighted: BM25 needs it for
// every posting scored), kept once per document rather than in every posting
// of it: in chunks of CHUNK docids, one row of `text_lengths` each, so a
// refresh rewrites the chunk or two its new documents fall in, and a search
// loads every chunk in one query (2 bytes a document).
import type { Sql } from './sql';

const SHIFT = 12;
export const CHUNK = 1 << SHIFT;
/** A length past this is kept as this (only a document that long would notice). */
const MAX = 0xffff;

export class DocLengths {
  private chunks: (Uint16Array | undefined)[] = [];
  /** Whether each chunk has been read from the database (a missing row reads as a new chunk). */
  private read = new Set<number>();
  private all = false;
  private dirty = new Set<number>();

  constructor(private readonly sql: Sql) {}

  /** Forgets what was read and changed (again after a rollback). */
  load(): void {
    this.chunks = [];
    this.read = new Set();
    this.all = false;
    this.dirty = new Set();
  }

  set(docid: number, length: number): void {
    const c = this.chunk(docid >> SHIFT);
    c[docid & (CHUNK - 1)] = Math.min(MAX, length);
    this.dirty.add(docid >> SHIFT);
  }

  get(docid: number): number {
    return this.chunk(docid >> SHIFT)[docid & (CHUNK - 1)];
  }

  /** Every chunk, for a search: chunks[docid >> SHIFT][docid & (CHUNK - 1)] (undefined: none there). */
  every(): (Uint16Array | undefined)[] {
    if (!this.all) {
      for (const [n, data] of this.sql.rows<[number, Uint8Array]>('SELECT chunk, lengths FROM text_lengths')) {
        if (this.read.has(n)) continue;
        this.chunks[n] = fromBytes(data);
        this.read.add(n);
      }
      this.all = true;
    }
    return this.chunks;
  }

  /** Writes the chunks changed since the last flush. */
  flush(): void {
    for (const n of this.dirty) {
      const c = this.chunks[n]!;
      this.sql.run('INSERT OR REPLACE INTO text_lengths(chunk, lengths) VALUES (?, ?)', [n, new Uint8Array(c.buffer, c.byteOffset, c.byteLength)]);
    }
    this.dirty.clear();
  }

  /** Drops every length (a full merge writes the live ones again). */
  clear(): void {
    this.sql.run('DELETE FROM text_lengths');
    this.chunks = [];
    this.read = new Set();
    this.all = true;
    this.dirty.clear();
  }

  private chunk(n: number): Uint16Array {
    let c = this.chunks[n];
    if (c) return c;
    if (!this.read.has(n) && !this.all) {
      const data = this.sql.rows<[Uint8Array]>('SELECT lengths FROM text_lengths WHERE chunk = ?', [n])[0]?.[0];
      this.read.add(n);
      if (data) c = this.chunks[n] = fromBytes(data);
    }
    return c ?? (this.chunks[n] = new Uint16Array(CHUNK));
  }
}

/** A copy, aligned (sql.js hands back a view into its own memory). */
function fromBytes(data: Uint8Array): Uint16Array {
  const out = new Uint16Array(CHUNK);
  out.set(new Uint16Array(data.slice().buffer, 0, Math.min(CHUNK, data.byteLength >> 1)));
  return out;
}

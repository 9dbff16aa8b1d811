// The search text of a cold build's last batches, kept by a worker thread
// until it has nothing left to read (index/parallelRead.ts says which batches). The
// main thread then writes the touched paths and builds the secondary indexes
// alone, some 0.3 s of a 100k vault's build when the worker's core would
// be idle; cutting these terms then costs the build nothing.
//
// A file's text waits as UTF-8 in one buffer per batch, half what a two-byte
// string holds, with its stretches' offsets (core/searchText.ts). UTF-8 gives
// back every string a file's text can hold, so the offsets still hold (a
// decoded file has no lone surrogate; were there one, both it and the U+FFFD
// it comes back as are in no word, one unit long).
import type { SearchText } from '../../core/searchText';

/** A batch kept: its files' texts, each file's end in `bytes`, its stretches, and each file's end in `pieces`. */
interface Kept {
  seq: number;
  bytes: Buffer;
  ends: Int32Array;
  pieces: Int32Array;
  pieceEnds: Int32Array;
}

export class TermBacklog {
  private kept: Kept[] = [];
  private scratch = Buffer.allocUnsafe(1 << 20);
  private used = 0;
  private ends: number[] = [];
  private pieces: number[] = [];
  private pieceEnds: number[] = [];
  /** Bytes held by the batches kept. */
  held = 0;

  /** `limit`: the bytes of text kept at most (BatchTermWriter keeps no more batches past it). */
  constructor(readonly limit: number) {}

  /** Keeps one file's search text for the batch being read. */
  add(src: SearchText): void {
    // At most three bytes per UTF-16 unit.
    const most = src.text.length * 3;
    if (this.used + most > this.scratch.length) {
      const next = Buffer.allocUnsafe(Math.max(this.scratch.length * 2, this.used + most));
      this.scratch.copy(next, 0, 0, this.used);
      this.scratch = next;
    }
    this.used += this.scratch.write(src.text, this.used, 'utf8');
    this.ends.push(this.used);
    for (const n of src.pieces) this.pieces.push(n);
    this.pieceEnds.push(this.pieces.length);
  }

  /** The batch being read is complete: kept as batch `seq`. */
  close(seq: number): void {
    const bytes = Buffer.from(this.scratch.subarray(0, this.used));
    this.kept.push({ seq, bytes, ends: Int32Array.from(this.ends), pieces: Int32Array.from(this.pieces), pieceEnds: Int32Array.from(this.pieceEnds) });
    this.held += bytes.length;
    this.used = 0;
    this.ends = [];
    this.pieces = [];
    this.pieceEnds = [];
  }

  /** Hands each kept batch over, oldest first, and forgets it: `file(r)` is its r-th file's search text. */
  drain(each: (seq: number, files: number, file: (r: number) => SearchText) => void): void {
    while (this.kept.length > 0) {
      const k = this.kept.shift() as Kept;
      this.held -= k.bytes.length;
      each(k.seq, k.ends.length, (r) => {
        const text = k.bytes.toString('utf8', r === 0 ? 0 : k.ends[r - 1], k.ends[r]);
        const pieces = Array.from(k.pieces.subarray(r === 0 ? 0 : k.pieceEnds[r - 1], k.pieceEnds[r]));
        return { text, pieces };
      });
    }
  }
}

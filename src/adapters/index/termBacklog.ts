// The search fields of a cold build's last batches, kept by a worker thread
// until it has nothing left to read (parallelRead.ts says which batches). The
// main thread then writes the touched paths and builds the secondary indexes
// alone, some 0.3 s of a 100k vault's build when the worker's core would
// be idle; cutting these terms then costs the build nothing.
//
// The fields wait as UTF-8 in one buffer per batch: half what two-byte
// strings hold, and no file's whole text is kept alive by a field sliced from
// it. UTF-8 gives back every string a file's text can hold (a decoded file
// has no lone surrogate; were there one, both it and the U+FFFD it comes
// back as are no word character, one unit long).

/** A batch kept: its files' fields joined by newlines, each file's end in `bytes`, and each field's length in UTF-16 units. */
interface Kept {
  seq: number;
  bytes: Buffer;
  ends: Int32Array;
  lengths: Int32Array;
}

export class TermBacklog {
  private kept: Kept[] = [];
  private scratch = Buffer.allocUnsafe(1 << 20);
  private used = 0;
  private ends: number[] = [];
  private lengths: number[] = [];
  /** Bytes held by the batches kept. */
  held = 0;

  constructor(private readonly fieldCount: number) {}

  /** Keeps one file's fields (fieldCount of them) for the batch being read. */
  add(fields: readonly string[]): void {
    const joined = fields.join('\n');
    // At most three bytes per UTF-16 unit.
    if (this.used + joined.length * 3 > this.scratch.length) {
      const next = Buffer.allocUnsafe(Math.max(this.scratch.length * 2, this.used + joined.length * 3));
      this.scratch.copy(next, 0, 0, this.used);
      this.scratch = next;
    }
    this.used += this.scratch.write(joined, this.used, 'utf8');
    this.ends.push(this.used);
    for (let f = 0; f < this.fieldCount; f++) this.lengths.push(fields[f]?.length ?? 0);
  }

  /** The batch being read is complete: kept as batch `seq`. */
  close(seq: number): void {
    const bytes = Buffer.from(this.scratch.subarray(0, this.used));
    this.kept.push({ seq, bytes, ends: Int32Array.from(this.ends), lengths: Int32Array.from(this.lengths) });
    this.held += bytes.length;
    this.used = 0;
    this.ends = [];
    this.lengths = [];
  }

  /**
   * Hands each kept batch over, oldest first, and forgets it: `file(r)` calls
   * `visit` with its r-th file's joined fields and where its field lengths
   * start in `lengths`.
   */
  drain(each: (seq: number, files: number, file: (r: number, visit: (text: string, lengths: Int32Array, at: number) => void) => void) => void): void {
    while (this.kept.length > 0) {
      const k = this.kept.shift() as Kept;
      this.held -= k.bytes.length;
      each(k.seq, k.ends.length, (r, visit) => visit(k.bytes.toString('utf8', r === 0 ? 0 : k.ends[r - 1], k.ends[r]), k.lengths, r * this.fieldCount));
    }
  }
}

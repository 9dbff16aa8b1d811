// A term's posting list as the index stores it (textIndex.ts): for each
// document holding the term, its docid and how often the term occurs in it
// (weighted; its length is kept once: docLengths.ts).
//
// A posting is one varint, sometimes two: the docid as the zigzag difference
// from the one before, times 4, plus the count less one when it is 1 to 3;
// else plus 3, and the count follows. Lists in any order decode (a refresh
// adds checkpoints, notes and plans interleaved), and in ascending order, the
// usual case, a posting within a few documents of the one before with a
// count of 1 to 3 (94% of the bench's) is one byte: the two varints of the
// first layout took 2.04 bytes a posting, this one 1.22.

/**
 * A term's count in one document is kept up to this: BM25 has long stopped
 * growing (k1 1.2).
 */
export const MAX_TF = 255;

/** Counts up to this ride in the docid's varint. */
const SMALL_TF = 3;

export class PostingWriter {
  private buf: Uint8Array;
  private at = 0;
  /** The docid of the last posting written (0 before the first). */
  last = 0;
  count = 0;

  constructor(capacity = 16) {
    this.buf = new Uint8Array(capacity);
  }

  add(docid: number, tf: number): void {
    if (this.at + 16 > this.buf.length) this.grow();
    const d = docid - this.last;
    this.last = docid;
    const z = d >= 0 ? d * 2 : -d * 2 - 1;
    const t = tf < 1 ? 1 : tf < MAX_TF ? tf : MAX_TF;
    this.count += 1;
    // One byte is the usual case (a close docid, a small count): no call for it.
    if (z < 0x20 && t <= SMALL_TF) {
      this.buf[this.at++] = z * 4 + t - 1;
      return;
    }
    if (t <= SMALL_TF) this.varint(z * 4 + t - 1);
    else {
      this.varint(z * 4 + SMALL_TF);
      this.varint(t);
    }
  }

  /**
   * Appends a list written by another PostingWriter from docid 0 (a cold
   * build's worker writes one per batch: workerBatch.ts), every docid moved up
   * by `shift`; `n` postings, the last at `last` before the shift. Only the
   * first docid's difference changes: the rest of the bytes are copied as they are.
   */
  appendShifted(bytes: Uint8Array, n: number, shift: number, last: number): void {
    if (n === 0) return;
    const v = readVarint(bytes, 0);
    const at = after;
    const low = v % 4;
    // A list written from docid 0 opens with a difference of zero or more: its zigzag is even.
    const first = shift + (v - low) / 8;
    const d = first - this.last;
    const rest = bytes.length - at;
    if (this.at + 10 + rest > this.buf.length) this.grow(10 + rest);
    this.varint((d >= 0 ? d * 2 : -d * 2 - 1) * 4 + low);
    this.buf.set(bytes.subarray(at), this.at);
    this.at += rest;
    this.last = shift + last;
    this.count += n;
  }

  /** Empties the writer, keeping its buffer. */
  reset(): void {
    this.at = 0;
    this.last = 0;
    this.count = 0;
  }

  /** The bytes written so far (a view: copy before writing more). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.at);
  }

  private grow(more = 16): void {
    const next = new Uint8Array(Math.max(this.buf.length * 2 + 16, this.at + more));
    next.set(this.buf.subarray(0, this.at));
    this.buf = next;
  }

  private varint(n: number): void {
    const buf = this.buf;
    let at = this.at;
    if (n < 0x80) buf[at++] = n;
    else if (n < 0x80000000) {
      while (n >= 0x80) {
        buf[at++] = (n & 0x7f) | 0x80;
        n >>>= 7;
      }
      buf[at++] = n;
    } else {
      // Past 2^31 bit operations would wrap: division keeps a number exact up to 2^53.
      while (n >= 0x80) {
        buf[at++] = (n % 0x80) | 0x80;
        n = Math.floor(n / 0x80);
      }
      buf[at++] = n;
    }
    this.at = at;
  }
}

/** Where the varint readVarint read last ends. */
let after = 0;

/** The varint at `at` (exact up to 2^53); sets `after`. */
function readVarint(bytes: Uint8Array, at: number): number {
  let v = 0;
  let mul = 1;
  let b: number;
  do {
    b = bytes[at++];
    v += (b & 0x7f) * mul;
    mul *= 0x80;
  } while (b & 0x80);
  after = at;
  return v;
}

/**
 * Every posting of a list written by PostingWriter, into `docids` and `tfs`
 * from 0 (each at least `bytes.length` long: a posting is a byte or more);
 * how many. For a search, whose own loop over them does more than a
 * callback would (query.ts); its docids are under 2^31, as they index an array.
 */
export function decodePostings(bytes: Uint8Array, docids: Int32Array, tfs: Uint8Array): number {
  let at = 0;
  let docid = 0;
  let n = 0;
  const end = bytes.length;
  while (at < end) {
    let v = bytes[at++];
    if (v >= 0x80) {
      v = readVarint(bytes, at - 1);
      at = after;
    }
    const low = v % 4;
    const z = (v - low) / 4;
    docid += z % 2 === 0 ? z / 2 : -(z + 1) / 2;
    docids[n] = docid;
    if (low === SMALL_TF) {
      tfs[n] = readVarint(bytes, at);
      at = after;
    } else tfs[n] = low + 1;
    n++;
  }
  return n;
}

/** Calls `visit` with each posting of a list written by PostingWriter. */
export function eachPosting(bytes: Uint8Array, visit: (docid: number, tf: number) => void): void {
  let at = 0;
  let docid = 0;
  const end = bytes.length;
  while (at < end) {
    // One byte is the usual posting: read in line.
    let v = bytes[at++];
    if (v >= 0x80) {
      v = readVarint(bytes, at - 1);
      at = after;
    }
    const low = v % 4;
    const z = (v - low) / 4;
    docid += z % 2 === 0 ? z / 2 : -(z + 1) / 2;
    let tf = low + 1;
    if (low === SMALL_TF) {
      tf = readVarint(bytes, at);
      at = after;
    }
    visit(docid, tf);
  }
}

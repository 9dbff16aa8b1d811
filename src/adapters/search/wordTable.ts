// The table of words as written to term ids that the word scanner of
// terms.ts looks each word up in.

/**
 * Words as written to term ids, by a hash computed while scanning, so a word
 * met before costs no string: most of what indexing a vault costs is this
 * lookup, once per word of every checkpoint. Open addressing, linear probing;
 * the words themselves are kept in one array of UTF-16 units and compared
 * unit by unit with the word just scanned, so two words are never taken for
 * one, and the comparison is a loop the JIT compiles tight (a string per
 * word, or `startsWith`, was a quarter of the scan). Emptied when it grows
 * past WORDS_MAX.
 */
/** The longest word kept (UTF-16 units): a longer one is cut into a term each time it is met. */
export const MAX_KEPT = 128;
/** Words kept at most: past this a table is emptied (a vault with a runaway vocabulary). */
const WORDS_MAX = 1 << 20;

export class WordTable {
  mask = 4095;
  ids = new Int32Array(4096).fill(-1);
  hashes = new Int32Array(4096);
  starts = new Int32Array(4096);
  lengths = new Int32Array(4096);
  units = new Uint16Array(1 << 15);
  used = 0;
  size = 0;

  /** The id of the `len` units at `from` in `text` (the text being scanned), whose hash is `h`; -2 when the table has not met it. */
  find(h: number, len: number, text: Uint16Array, from: number): number {
    const { ids, hashes, lengths, starts, mask } = this;
    const kept = this.units;
    let slot = h & mask;
    for (;;) {
      const id = ids[slot];
      if (id === -1) return -2;
      if (hashes[slot] === h && lengths[slot] === len) {
        const at = starts[slot];
        let k = 0;
        while (k < len && kept[at + k] === text[from + k]) k++;
        if (k === len) return id;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Keeps the `len` units at `from` in `text` under `id`. */
  keep(h: number, len: number, id: number, text: Uint16Array, from: number): void {
    if (this.size >= WORDS_MAX) this.clear();
    else if ((this.size + 1) * 2 > this.mask) this.rehash((this.mask + 1) * 2);
    if (this.used + len > this.units.length) {
      const next = new Uint16Array(this.units.length * 2 + len);
      next.set(this.units.subarray(0, this.used));
      this.units = next;
    }
    this.units.set(text.subarray(from, from + len), this.used);
    this.place(h, this.used, len, id);
    this.used += len;
  }

  clear(): void {
    this.mask = 4095;
    this.ids = new Int32Array(4096).fill(-1);
    this.hashes = new Int32Array(4096);
    this.starts = new Int32Array(4096);
    this.lengths = new Int32Array(4096);
    this.units = new Uint16Array(1 << 15);
    this.used = 0;
    this.size = 0;
  }

  private place(h: number, start: number, len: number, id: number): void {
    let slot = h & this.mask;
    while (this.ids[slot] !== -1) slot = (slot + 1) & this.mask;
    this.ids[slot] = id;
    this.hashes[slot] = h;
    this.starts[slot] = start;
    this.lengths[slot] = len;
    this.size += 1;
  }

  private rehash(capacity: number): void {
    const { ids, hashes, starts, lengths } = this;
    this.mask = capacity - 1;
    this.ids = new Int32Array(capacity).fill(-1);
    this.hashes = new Int32Array(capacity);
    this.starts = new Int32Array(capacity);
    this.lengths = new Int32Array(capacity);
    this.size = 0;
    for (let i = 0; i < ids.length; i++) if (ids[i] !== -1) this.place(hashes[i], starts[i], lengths[i], ids[i]);
  }
}

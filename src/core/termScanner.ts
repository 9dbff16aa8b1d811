// The WebAssembly word scanner (termScan.wat) as searchTerms.ts uses it: it
// lays out the scanner's memory, copies a text in, and answers what the
// scanner hands back (a unit's class, a word met for the first time, a dead
// end's twin) through the same functions the JavaScript scanner uses, so both
// give the same terms, counts and order (test/unit/termScanner.test.ts). A
// text with a character past the Basic Multilingual Plane is left to the
// JavaScript scanner, as is everything where WebAssembly's SIMD is missing.
import type { SearchText } from './searchText';
import { TERM_SCAN_WASM } from './termScanWasm';
import { MAX_KEPT, WORDS_MAX } from './wordTable';

/** What the scanner asks of searchTerms.ts. */
export interface ScanHelp {
  /** The class table (1: in a word, 2: not, 0: not known), by UTF-16 unit. */
  classes: Uint8Array;
  /** The class of the unit at `at`, learnt; 0 for a unit that decides nothing alone (a high surrogate). */
  classify(text: string, at: number): number;
  /** The term id of the word text[start, end) (-1: NFKC left nothing). */
  termId(text: string, start: number, end: number): number;
  /** The id of a term's Didn't work twin. */
  twin(id: number): number;
}

/** Where what the counts go: searchTerms.ts's DocTerms. */
export interface Counted {
  ids: Int32Array;
  tfs: Float64Array;
  count: number;
  length: number;
}

/** The little of the WebAssembly API used here (the project's TypeScript libraries declare none of it). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}
interface WasmGlobal {
  value: number;
}

interface Exports {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  setLayout(cls: number, text: number, pieces: number, words: number, slots: number, mask: number, kept: number, at: number, twin: number, ids: number, tfs: number, fields: number, dead: number): void;
  words(n: number): number;
  tally(from: number, n: number, id: number): number;
  keep(start: number, len: number, id: number): void;
  place(h: number, start: number, len: number, id: number): void;
  clear(): void;
  reset(): void;
  count: WasmGlobal;
  length: WasmGlobal;
  used: WasmGlobal;
  size: WasmGlobal;
  why: WasmGlobal;
  whyId: WasmGlobal;
}

/** Bytes after the text and after the kept units that a vector load may read. */
const TEXT_SLACK = 128;
const KEPT_SLACK = 16;
const FIELDS = 16;

/** Capacities, in their own units; regions are laid out from them in this order. */
interface Caps {
  text: number;
  pieces: number;
  words: number;
  slots: number;
  kept: number;
  ids: number;
}

interface Layout {
  cls: number;
  text: number;
  pieces: number;
  words: number;
  slots: number;
  kept: number;
  at: number;
  twin: number;
  ids: number;
  tfs: number;
  fields: number;
  end: number;
}

function layoutOf(c: Caps): Layout {
  const align = (n: number): number => (n + 15) & ~15;
  const cls = 0;
  const text = cls + 0x10000;
  const pieces = align(text + c.text * 2 + TEXT_SLACK);
  const words = align(pieces + c.pieces * 12);
  const slots = align(words + c.words * 12);
  const kept = align(slots + c.slots * 16);
  const at = align(kept + c.kept * 2 + KEPT_SLACK);
  const twin = at + c.ids * 4;
  const ids = twin + c.ids * 4;
  const tfs = ids + c.ids * 4;
  const fields = tfs + c.ids * 4;
  return { cls, text, pieces, words, slots, kept, at, twin, ids, tfs, fields, end: fields + FIELDS * 4 };
}

export class WasmScanner {
  private caps: Caps = { text: 1 << 15, pieces: 1024, words: (1 << 14) + 1024, slots: 4096, kept: 1 << 15, ids: 4096 };
  private at: Layout = layoutOf(this.caps);
  private bytes!: Buffer;
  private i32!: Int32Array;
  private u8!: Uint8Array;
  private deadSet = -2;
  /** The weights last written in the fields region. */
  private weights: readonly number[] | null = null;

  private constructor(
    private readonly x: Exports,
    private readonly help: ScanHelp,
  ) {
    this.grow(this.at.end);
    this.views();
    this.u8.set(help.classes.subarray(0, 0x10000), this.at.cls);
    // No twin is known yet.
    this.i32.fill(-1, this.at.twin / 4, this.at.twin / 4 + this.caps.ids);
    this.setLayout(-1);
  }

  /** The scanner, or null where WebAssembly (with SIMD) or Node's Buffer is missing, or the machine is big-endian. */
  static create(help: ScanHelp): WasmScanner | null {
    try {
      const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
      if (!wasm || typeof Buffer !== 'function') return null;
      if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) return null;
      const bytes = Buffer.from(TERM_SCAN_WASM, 'base64');
      if (!wasm.validate(bytes)) return null;
      const instance = new wasm.Instance(new wasm.Module(bytes), {});
      return new WasmScanner(instance.exports as unknown as Exports, help);
    } catch {
      return null;
    }
  }

  /**
   * Counts the terms of `src` into `out` (searchTerms.ts's docTerms, for
   * integer weights); false when it is left to the JavaScript scanner.
   */
  cut(src: SearchText, weights: readonly number[], deadEnds: number, out: Counted): boolean {
    const { text, pieces } = src;
    const np = pieces.length / 3;
    if (np > this.caps.pieces || text.length + 1 > this.caps.text || text.length + np > this.caps.words) {
      if (text.length > 1 << 22) return false;
      this.relayout({ ...this.caps, text: Math.max(this.caps.text, text.length + 1), pieces: Math.max(this.caps.pieces, np), words: Math.max(this.caps.words, text.length + np) });
    }
    if (weights !== this.weights) {
      // Counted as integers: a weight that is not one is left to JavaScript.
      if (weights.length > FIELDS || !weights.every((w) => Number.isInteger(w) && Math.abs(w) < 1 << 20)) return false;
      this.i32.set(weights, this.at.fields / 4);
      this.weights = weights;
    }
    if (deadEnds !== this.deadSet) this.setLayout(deadEnds);
    const x = this.x;
    x.reset();
    this.bytes.write(text, this.at.text, 'utf16le');
    this.i32.set(pieces, this.at.pieces / 4);
    let n = x.words(np);
    while (n < 0) {
      const unit = -1 - n;
      const k = this.help.classify(text, unit);
      if (k === 0) return false;
      this.u8[this.at.cls + text.charCodeAt(unit)] = k;
      n = x.words(np);
    }
    for (let k = x.tally(0, n, -2); k >= 0; ) {
      if (x.why.value === 2) {
        this.twinOf(x.whyId.value);
        k = x.tally(k, n, -2);
        continue;
      }
      const w = this.at.words / 4 + k * 3;
      const start = this.i32[w];
      const end = this.i32[w + 1];
      const id = this.help.termId(text, start, end);
      if (end - start <= MAX_KEPT) this.keep(start, end - start, id);
      if (id >= 0) {
        this.room(id);
        if (this.i32[w + 2] === deadEnds) this.twinOf(id);
      }
      k = x.tally(k, n, id);
    }
    const count = x.count.value;
    if (out.ids.length < count) {
      out.ids = new Int32Array(count * 2);
      out.tfs = new Float64Array(count * 2);
    }
    const ids = this.at.ids / 4;
    const tfs = this.at.tfs / 4;
    for (let i = 0; i < count; i++) {
      out.ids[i] = this.i32[ids + i];
      out.tfs[i] = this.i32[tfs + i];
    }
    out.count = count;
    out.length = x.length.value;
    return true;
  }

  /** Forgets every word kept and every twin (term ids were numbered again). */
  forget(): void {
    this.x.clear();
    this.i32.fill(-1, this.at.twin / 4, this.at.twin / 4 + this.caps.ids);
  }

  private twinOf(id: number): void {
    this.room(id);
    const t = this.help.twin(id);
    this.room(t);
    this.i32[this.at.twin / 4 + id] = t;
  }

  /** Room for term ids up to `id` (and the twin, the ids and counts of a text of that many terms). */
  private room(id: number): void {
    if (id < this.caps.ids) return;
    this.relayout({ ...this.caps, ids: Math.max(this.caps.ids * 2, id + 1) });
  }

  private keep(start: number, len: number, id: number): void {
    if (this.x.size.value >= WORDS_MAX) this.x.clear();
    const used = this.x.used.value;
    if (this.x.size.value + 1 > this.caps.slots / 2 || used + len > this.caps.kept) {
      this.relayout({ ...this.caps, slots: this.caps.slots * (this.x.size.value + 1 > this.caps.slots / 2 ? 2 : 1), kept: Math.max(this.caps.kept, (used + len) * 2) });
    }
    this.x.keep(start, len, id);
  }

  /** Lays the regions out again for larger capacities, keeping what each holds (slots placed again when their number changes). */
  private relayout(caps: Caps): void {
    const old = this.at;
    const oldCaps = this.caps;
    const copy = this.u8.slice(0, old.end);
    const next = layoutOf(caps);
    this.grow(next.end);
    this.views();
    this.u8.fill(0, 0, next.end);
    const move = (from: number, to: number, bytes: number): void => this.u8.set(copy.subarray(from, from + bytes), to);
    move(old.cls, next.cls, 0x10000);
    move(old.text, next.text, oldCaps.text * 2);
    move(old.pieces, next.pieces, oldCaps.pieces * 12);
    move(old.words, next.words, oldCaps.words * 12);
    move(old.kept, next.kept, oldCaps.kept * 2);
    move(old.at, next.at, oldCaps.ids * 4);
    move(old.twin, next.twin, oldCaps.ids * 4);
    this.i32.fill(-1, next.twin / 4 + oldCaps.ids, next.twin / 4 + caps.ids);
    move(old.ids, next.ids, oldCaps.ids * 4);
    move(old.tfs, next.tfs, oldCaps.ids * 4);
    move(old.fields, next.fields, FIELDS * 4);
    this.caps = caps;
    this.at = next;
    this.setLayout(this.deadSet);
    if (caps.slots === oldCaps.slots) move(old.slots, next.slots, oldCaps.slots * 16);
    else {
      // The kept units stay where they were (`used` too); only the slots are placed again.
      const slots = new Int32Array(copy.buffer, old.slots, oldCaps.slots * 4);
      this.x.size.value = 0;
      for (let s = 0; s < slots.length; s += 4) if (slots[s + 3] !== 0) this.x.place(slots[s], slots[s + 2], slots[s + 3], slots[s + 1]);
    }
  }

  private setLayout(dead: number): void {
    const a = this.at;
    this.deadSet = dead;
    this.x.setLayout(a.cls, a.text, a.pieces, a.words, a.slots, this.caps.slots - 1, a.kept, a.at, a.twin, a.ids, a.tfs, a.fields, dead);
  }

  private grow(bytes: number): void {
    const have = this.x.memory.buffer.byteLength;
    if (bytes > have) this.x.memory.grow(Math.ceil((bytes - have) / 65536));
  }

  private views(): void {
    const buffer = this.x.memory.buffer;
    this.bytes = Buffer.from(buffer);
    this.i32 = new Int32Array(buffer);
    this.u8 = new Uint8Array(buffer);
  }
}

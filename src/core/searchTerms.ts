// The terms of full-text search: what the index stores of a text and what a
// query is cut into go through `termOf`, so they always meet in one form.
//
// A word is a run of letters, digits and combining marks, in any script
// (so "retry—backoff" and «кэш» are two words and one). Its term is the word
// in Unicode's compatibility form (NFKC: a full-width "Ｔｅｓｔ" is "test"),
// lower-cased in every script, and, when it is an English word of three
// letters or more, stemmed by Porter2 (snowballstem.org/algorithms/english/
// stemmer.html, through wink-porter2-stemmer): "mocking" and "mock" are one
// term, "cached" and "cache", "tests" and "test". Words of other scripts are
// kept whole, lower-cased.
//
// A term cut from a checkpoint's Didn't work is also kept under DEAD_END_MARK,
// so a search of dead ends only (core/deadEnds.ts) reads lists of that section
// alone: no term holds the mark otherwise.
import stem from 'wink-porter2-stemmer';

/** Prefixed to the terms of a checkpoint's Didn't work (see the top). */
export const DEAD_END_MARK = '~';

const ASCII_WORD = /[A-Za-z0-9]+/g;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const ENGLISH = /^[a-z]{3,}$/;
// eslint-disable-next-line no-control-regex -- telling ASCII from the rest
const NOT_ASCII = /[^\x00-\x7f]/;

/** Words already turned into terms: a vault's vocabulary is small, its words are many. */
const memo = new Map<string, string>();
const MEMO_MAX = 100_000;

/** The term of one word (see the top of this file). */
export function termOf(word: string): string {
  let term = memo.get(word);
  if (term !== undefined) return term;
  const folded = NOT_ASCII.test(word) ? word.normalize('NFKC').toLowerCase() : word.toLowerCase();
  term = ENGLISH.test(folded) ? stem(folded) : folded;
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(word, term);
  return term;
}

/** Calls `visit` with each word of `text`: where it starts and ends (UTF-16 offsets) and its term. */
export function eachWord(text: string, visit: (start: number, end: number, term: string) => void): void {
  const re = NOT_ASCII.test(text) ? WORD : ASCII_WORD;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const term = termOf(m[0]);
    // NFKC can turn a word into nothing a query could ask ("①" is "1": still a word; a lone mark is not).
    if (term !== '') visit(m.index, m.index + m[0].length, term);
  }
}

/** The distinct terms of a text, in the order first met. */
export function termsOf(text: string): string[] {
  const out = new Set<string>();
  eachWord(text, (_s, _e, term) => out.add(term));
  return [...out];
}

/** Terms as small numbers for this process's life (never stored): what indexing counts by. */
const ids = new Map<string, number>();
export const termNames: string[] = [];
const deadEndIds: number[] = [];

export function termId(term: string): number {
  let id = ids.get(term);
  if (id === undefined) {
    id = termNames.length;
    ids.set(term, id);
    termNames.push(term);
  }
  return id;
}

/** Terms numbered at most: past this, the numbering starts over between two refreshes (a vault full of one-off tokens). */
const IDS_MAX = 1 << 19;

/**
 * Forgets the numbering when it has grown past IDS_MAX. Only between two
 * refreshes: a refresh in progress holds ids (textIndex.ts).
 */
export function forgetTermIdsIfLarge(): void {
  if (termNames.length <= IDS_MAX) return;
  ids.clear();
  termNames.length = 0;
  deadEndIds.length = 0;
  table.clear();
}

/** The id of a term's Didn't work twin (DEAD_END_MARK). */
function deadEndId(id: number): number {
  let d = deadEndIds[id];
  if (d === undefined) d = deadEndIds[id] = termId(DEAD_END_MARK + termNames[id]);
  return d;
}

/**
 * Words as written to term ids, by a hash computed while scanning, so a word
 * met before costs no string: most of what indexing a vault costs is this
 * lookup, once per word of every checkpoint. Open addressing, linear probing;
 * emptied when it grows past WORDS_MAX (a vault with a runaway vocabulary).
 */
class WordTable {
  private mask = 4095;
  private hashes = new Int32Array(4096);
  private slots = new Int32Array(4096).fill(-1);
  private words: string[] = new Array<string>(4096);
  private size = 0;

  /** The term id of text[start, end), whose hash is `h`. */
  idOf(text: string, start: number, end: number, h: number): number {
    const len = end - start;
    let slot = h & this.mask;
    for (;;) {
      const id = this.slots[slot];
      if (id === -1) break;
      if (this.hashes[slot] === h) {
        const w = this.words[slot];
        if (w.length === len && text.startsWith(w, start)) return id;
      }
      slot = (slot + 1) & this.mask;
    }
    const word = text.slice(start, end);
    const term = termOf(word);
    const id = term === '' ? -1 : termId(term);
    if (this.size >= WORDS_MAX) this.reset(4096);
    else if ((this.size + 1) * 2 > this.mask) this.reset((this.mask + 1) * 2);
    this.put(word, h, id);
    return id;
  }

  private put(word: string, h: number, id: number): void {
    let slot = h & this.mask;
    while (this.slots[slot] !== -1) slot = (slot + 1) & this.mask;
    this.slots[slot] = id;
    this.hashes[slot] = h;
    this.words[slot] = word;
    this.size += 1;
  }

  clear(): void {
    this.reset(4096);
  }

  private reset(capacity: number): void {
    const old = { slots: this.slots, hashes: this.hashes, words: this.words };
    const keep = capacity > this.mask + 1;
    this.mask = capacity - 1;
    this.slots = new Int32Array(capacity).fill(-1);
    this.hashes = new Int32Array(capacity);
    this.words = new Array<string>(capacity);
    this.size = 0;
    if (keep) for (let i = 0; i < old.slots.length; i++) if (old.slots[i] !== -1) this.put(old.words[i], old.hashes[i], old.slots[i]);
  }
}

const WORDS_MAX = 1 << 20;
const table = new WordTable();
/**
 * Per UTF-16 unit, whether it is part of a word as WORD says (1), not (2), or
 * not yet asked (0): the scanner below asks the regex once per character.
 */
const IN_WORD = new Uint8Array(0x10000);
const WORD_CHARACTER = /^[\p{L}\p{N}\p{M}]$/u;
/** The same for characters past the Basic Multilingual Plane (a surrogate pair). */
const ASTRAL = new Map<number, boolean>();
for (let c = 0; c < 0x80; c++) IN_WORD[c] = WORD_CHARACTER.test(String.fromCharCode(c)) ? 1 : 2;

function inWord(c: number): boolean {
  let k = IN_WORD[c];
  if (k === 0) k = IN_WORD[c] = WORD_CHARACTER.test(String.fromCharCode(c)) ? 1 : 2;
  return k === 1;
}

/** How many UTF-16 units of a word start at `i` (0: none): 1, or 2 for a surrogate pair that is a letter, digit or mark. */
function wordUnit(text: string, i: number, c: number): number {
  if (c < 0xd800 || c > 0xdbff) return inWord(c) ? 1 : 0;
  const cp = text.codePointAt(i) ?? c;
  if (cp <= 0xffff) return 0;
  let yes = ASTRAL.get(cp);
  if (yes === undefined) {
    yes = WORD_CHARACTER.test(String.fromCodePoint(cp));
    if (ASTRAL.size < 4096) ASTRAL.set(cp, yes);
  }
  return yes ? 2 : 0;
}

/**
 * What one document gives the index: `count` distinct term ids with their
 * weighted counts, and its weighted length (for BM25). The arrays are shared:
 * read them before the next call to docTerms.
 */
export interface DocTerms {
  ids: Int32Array;
  tfs: Float64Array;
  count: number;
  length: number;
}

let doc: DocTerms = { ids: new Int32Array(1024), tfs: new Float64Array(1024), count: 0, length: 0 };
/** Per term id, where it stands in `doc` (plus one; 0: not in it). */
let at = new Int32Array(4096);

function count(id: number, w: number): void {
  if (id >= at.length) {
    const next = new Int32Array(Math.max(id + 1, at.length * 2));
    next.set(at);
    at = next;
  }
  const k = at[id];
  if (k !== 0) {
    doc.tfs[k - 1] += w;
    return;
  }
  if (doc.count === doc.ids.length) {
    const ids2 = new Int32Array(doc.count * 2);
    ids2.set(doc.ids);
    const tfs2 = new Float64Array(doc.count * 2);
    tfs2.set(doc.tfs);
    doc = { ...doc, ids: ids2, tfs: tfs2 };
  }
  doc.ids[doc.count] = id;
  doc.tfs[doc.count] = w;
  doc.count += 1;
  at[id] = doc.count;
}

/**
 * The terms of a document made of `fields`, each weighted (a checkpoint's
 * Task counts double), with the terms of the field at `deadEnds` (its Didn't
 * work; -1: none) also counted under DEAD_END_MARK.
 */
export function docTerms(fields: readonly string[], weights: readonly number[], deadEnds = -1): DocTerms {
  for (let k = 0; k < doc.count; k++) at[doc.ids[k]] = 0;
  doc.count = 0;
  let length = 0;
  for (let f = 0; f < fields.length; f++) {
    const text = fields[f];
    if (text === '') continue;
    const w = weights[f] ?? 1;
    const dead = f === deadEnds;
    length += scan(text, w, dead);
  }
  doc.length = length;
  return doc;
}

/**
 * Counts the words of a text into `doc`; their weighted number. The same words
 * as WORD finds (eachWord), cut by hand: a character's class is a table
 * lookup and a word's hash is made on the way, so a word met before costs no
 * string (WordTable).
 */
function scan(text: string, w: number, dead: boolean): number {
  const n = text.length;
  let words = 0;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    let step = IN_WORD[c] === 1 ? 1 : c < 0x80 ? 0 : wordUnit(text, i, c);
    if (step === 0) {
      i++;
      continue;
    }
    const start = i;
    let h = 0;
    do {
      h = (Math.imul(h, 31) + c) | 0;
      if (step === 2) h = (Math.imul(h, 31) + text.charCodeAt(i + 1)) | 0;
      i += step;
      if (i >= n) break;
      c = text.charCodeAt(i);
      step = IN_WORD[c] === 1 ? 1 : c < 0x80 ? 0 : wordUnit(text, i, c);
    } while (step !== 0);
    const id = table.idOf(text, start, i, h);
    if (id < 0) continue;
    count(id, w);
    if (dead) count(deadEndId(id), 1);
    words += 1;
  }
  return words * w;
}

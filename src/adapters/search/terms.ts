// The terms of full-text search: what the index stores of a text and what a
// query is cut into go through `termOf`, so they always meet in one form.
//
// A word is a run of letters, digits and combining marks, in any script
// (core/searchText.ts's WORD_PATTERN, the one definition of a word: so
// "retry—backoff" and «кэш» are two words and one). Its term is the word in
// Unicode's compatibility form (NFKC: a full-width "Ｔｅｓｔ" is "test"),
// lower-cased in every script, and, when it is an English word of three
// letters or more, stemmed by Porter2 (snowballstem.org/algorithms/english/
// stemmer.html, through wink-porter2-stemmer): "mocking" and "mock" are one
// term, "cached" and "cache", "tests" and "test". Words of other scripts are
// kept whole, lower-cased. A word past MAX_WORD (64) units is cut to its
// first 64 before all of that (a base64 blob, a DNA read): the stemmer is
// quadratic in a word's length, and every caller meets here.
//
// Words are cut by one scanner, everywhere (the index, the snippet, a query,
// the cold build's workers): `nextWord`, over a table of character classes
// learnt from WORD_PATTERN one character at a time. The regular expression
// itself cut a checkpoint's words about four times slower, which missed the
// cold build's goal; a WebAssembly scanner beside this one saved half a
// second of a 100k build and was removed (BENCHMARKS.md, issue 24).
//
// A term cut from a checkpoint's Didn't work is also kept under DEAD_END_MARK,
// so a search of dead ends only (core/deadEnds.ts) reads lists of that section
// alone: no term holds the mark otherwise.
import stem from 'wink-porter2-stemmer';
import { WORD_PATTERN, type SearchText } from '../../core/searchText';
import { MAX_KEPT, WordTable } from './wordTable';

/** Prefixed to the terms of a checkpoint's Didn't work (see the top). */
export const DEAD_END_MARK = '~';

const ENGLISH = /^[a-z]{3,}$/;
// eslint-disable-next-line no-control-regex -- telling ASCII from the rest
const NOT_ASCII = /[^\x00-\x7f]/;

/** Words already turned into terms: a vault's vocabulary is small, its words are many. */
const memo = new Map<string, string>();
const MEMO_MAX = 100_000;

/**
 * Letters of a word that make its term: a longer word (a DNA read, a base64
 * blob) is cut to its first 64 (a surrogate pair never split) before anything
 * else, here, where the index, the query and the snippet all meet, so they
 * cut it alike. Porter2 is quadratic in a word's length (a 100,000-letter
 * word took a minute, issue 29); no English word comes near 64 letters.
 */
export const MAX_WORD = 64;

/** The first MAX_WORD units of a word, one fewer when the last would be half of a surrogate pair. */
function cutWord(word: string): string {
  if (word.length <= MAX_WORD) return word;
  const last = word.charCodeAt(MAX_WORD - 1);
  return word.slice(0, last >= 0xd800 && last <= 0xdbff ? MAX_WORD - 1 : MAX_WORD);
}

/** The term of one word (see the top of this file). */
export function termOf(whole: string): string {
  const word = cutWord(whole);
  let term = memo.get(word);
  if (term !== undefined) return term;
  const folded = NOT_ASCII.test(word) ? word.normalize('NFKC').toLowerCase() : word.toLowerCase();
  term = ENGLISH.test(folded) ? stem(folded) : folded;
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(word, term);
  return term;
}

// ---- the scanner -------------------------------------------------------------

// Character classes, per UTF-16 unit: not yet asked (0), part of a word (IN),
// not (OUT). A high surrogate is never stored: whether it starts a word
// depends on the unit after it (classify).
const IN = 1;
const OUT = 2;
/** A surrogate pair that is a letter, digit or mark: two units of a word. */
const PAIR = 3;
const CLASS = new Uint8Array(0x10000);
const WORD_CHARACTER = new RegExp(`^${WORD_PATTERN.slice(0, -1)}$`, 'u');
/** The same for characters past the Basic Multilingual Plane. */
const ASTRAL = new Map<number, boolean>();
for (let c = 0; c < 0x80; c++) CLASS[c] = WORD_CHARACTER.test(String.fromCharCode(c)) ? IN : OUT;

/** The class of the unit at `i` (`c`) that the table does not hold yet: asked of the pattern once per character. */
function classify(text: string, i: number, c: number): number {
  if (c < 0xd800 || c > 0xdbff) return (CLASS[c] = WORD_CHARACTER.test(String.fromCharCode(c)) ? IN : OUT);
  const cp = text.codePointAt(i) ?? c;
  if (cp <= 0xffff) return OUT;
  let yes = ASTRAL.get(cp);
  if (yes === undefined) {
    yes = WORD_CHARACTER.test(String.fromCodePoint(cp));
    if (ASTRAL.size < 4096) ASTRAL.set(cp, yes);
  }
  return yes ? PAIR : OUT;
}

/** The units `scanned` keeps between texts; a longer text gets an array of its own. */
const SCANNED_KEPT = 1 << 16;
/**
 * The text being scanned, as UTF-16 units: read from a typed array, a unit
 * costs less than `charCodeAt` (a fifth of the scan, BENCHMARKS.md). Node's
 * Buffer copies a string's units in one native call (on a little-endian
 * machine, as Uint16Array reads them); elsewhere they are copied one by one.
 */
let scanned = new Uint16Array(SCANNED_KEPT);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
let scannedBytes = LITTLE_ENDIAN ? Buffer.from(scanned.buffer) : null;

/** Puts `text` in `scanned`, from 0. */
function load(text: string): void {
  if (text.length > scanned.length || (scanned.length > SCANNED_KEPT && text.length <= SCANNED_KEPT)) {
    // A long text gets its own array; the next short one goes back to the usual.
    scanned = new Uint16Array(Math.max(SCANNED_KEPT, text.length));
    scannedBytes = LITTLE_ENDIAN ? Buffer.from(scanned.buffer) : null;
  }
  if (scannedBytes) scannedBytes.write(text, 0, 'utf16le');
  else for (let i = 0; i < text.length; i++) scanned[i] = text.charCodeAt(i);
}

/** Where the word nextWord found ends (exclusive), and its hash (for WordTable). */
let wordEnd = 0;
let wordHash = 0;

/**
 * The start of the first word of `text` (loaded) at or after `i` and before
 * `to`, its end in `wordEnd` (at most `to`) and its hash in `wordHash`; -1
 * when there is none. A unit's class is a table lookup, and the hash is made
 * on the way, so a word met before costs no string (WordTable).
 */
function nextWord(text: string, i: number, to: number): number {
  const u = scanned;
  while (i < to) {
    let c = u[i];
    let k = CLASS[c];
    if (k === 0) k = classify(text, i, c);
    if (k === OUT) {
      i++;
      continue;
    }
    const start = i;
    let h = 0;
    // A tight loop over the word's units.
    for (;;) {
      if (k === IN) {
        h = (Math.imul(h, 31) + c) | 0;
        i++;
      } else if (k === PAIR) {
        h = (Math.imul(Math.imul(h, 31) + c, 31) + u[i + 1]) | 0;
        i += 2;
      } else break;
      if (i >= to) break;
      c = u[i];
      k = CLASS[c];
      if (k === 0) k = classify(text, i, c);
    }
    wordEnd = Math.min(i, to);
    wordHash = h;
    return start;
  }
  return -1;
}

/** Calls `visit` with each word of `text`: where it starts and ends (UTF-16 offsets) and its term. */
export function eachWord(text: string, visit: (start: number, end: number, term: string) => void): void {
  load(text);
  for (let s = nextWord(text, 0, text.length); s >= 0; s = nextWord(text, wordEnd, text.length)) {
    const end = wordEnd;
    const term = termOf(text.slice(s, end));
    // NFKC can turn a word into nothing a query could ask ("①" is "1": still a word; a lone mark is not).
    if (term !== '') visit(s, end, term);
  }
}

/**
 * Calls `visit` with each word of `text`: where it starts and ends and its
 * term's number (termId), looked up as the index counts words (`count`): a
 * word met before costs no string. A snippet's words are cut this way.
 */
export function eachWordId(text: string, visit: (start: number, end: number, id: number) => void): void {
  load(text);
  for (let s = nextWord(text, 0, text.length); s >= 0; s = nextWord(text, wordEnd, text.length)) {
    const end = wordEnd;
    const id = wordId(text, s, end);
    if (id >= 0) visit(s, end, id);
  }
}

/** The term number of the word text[s, end) that nextWord found (its hash in `wordHash`); -1 when it has no term. */
function wordId(text: string, s: number, end: number): number {
  const len = end - s;
  const kept = len <= MAX_KEPT;
  let id = kept ? table.find(wordHash, len, scanned, s) : -2;
  if (id === -2) {
    const term = termOf(text.slice(s, end));
    id = term === '' ? -1 : termId(term);
    if (kept) table.keep(wordHash, len, id, scanned, s);
  }
  return id;
}

// ---- term numbers ------------------------------------------------------------

/** Terms as small numbers for this process's life (never stored): what indexing counts by. */
const ids = new Map<string, number>();
/** By term number, the term. */
export const termNames: string[] = [];
const deadEndIds: number[] = [];
/** Words as written (as `scanned` holds them) to their term's number. */
const table = new WordTable();

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

// ---- a document's counts ------------------------------------------------------

/**
 * What one document gives the index: `count` distinct term ids with their
 * weighted counts, and its weighted length (for BM25). The arrays are shared:
 * read them before the next call.
 */
export interface DocTerms {
  ids: Int32Array;
  tfs: Float64Array;
  count: number;
  length: number;
}

class Counts implements DocTerms {
  ids = new Int32Array(1024);
  tfs = new Float64Array(1024);
  count = 0;
  length = 0;
  /** Per term id, where it stands in `ids` (plus one; 0: not in this document). */
  at = new Int32Array(4096);

  add(id: number, w: number): void {
    let at = this.at;
    if (id >= at.length) {
      const next = new Int32Array(Math.max(id + 1, at.length * 2));
      next.set(at);
      this.at = at = next;
    }
    const k = at[id];
    if (k !== 0) {
      this.tfs[k - 1] += w;
      return;
    }
    if (this.count === this.ids.length) {
      const ids = new Int32Array(this.count * 2);
      ids.set(this.ids);
      this.ids = ids;
      const tfs = new Float64Array(this.count * 2);
      tfs.set(this.tfs);
      this.tfs = tfs;
    }
    this.ids[this.count] = id;
    this.tfs[this.count] = w;
    this.count += 1;
    at[id] = this.count;
  }

  reset(): void {
    for (let k = 0; k < this.count; k++) this.at[this.ids[k]] = 0;
    this.count = 0;
    this.length = 0;
  }
}

const doc = new Counts();

/** Counts the words of text[from, to) (loaded) into `doc`, each `w`, twinned under DEAD_END_MARK when `dead`; their weighted number. */
function count(text: string, from: number, to: number, w: number, dead: boolean): number {
  let words = 0;
  for (let s = nextWord(text, from, to); s >= 0; s = nextWord(text, wordEnd, to)) {
    const id = wordId(text, s, wordEnd);
    if (id < 0) continue;
    words += 1;
    doc.add(id, w);
    if (dead) doc.add(deadEndId(id), 1);
  }
  return words * w;
}

/**
 * The terms of a checkpoint's fields as stretches of one text (SearchText),
 * each field weighted (a checkpoint's Task counts double), with the terms of
 * the field at `deadEnds` (its Didn't work; -1: none) also counted under
 * DEAD_END_MARK.
 */
export function searchTextTerms(src: SearchText, weights: readonly number[], deadEnds = -1): DocTerms {
  doc.reset();
  const { text, pieces } = src;
  load(text);
  let length = 0;
  for (let p = 0; p < pieces.length; p += 3) {
    const f = pieces[p + 2];
    length += count(text, pieces[p], pieces[p + 1], weights[f] ?? 1, f === deadEnds);
  }
  doc.length = length;
  return doc;
}

/** The terms of one plain text (an open note, a plan), every word counting once. */
export function textTerms(text: string): DocTerms {
  doc.reset();
  load(text);
  doc.length = count(text, 0, text.length, 1, false);
  return doc;
}

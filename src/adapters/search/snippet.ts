// What a search hit shows: the field that matched best and a few words of it
// around the matches, cut from the record's own text (the index stores none),
// so the words keep the case and accents they were written with. It is one
// line: a line break is ` · `, so a list's items (a State's folded notes, the
// bullets of Didn't work) stay apart where the quick pick and the CLI show it.
import { eachWordId, termId } from './terms';

/** Words a snippet holds at most. */
const SNIPPET_WORDS = 24;
/** Words of a field looked at: a 50 MB State must not stall a search. */
const MAX_WORDS = 20_000;

interface Word {
  start: number;
  end: number;
  hit: boolean;
  /** Its term's number (terms.ts). */
  term: number;
}

/** The words of `text` (its first MAX_WORDS), those of `terms` marked. */
function wordsOf(text: string, terms: ReadonlySet<number>): Word[] {
  const out: Word[] = [];
  eachWordId(text, (start, end, term) => {
    if (out.length < MAX_WORDS) out.push({ start, end, term, hit: terms.has(term) });
  });
  return out;
}

/** Distinct terms matched, then matches: what makes one stretch of text answer better than another. */
const worth = (distinct: number, hits: number): number => distinct * 1000 + hits;

/** worth() of the first MAX_WORDS words of `text`, with no word kept: most fields are not the one shown. */
function worthOf(text: string, terms: ReadonlySet<number>): number {
  let words = 0;
  let hits = 0;
  const distinct = new Set<number>();
  eachWordId(text, (_s, _e, term) => {
    if (words++ >= MAX_WORDS || !terms.has(term)) return;
    hits += 1;
    distinct.add(term);
  });
  return worth(distinct.size, hits);
}

/**
 * The field of `fields` that holds the most of `terms` (the first on a tie;
 * only `only` when given), and its snippet with the matched words' offsets.
 */
export function snippetOf(fields: readonly string[], terms: ReadonlySet<string>, only?: number): { field: number; snippet: string; marks: [number, number][] } {
  const ids = new Set([...terms].map(termId));
  let field = only ?? 0;
  let value = -1;
  for (let f = 0; f < fields.length; f++) {
    if (only !== undefined && f !== only) continue;
    const v = worthOf(fields[f], ids);
    if (v > value) {
      field = f;
      value = v;
    }
  }
  const text = fields[field] ?? '';
  return { field, ...cut(text, value < 0 ? [] : wordsOf(text, ids)) };
}

/** The window of SNIPPET_WORDS words holding the most matches, marked. */
function cut(text: string, words: Word[]): { snippet: string; marks: [number, number][] } {
  if (words.length === 0) return { snippet: oneLine(text.slice(0, 160), []).text.replace(LEADING_MARKER, '').trim(), marks: [] };
  const size = Math.min(SNIPPET_WORDS, words.length);
  let from = 0;
  let bestValue = -1;
  const counts = new Map<number, number>();
  let hits = 0;
  const add = (w: Word, by: number): void => {
    if (!w.hit) return;
    hits += by;
    const n = (counts.get(w.term) ?? 0) + by;
    if (n === 0) counts.delete(w.term);
    else counts.set(w.term, n);
  };
  for (let i = 0; i < words.length; i++) {
    add(words[i], 1);
    if (i >= size) add(words[i - size], -1);
    const value = worth(counts.size, hits);
    if (i >= size - 1 && value > bestValue) {
      bestValue = value;
      from = i - size + 1;
    }
  }
  // Begin a few words before the first match, so it is read in its sentence.
  let first = from;
  while (first < from + size && !words[first].hit) first++;
  if (first < from + size) from = Math.max(0, Math.min(first - 3, words.length - size));
  const to = Math.min(words.length, from + size);
  const start = words[from].start;
  let end = words[to - 1].end;
  // The full stop or bracket closing the last word.
  if (end < text.length && '.,;:!?)"\''.includes(text[end])) end += 1;
  const lead = from === 0 ? '' : '…';
  const tail = to === words.length ? '' : '…';
  const marks: [number, number][] = [];
  for (let i = from; i < to; i++) if (words[i].hit) marks.push([words[i].start - start, words[i].end - start]);
  const line = oneLine(text.slice(start, end), marks);
  return { snippet: lead + line.text + tail, marks: line.marks.map(([a, b]) => [a + lead.length, b + lead.length]) };
}

const LINE_BREAKS = '\\r\\n\\v\\f\\u0085\\u2028\\u2029';
/** A line break with the blank lines, indentation and list marker (`- `, `* `, `+ `) after it, and the spaces before it. */
const BREAK = new RegExp(`[^\\S${LINE_BREAKS}]*[${LINE_BREAKS}]\\s*(?:[-*+][^\\S${LINE_BREAKS}]+)?`, 'g');
const LEADING_MARKER = /^\s*[-*+]\s+/;

/**
 * `text` on one line, its marks moved with it: each line break (see BREAK)
 * is ` · `, or a space after a colon (it introduces what follows, as State's
 * "Recorded during the session:" does its notes); tabs are spaces. A mark is
 * on a word, never inside a break.
 */
function oneLine(text: string, marks: readonly [number, number][]): { text: string; marks: [number, number][] } {
  let out = '';
  let at = 0;
  /** Per break, the first offset after it and how far everything from there moved. */
  const moves: [number, number][] = [];
  let by = 0;
  for (const m of text.matchAll(BREAK)) {
    out += text.slice(at, m.index);
    const sep = out.endsWith(':') ? ' ' : ' · ';
    out += sep;
    at = m.index + m[0].length;
    by += sep.length - m[0].length;
    moves.push([at, by]);
  }
  out += text.slice(at);
  const moved = (x: number): number => {
    let d = 0;
    for (const [from, shift] of moves) {
      if (x < from) break;
      d = shift;
    }
    return x + d;
  };
  return { text: out.replace(/\t/g, ' '), marks: marks.map(([a, b]) => [moved(a), moved(b)]) };
}

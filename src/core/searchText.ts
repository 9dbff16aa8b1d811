// What full-text search shares between the text it indexes and the words it
// is asked: both go through `searchable`, so they always meet in one form.
//
// The index is SQLite's FTS4 with the `porter` tokenizer (sql.js has no FTS5).
// That tokenizer splits on ASCII characters that are not letters or digits,
// keeps every byte >= 0x80 as part of a word, and folds case and stems ASCII
// only (sqlite.org/fts3.html, "Tokenizers"; fts3_porter.c, `isDelim` and
// `porter_stemmer`). So non-Latin text is folded here instead: NFKC (a full-width
// "Ｔｅｓｔ" is "Test"), lower case for every non-ASCII character (ASCII is
// left as written, so a snippet of English text keeps its capitals), and every
// non-ASCII character that is no letter, digit or mark becomes a space, so
// "retry—backoff" or «кэш» are two words, as they would be in ASCII.
import type { Checkpoint } from './model';

export const SEARCH_KINDS = ['checkpoint', 'note', 'plan'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/**
 * The checkpoint fields search indexes, in the index's column order (Commands
 * run are what was typed, not what was found, and are left out). A note's text
 * and a plan's text are held in the `state` column.
 */
export const SEARCH_FIELDS = ['task', 'intent', 'state', 'decisions', 'failed', 'verified', 'blockers', 'questions', 'files', 'next'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/** The section headings of the fields, as a person reads them in the file. */
export const FIELD_HEADINGS: Record<SearchField, string> = {
  task: 'Task',
  intent: 'Intent',
  state: 'State',
  decisions: 'Decisions',
  failed: "Didn't work",
  verified: 'Verified',
  blockers: 'Blockers',
  questions: 'Open questions',
  files: 'Files',
  next: 'Next',
};

// U+0000-U+0003 are kept out too: the snippet marks matches with U+0002 and U+0003.
/* eslint-disable no-control-regex -- these are about control characters */
const FOLD = /[^\x04-\x7f]/;
const FOLD_RUN = /[^\x04-\x7f]+/g;
const MARKS = /[\x00-\x03]/g;
const NOT_A_WORD_CHARACTER = /[^\p{L}\p{N}\p{M}]/gu;

/** Text in the one form the index holds and queries are asked in (see the top of this file). */
export function searchable(text: string): string {
  if (!FOLD.test(text)) return text;
  return text
    .normalize('NFKC')
    .replace(FOLD_RUN, (run) => run.toLowerCase().replace(NOT_A_WORD_CHARACTER, ' '))
    .replace(MARKS, ' ');
}

/** The words of a query as the tokenizer would cut them: runs of ASCII letters and digits, or of non-ASCII characters. */
const WORD = /(?:[A-Za-z0-9]|[^\x00-\x7f])+/g;
/* eslint-enable no-control-regex */

/** At most this many words of a query are searched for; `queryWords` says when it dropped some. */
export const MAX_QUERY_WORDS = 32;

/**
 * A query's words, once each, lower-cased. Operators, quotes, brackets, `*`,
 * `-` and `:` are no words, so nothing a person types can reach FTS's query
 * syntax: each word is later quoted as a phrase of its own.
 */
export function queryWords(query: string): { words: string[]; dropped: number } {
  const all = [...new Set((searchable(query).match(WORD) ?? []).map((w) => w.toLowerCase()))];
  return { words: all.slice(0, MAX_QUERY_WORDS), dropped: Math.max(0, all.length - MAX_QUERY_WORDS) };
}

/** The text of each search field of a checkpoint, in SEARCH_FIELDS order. */
export function checkpointSearchFields(cp: Pick<Checkpoint, SearchField>): string[] {
  return SEARCH_FIELDS.map((f) => {
    const v = cp[f];
    return typeof v === 'string' ? v : v.join('\n');
  });
}

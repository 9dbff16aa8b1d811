// The shape of full-text search shared by the index and every door: the
// kinds of record, the checkpoint fields searched and their weights, what a
// word is and how a query is cut into words. Terms themselves are made by the
// search module (adapters/search/terms.ts).
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

/** How much a word counts for relevance, per field: a checkpoint's Task counts double. */
export const FIELD_WEIGHTS: readonly number[] = SEARCH_FIELDS.map((f) => (f === 'task' ? 2 : 1));
/** The field whose terms are also kept on their own, for dead ends (core/deadEnds.ts). */
export const DEAD_END_FIELD = SEARCH_FIELDS.indexOf('failed');

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

/** A word: a run of letters, digits and combining marks, in any script. The one definition, for the index and queries alike. */
export const WORD_PATTERN = '[\\p{L}\\p{N}\\p{M}]+';
const WORD = new RegExp(WORD_PATTERN, 'gu');

/** At most this many words of a query are searched for; `queryWords` says when it dropped some. */
const MAX_QUERY_WORDS = 32;

/**
 * A query's words, once each, lower-cased, as the index cuts words
 * (adapters/search/terms.ts). Operators, quotes, brackets, `*`, `-` and `:` are no
 * words: whatever a person types is looked up word by word, never parsed.
 */
export function queryWords(query: string): { words: string[]; dropped: number } {
  const all = [...new Set(query.normalize('NFKC').toLowerCase().match(WORD) ?? [])];
  return { words: all.slice(0, MAX_QUERY_WORDS), dropped: Math.max(0, all.length - MAX_QUERY_WORDS) };
}

/** The text of each search field of a checkpoint, in SEARCH_FIELDS order. */
export function checkpointSearchFields(cp: Pick<Checkpoint, SearchField>): string[] {
  return SEARCH_FIELDS.map((f) => {
    const v = cp[f];
    return typeof v === 'string' ? v : v.join('\n');
  });
}

/**
 * What full-text search cuts a checkpoint's terms from: stretches of one
 * text, each in one field. A field's words are the same as one string
 * (checkpointSearchFields) or as the stretches of the file it was read from
 * (checkpointBody.ts's bodyFacts): reading a field only drops characters that
 * are in no word (bullets, line ends, spaces, an escaping backslash), and
 * every stretch is whole lines or a whole section.
 */
export interface SearchText {
  text: string;
  /** Per stretch, flat: its start and end (UTF-16 offsets, end excluded) and its field's index in SEARCH_FIELDS. */
  pieces: number[];
}

/** Fields (in SEARCH_FIELDS order) as a SearchText: joined by newlines, one stretch each. */
export function fieldsSearchText(fields: readonly string[]): SearchText {
  const pieces: number[] = [];
  let at = 0;
  fields.forEach((f, i) => {
    if (f !== '') pieces.push(at, at + f.length, i);
    at += f.length + 1;
  });
  return { text: fields.join('\n'), pieces };
}

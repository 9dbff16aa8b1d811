// A document of the text index is a checkpoint, an open note or a plan; its
// docid is the row's id times 4 plus its kind, so no table maps them and a
// search's filters are maps by docid. Only the search module sees docids:
// the rest of the index speaks of a kind and a row id.
import type { SearchKind } from '../../core/searchText';

/** A document's kind, in its docid's two low bits. */
export const DOC_KIND: Record<SearchKind, number> = { checkpoint: 0, note: 1, plan: 2 };
const KINDS: SearchKind[] = ['checkpoint', 'note', 'plan'];

export const docId = (id: number, kind: SearchKind): number => id * 4 + DOC_KIND[kind];
export const kindOf = (docid: number): SearchKind => KINDS[docid & 3] ?? 'checkpoint';
export const rowOf = (docid: number): number => Math.floor(docid / 4);

/** The search module's tables, in the index's database (schema.ts holds them with the rest). */
export const SEARCH_SCHEMA = `
CREATE TABLE terms(term TEXT NOT NULL, seg INTEGER NOT NULL, n INTEGER NOT NULL, postings BLOB NOT NULL, PRIMARY KEY(term, seg));
CREATE TABLE text_dead(docid INTEGER PRIMARY KEY);
CREATE TABLE text_lengths(chunk INTEGER PRIMARY KEY, lengths BLOB NOT NULL);
`;

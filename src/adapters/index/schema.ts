import { SEARCH_SCHEMA } from '../search';

// Bump SCHEMA_VERSION whenever a table changes: an index of another version is
// dropped and rebuilt from the vault, which is always safe because it is a cache.
export const SCHEMA_VERSION = 11;

// Compact on purpose: the whole database is loaded by every process that
// queries it and exported whole by every save, so its size is paid on every
// command. Scopes, paths and checkpoints are small integers everywhere else,
// and a touched path is stored once however many checkpoints name it.
//
// scopes       one row per scope folder: its mtime when trusted (-1: rescan it),
//              and the size and mtime of its uncommitted.md (null: none seen).
// checkpoints  one row per checkpoint file; `name` is the id (the file name
//              without .md); `paths` the ids of the paths it touched, in the order
//              written; `failed` its "Didn't work" items, one per line.
// paths        every distinct touched path (normalised as the contract says),
//              stored reversed code point by code point, so "ends with /x" is a
//              prefix range on an index; `head` and `rest` the checkpoints that
//              touched it, newest first, packed (see touches.ts). An empty
//              checkpoint touches nothing: `why` never shows one.
// notes        a mirror of every uncommitted.md, in file order, with each note's
//              origin ("" for a line without one; core/origin.ts).
// plans        one row per plan file (`plans/` of a scope); `plans_mtime` of
//              its scope is that folder's mtime when trusted (null: none seen).
// terms        the full-text index (adapters/search/textIndex.ts, which owns
//              these three tables): per term and segment, the posting list of
//              the documents holding it (postings.ts) and its length `n`. A
//              document is a checkpoint, an open note or a plan; its docid is
//              the row's id times 4 plus its kind (search/docIds.ts), so no table maps
//              them. No text is stored: a hit's snippet is cut from its file.
// text_dead    docids removed since the last full merge: their postings are
//              still stored, and skipped.
// text_lengths each document's length for BM25, 4096 docids a row (docLengths.ts).
export const SCHEMA = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE scopes(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, mtime REAL NOT NULL, notes_mtime REAL, notes_size INTEGER, plans_mtime REAL);
CREATE TABLE checkpoints(id INTEGER PRIMARY KEY, scope INTEGER NOT NULL, name TEXT NOT NULL, mtime REAL NOT NULL, size INTEGER NOT NULL,
  agent TEXT NOT NULL, machine TEXT NOT NULL, person TEXT NOT NULL, ts INTEGER NOT NULL, task TEXT NOT NULL, empty INTEGER NOT NULL, paths TEXT NOT NULL, failed TEXT NOT NULL);
CREATE TABLE paths(id INTEGER PRIMARY KEY, rmatch TEXT NOT NULL, head BLOB NOT NULL, rest BLOB NOT NULL);
CREATE TABLE notes(scope INTEGER NOT NULL, agent TEXT NOT NULL, ts INTEGER NOT NULL, text TEXT NOT NULL, machine TEXT NOT NULL, asession TEXT NOT NULL);
CREATE INDEX notes_scope ON notes(scope);
CREATE TABLE plans(id INTEGER PRIMARY KEY, scope INTEGER NOT NULL, name TEXT NOT NULL, mtime REAL NOT NULL, size INTEGER NOT NULL,
  agent TEXT NOT NULL, ts INTEGER NOT NULL, title TEXT NOT NULL);
${SEARCH_SCHEMA}`;

/**
 * The indexes a bulk load drops first and builds after the last row (one sort
 * instead of a random insert per row).
 */
export const BULK_INDEXES = `
CREATE INDEX checkpoints_scope ON checkpoints(scope, ts);
CREATE INDEX paths_rmatch ON paths(rmatch);
`;
export const DROP_BULK_INDEXES = `
DROP INDEX checkpoints_scope;
DROP INDEX paths_rmatch;
`;

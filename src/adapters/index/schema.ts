// Bump SCHEMA_VERSION whenever a table changes: an index of another version is
// dropped and rebuilt from the vault, which is always safe because it is a cache.
export const SCHEMA_VERSION = 1;

export const SCHEMA = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE dirs(path TEXT PRIMARY KEY, mtime REAL NOT NULL);
CREATE TABLE files(path TEXT PRIMARY KEY, kind TEXT NOT NULL, scope TEXT NOT NULL, mtime REAL NOT NULL, size INTEGER NOT NULL);
CREATE INDEX files_scope ON files(scope, kind);
CREATE TABLE checkpoints(path TEXT PRIMARY KEY, scope TEXT NOT NULL, session TEXT NOT NULL, agent TEXT NOT NULL,
  ts INTEGER NOT NULL, task TEXT NOT NULL, empty INTEGER NOT NULL);
CREATE INDEX checkpoints_scope ON checkpoints(scope, ts);
CREATE TABLE touches(key TEXT NOT NULL, path TEXT NOT NULL, cp TEXT NOT NULL);
CREATE INDEX touches_key ON touches(key);
CREATE INDEX touches_cp ON touches(cp);
CREATE TABLE dead_ends(cp TEXT NOT NULL, text TEXT NOT NULL);
CREATE INDEX dead_ends_cp ON dead_ends(cp);
CREATE TABLE notes(scope TEXT NOT NULL, agent TEXT NOT NULL, ts INTEGER NOT NULL, text TEXT NOT NULL);
CREATE INDEX notes_scope ON notes(scope);
`;

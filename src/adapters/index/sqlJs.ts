// sql.js is WASM: no native module, so the same index runs in every VS Code,
// fork and Node. The binary is shipped beside the bundle (dist/sql-wasm.wasm);
// from sources it is found in node_modules.
import * as fs from 'fs';
import * as path from 'path';
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js';

let loading: Promise<SqlJsStatic> | undefined;

// Bundled: dist/sql-wasm.wasm beside the bundle. From sources (tests):
// src/adapters/index -> the repository's node_modules.
const CANDIDATES = [path.join(__dirname, 'sql-wasm.wasm'), path.join(__dirname, '..', '..', '..', 'node_modules', 'sql.js', 'dist', 'sql-wasm.wasm')];

function wasmPath(): string {
  const found = CANDIDATES.find((p) => fs.existsSync(p));
  if (!found) throw new Error(`sql-wasm.wasm is missing (looked in ${CANDIDATES.join(', ')}); rebuild with npm run build.`);
  return found;
}

/** Loads the WASM module once per process. */
export function loadSqlJs(): Promise<SqlJsStatic> {
  loading ??= initSqlJs({ wasmBinary: fs.readFileSync(wasmPath()) as unknown as ArrayBuffer });
  return loading;
}

/** SQLite's page cache, in KiB (negative: a size, not a page count). */
const CACHE_KIB = -65536;

/** How every index database runs (again when a first build opens it anew: roomyBuild.ts). */
export function configure(db: Database): void {
  // The database lives in memory and is saved whole: a rollback journal in
  // memory is all a transaction needs.
  db.run('PRAGMA locking_mode = EXCLUSIVE');
  db.run('PRAGMA journal_mode = MEMORY');
  // A page SQLite does not hold in its cache is copied out of sql.js's
  // in-memory file system on every read, which is slow: the cache may hold
  // the index of a 100k vault whole (it grows only as pages are used).
  db.run(`PRAGMA cache_size = ${CACHE_KIB}`);
}

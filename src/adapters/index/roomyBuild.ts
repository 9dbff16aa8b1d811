// A first build's database given room before it is written.
//
// sql.js keeps the database in Emscripten's in-memory file system, which grows
// a file past 1 MB by an eighth at a time and copies it whole each time: a
// first build writing 70 MB at its commit copied about eight times that (0.1
// to 0.35 s at 100k checkpoints, on the main thread, with nothing to do beside
// it; BENCHMARKS.md). sql.js gives no way to size the file, but a database
// opened from an image is a file of the image's size: so a first build opens
// its (still empty) database again from a copy followed by zeros, as big as
// the build is likely to need. SQLite takes the database's size from the
// header, not the file, when the header says so (the "in-header database size",
// valid when the change counter at offset 24 equals the version-valid-for
// number at 92, as every SQLite since 3.7.0 writes them:
// https://www.sqlite.org/fileformat2.html#in_header_database_size), and writes
// its new pages into the zeros; `export()` copies only the pages in use, so a
// saved index is exactly as before.
import * as fs from 'fs';
import type { Database } from 'sql.js';
import { isCheckpointFileName } from '../markdown/checkpointFile';
import { PLANS_DIR, type FsVault } from '../vault/fsVault';
import { loadSqlJs } from './sqlJs';
import { statOf, subdirs, type Stat } from './vaultFiles';

/**
 * Room given per checkpoint file: about what one of the bench's generated
 * checkpoints (2.7 KB files) takes with the text index (680 bytes; 480
 * without it), so a vault like it is written without a copy. The room is held
 * for the database's life, unused when checkpoints take less; past it the
 * file grows as before, from there. Below `min` the copies cost nothing worth
 * a second database; past `max` (a vault of over a million checkpoints) the
 * room stops growing, and so does what is held for it. A test gives its own.
 */
export const ROOM = { perCheckpoint: 700, min: 4 << 20, max: 1 << 30 };

/** A scope folder as a first build's walk finds it: its stat, taken before its listing (as the walk takes them). */
export interface Listed {
  stat: Stat | null;
  entries: fs.Dirent[];
}

/** Every scope folder's listing, as a refresh walks them (project folders and their worktrees), and the checkpoint files in them. */
export function listScopes(vault: FsVault): { listings: Map<string, Listed>; checkpoints: number } {
  const listings = new Map<string, Listed>();
  let checkpoints = 0;
  const list = (dir: string): fs.Dirent[] => {
    // The stat first: a file added after it moves the folder's mtime past what is recorded, so the folder is read again.
    const stat = statOf(dir);
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      // an unreadable folder holds no checkpoints we can see (the walk says so again)
    }
    listings.set(dir, { stat, entries });
    for (const e of entries) if (e.isFile() && isCheckpointFileName(e.name)) checkpoints += 1;
    return entries;
  };
  const scopeDir = (scope: string): string | null => {
    try {
      return vault.scopeDir(scope);
    } catch {
      return null; // a name the vault refuses: the walk says so
    }
  };
  for (const project of subdirs(vault.sessionsDir)) {
    const dir = scopeDir(project);
    for (const e of dir ? list(dir) : []) {
      if (!e.isDirectory() || e.name === PLANS_DIR || e.name.startsWith('.')) continue;
      const wt = scopeDir(`${project}/${e.name}`);
      if (wt) list(wt);
    }
  }
  return { listings, checkpoints };
}

/**
 * `db` opened again with room for `checkpoints` more (see the top), or `db`
 * itself when that is little. The old one is closed: free its statements first.
 */
export async function withRoom(db: Database, checkpoints: number): Promise<Database> {
  const room = Math.min(ROOM.max, checkpoints * ROOM.perCheckpoint);
  if (room < ROOM.min) return db;
  const SQL = await loadSqlJs();
  const image = db.export();
  const roomy = new Uint8Array(image.length + room);
  roomy.set(image);
  const next = new SQL.Database(roomy);
  db.close();
  return next;
}

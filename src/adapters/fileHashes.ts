// Content hashes of a repository's files for claims' evidence (issue 26),
// cached per path, mtime and size: a hand-over or `baton verify` asked again
// hashes nothing it hashed before unless the file was saved since.
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { MISSING } from '../core/evidence';

/** A file past this size is hashed by its size and mtime only: reading it whole on every check would cost more than the claim is worth. */
const MAX_READ = 8 << 20;

export class FileHashes {
  private readonly cache = new Map<string, { key: string; hash: string }>();
  /** How many files were read and hashed (not answered from the cache): what the tests and the bench count. */
  hashed = 0;

  /** `sha256:` and 16 hex of the file's content, or MISSING when it is no readable file. */
  hash(root: string, rel: string): string {
    const file = path.resolve(root, rel);
    // A path from a checkpoint is the agent's text: nothing outside the repository is read.
    if (path.relative(root, file).startsWith('..')) return MISSING;
    let st: fs.Stats;
    try {
      st = fs.statSync(file);
    } catch {
      return MISSING;
    }
    if (!st.isFile()) return MISSING;
    const key = `${st.mtimeMs}:${st.size}:${st.ino}`;
    const hit = this.cache.get(file);
    if (hit && hit.key === key) return hit.hash;
    let hash: string;
    try {
      hash = st.size > MAX_READ ? `size:${st.size}:${Math.floor(st.mtimeMs)}` : `sha256:${createHash('sha256').update(fs.readFileSync(file)).digest('hex').slice(0, 16)}`;
    } catch {
      return MISSING;
    }
    this.hashed += 1;
    this.cache.set(file, { key, hash });
    return hash;
  }

  /** Unix seconds of the file's last write, 0 when it is none. */
  mtime(root: string, rel: string): number {
    try {
      return Math.floor(fs.statSync(path.resolve(root, rel)).mtimeMs / 1000);
    } catch {
      return 0;
    }
  }
}

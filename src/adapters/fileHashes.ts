// Content hashes of a repository's files for claims' evidence (issue 26),
// cached per path, mtime and size: a hand-over or `baton verify` asked again
// hashes nothing it hashed before unless the file was saved since.
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { MISSING } from '../core/evidence';

/** A file past this size is hashed by its size and mtime only: reading it whole on every check would cost more than the claim is worth. */
const MAX_READ = 8 << 20;

interface Hashed {
  mtimeMs: number;
  size: number;
  ino: number;
  hash: string;
}

export class FileHashes {
  private readonly cache = new Map<string, Hashed>();
  /** The last root asked, resolved: a verify asks hundreds of files of one root. */
  private root = { given: '', resolved: '' };
  /** How many files were read and hashed (not answered from the cache): what the tests and the bench count. */
  hashed = 0;

  /** `sha256:` and 16 hex of the file's content, or MISSING when it is no readable file. */
  hash(root: string, rel: string): string {
    if (this.root.given !== root) this.root = { given: root, resolved: path.resolve(root) };
    const base = this.root.resolved;
    const file = path.resolve(base, rel);
    // A path from a checkpoint is the agent's text: nothing outside the repository is read.
    // (A path under the root is its tail, as path.relative would say, without resolving both again.)
    const under = file.startsWith(base) && file.charAt(base.length) === path.sep;
    if ((under ? file.slice(base.length + 1) : path.relative(base, file)).startsWith('..')) return MISSING;
    let st: fs.Stats;
    try {
      st = fs.statSync(file);
    } catch {
      return MISSING;
    }
    if (!st.isFile()) return MISSING;
    const hit = this.cache.get(file);
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size && hit.ino === st.ino) return hit.hash;
    let hash: string;
    try {
      hash = st.size > MAX_READ ? `size:${st.size}:${Math.floor(st.mtimeMs)}` : `sha256:${createHash('sha256').update(this.read(file, st.size)).digest('hex').slice(0, 16)}`;
    } catch {
      return MISSING;
    }
    this.hashed += 1;
    this.cache.set(file, { mtimeMs: st.mtimeMs, size: st.size, ino: st.ino, hash });
    return hash;
  }

  private buffer = Buffer.alloc(64 << 10);

  /**
   * The file's bytes into a buffer kept between files, its size known from the
   * stat just taken: no second stat and no new buffer a file (a verify reads
   * hundreds). Grown or cut since the stat, it is read as far as it goes; its
   * new mtime has it hashed again next time.
   */
  private read(file: string, size: number): Buffer {
    if (this.buffer.length < size + 1) this.buffer = Buffer.alloc(Math.max(size + 1, this.buffer.length * 2));
    const fd = fs.openSync(file, 'r');
    try {
      let n = 0;
      // One byte more than the stat said: a file that grew in between is read on, not cut at its old size.
      for (let got = -1; got !== 0 && n < this.buffer.length; n += got) got = fs.readSync(fd, this.buffer, n, this.buffer.length - n, n);
      return this.buffer.subarray(0, n);
    } finally {
      fs.closeSync(fd);
    }
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

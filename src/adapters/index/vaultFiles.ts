// The file-system reads of a refresh: synchronous on purpose (a quarter of the
// cost of the promise versions here; a refresh yields between slices instead).
import * as fs from 'fs';

/** A folder modified this recently may change again within the same mtime tick: rescan it next time. */
export const RACY_MS = 2000;
/** What a folder listing counts for, in bytes of re-read vault, when deciding to save. */
export const LISTING_COST = 4096;

export interface Stat {
  mtime: number;
  size: number;
}

export function savedWithin(file: string, ms: number): boolean {
  const st = statOf(file);
  return st !== null && Date.now() - st.mtime < ms;
}

export function statOf(p: string): Stat | null {
  try {
    const st = fs.statSync(p, { throwIfNoEntry: false });
    return st ? { mtime: st.mtimeMs, size: st.size } : null;
  } catch {
    return null;
  }
}

/**
 * A buffer that a loop of reads shares, so that reading a file allocates only
 * its string (what a worker thread of the cold build does, file after file).
 */
export interface Scratch {
  buf: Buffer;
}

/**
 * Reads at most `limit` bytes of a file, with the stat of the open file; null
 * when it cannot be read. With `scratch`, into its buffer (grown as needed).
 */
export function readCapped(file: string, limit: number, scratch?: Scratch): { text: string; stat: Stat } | null {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const st = fs.fstatSync(fd);
    const want = Math.min(st.size, limit);
    if (scratch && scratch.buf.length < want) scratch.buf = Buffer.allocUnsafe(want);
    const buf = scratch ? scratch.buf : Buffer.allocUnsafe(want);
    let read = 0;
    while (read < want) {
      const n = fs.readSync(fd, buf, read, want - read, read);
      if (n === 0) break;
      read += n;
    }
    return { text: buf.toString('utf8', 0, read), stat: { mtime: st.mtimeMs, size: st.size } };
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export function subdirs(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name);
  } catch {
    return [];
  }
}

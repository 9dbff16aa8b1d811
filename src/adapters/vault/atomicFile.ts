// Whole-file writes that a crash can never leave half-done: write a temporary
// file in the same folder, flush it, then rename (or link, to claim a name).
import * as fs from 'fs';
import * as path from 'path';
import { VaultWriteError } from '../../core/errors';

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

/** The longest file name most file systems take, in bytes (ext4, APFS, NTFS in UTF-16 units). */
export const NAME_MAX = 255;

/** Cuts a string to at most `max` UTF-8 bytes on a code point boundary. */
export function cutBytes(s: string, max: number): string {
  if (Buffer.byteLength(s) <= max) return s;
  let out = '';
  let bytes = 0;
  for (const ch of s) {
    bytes += Buffer.byteLength(ch);
    if (bytes > max) break;
    out += ch;
  }
  return out;
}

/**
 * Hex digits for a temporary name or a lock's token: they only have to differ
 * between writers (each name holds the pid too), not be secret, so Math.random
 * does, and Node's crypto module (several milliseconds to load, for every
 * edit hook) stays unloaded.
 */
export function uniqueHex(bytes: number): string {
  let out = '';
  for (let i = 0; i < bytes; i++)
    out += Math.floor(Math.random() * 256)
      .toString(16)
      .padStart(2, '0');
  return out;
}

/**
 * Temporary files end in `.tmp` and start with `.`: no reader takes them for
 * notes. The target's name is cut so that the temporary name itself fits in
 * NAME_MAX even when the target's name already does only just.
 */
const tempPath = (target: string): string => path.join(path.dirname(target), `.${cutBytes(path.basename(target), 200)}.${process.pid}-${uniqueHex(4)}.tmp`);

// ENOTDIR: something that is not a folder stands where the vault needs one;
// ELOOP: a symbolic link where a file opened O_NOFOLLOW was expected.
const UNWRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'ENOTDIR', 'EISDIR', 'ELOOP']);

/** Why the disk took nothing, in the person's words: a full disk or quota is freed, not chmodded. */
function fullDisk(code: string): string {
  return code === 'EDQUOT' ? 'the disk quota of this user is used up' : 'the disk holding the vault has no free space or no free inodes left';
}

/** Turns "the folder would not take it" into an error that says so and what to do. */
export function asWriteError(err: unknown, target: string): unknown {
  const code = (err as NodeJS.ErrnoException)?.code ?? '';
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new VaultWriteError(
      `The vault could not write ${target} (${code}): ${fullDisk(code)}, so nothing was written. ` +
        'Free some (df -h and df -i show which), then retry; notes kept pending are written out by: baton index',
      code,
    );
  }
  if (UNWRITABLE.has(code)) {
    return new VaultWriteError(`The vault refused a write to ${target} (${code}). Make the folder writable (or free space), then run: baton index`, code);
  }
  return err;
}

/**
 * Makes `dir` and its missing parents one level at a time, so a failure is
 * the one mkdir(2) gave. Node's recursive mkdir, when a parent cannot be made
 * (ENOSPC: no inode left for it), stats that parent and reports the stat's
 * ENOENT instead: "no such file or directory" for a full disk.
 */
async function mkdirEach(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    try {
      await fs.promises.stat(d);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      missing.push(d);
      if (path.dirname(d) === d) break;
    }
  }
  for (const d of missing.reverse()) {
    try {
      await fs.promises.mkdir(d, { mode: DIR_MODE });
    } catch (err) {
      // Made by another writer in between: as good as made here.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

export async function ensureDir(dir: string): Promise<void> {
  try {
    try {
      await fs.promises.mkdir(dir, { recursive: true, mode: DIR_MODE });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      // mkdir -p makes what is missing, so its ENOENT hides the real failure (or a parent removed meanwhile): ask each level.
      await mkdirEach(dir);
    }
  } catch (err) {
    // mkdir -p says EEXIST only when a file stands where a folder must be.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw asWriteError(Object.assign(err as Error, { code: 'ENOTDIR' }), dir);
    throw asWriteError(err, dir);
  }
}

async function writeTemp(target: string, content: string | Uint8Array): Promise<string> {
  const tmp = tempPath(target);
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(tmp, 'wx', FILE_MODE);
    await handle.writeFile(content);
    await handle.sync();
  } catch (err) {
    await handle?.close().catch(() => undefined);
    await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
    throw asWriteError(err, target);
  }
  await handle.close();
  return tmp;
}

/** Writes all of `buf` at the handle's position, or throws: a short write (a full disk) is never taken for a whole one. */
export async function writeAll(handle: fs.promises.FileHandle, buf: Uint8Array): Promise<void> {
  let off = 0;
  while (off < buf.length) {
    const { bytesWritten } = await handle.write(buf, off, buf.length - off);
    if (bytesWritten <= 0) throw Object.assign(new Error('short write'), { code: 'ENOSPC' });
    off += bytesWritten;
  }
}

/**
 * Replaces `target` atomically with what `produce` writes, piece by piece (a
 * file too big to build in memory). `produce` returning false means "no file
 * at all": the temporary file is dropped and `target` removed.
 */
export async function writeAtomicStream(target: string, produce: (write: (buf: Uint8Array) => Promise<void>) => Promise<boolean>): Promise<void> {
  const tmp = tempPath(target);
  let handle: fs.promises.FileHandle | undefined;
  let keep: boolean;
  try {
    handle = await fs.promises.open(tmp, 'wx', FILE_MODE);
    const h = handle;
    keep = await produce((buf) => writeAll(h, buf));
    if (keep) await handle.sync();
    await handle.close();
    handle = undefined;
    if (keep) await fs.promises.rename(tmp, target);
    else await fs.promises.rm(target, { force: true });
  } catch (err) {
    await handle?.close().catch(() => undefined);
    throw asWriteError(err, target);
  } finally {
    await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
  }
}

/** Replaces `target` atomically. */
export async function writeAtomic(target: string, content: string | Uint8Array): Promise<void> {
  const tmp = await writeTemp(target, content);
  try {
    await fs.promises.rename(tmp, target);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
    throw asWriteError(err, target);
  }
}

/**
 * Creates `target` only if no file has that name, whole or not at all: a hard
 * link of a complete temporary file is both the exclusive claim and the write.
 * Returns false when the name is taken.
 */
export async function createExclusive(target: string, content: string): Promise<boolean> {
  const tmp = await writeTemp(target, content);
  try {
    await fs.promises.link(tmp, target);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP') return createWithoutLink(target, content);
    throw asWriteError(err, target);
  } finally {
    await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
  }
}

// For file systems without hard links: claim with O_EXCL, then write. A crash
// in between leaves a torn file, which readers already tolerate.
async function createWithoutLink(target: string, content: string): Promise<boolean> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(target, 'wx', FILE_MODE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw asWriteError(err, target);
  }
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

/** Reads at most `limit` bytes: a 50 MB file dropped in the vault must not stall a view. */
export async function readCapped(file: string, limit = 1 << 20): Promise<string | null> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(file, 'r');
    const { size } = await handle.stat();
    const buf = Buffer.alloc(Math.min(size, limit));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } catch {
    return null;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

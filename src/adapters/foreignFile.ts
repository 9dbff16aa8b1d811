// Reading a file that a repository or a person controls: an agent's settings,
// a hooks file, a transcript. A cloned repository can commit a symlink to
// /dev/zero as `.cursor/hooks.json`, and an agent's payload can name a FIFO as
// its transcript (issue 29): read whole, the first never ends and the second
// blocks at open(2) until some writer comes. So such a file is opened without
// blocking (O_NONBLOCK: a FIFO's open returns at once), judged by fstat on the
// very descriptor that would be read (no race between a check and the open),
// and read only when it is a regular file of bounded size. Nothing that can
// block is ever read, which is the deadline: the refusal comes before the read.
// Symlinks are followed (a dotfiles repository links settings files), but to
// a regular file only.
import * as fs from 'fs';
import { refused } from '../core/errors';

/** Settings and hooks files: a person's `settings.json` is kilobytes; 4 MiB is far past any real one. */
export const SETTINGS_MAX_BYTES = 4 * 1024 * 1024;

const NONBLOCK_READ = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOCTTY ?? 0);

const MISSING = new Set(['ENOENT', 'ENOTDIR']);

function kindOf(st: fs.Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** A regular file opened for reading, with its size as fstat saw it on that descriptor. */
export interface ForeignFd {
  fd: number;
  size: number;
}

/**
 * Opens `file` if it is a regular file of at most `maxBytes` (a symlink to
 * one included); null when there is no such file. Anything else (a FIFO, a
 * device, a folder, a file too big) is refused with a message naming it. The
 * caller closes the descriptor.
 */
export function openForeign(file: string, maxBytes = Infinity): ForeignFd | null {
  let fd: number;
  try {
    fd = fs.openSync(file, NONBLOCK_READ);
  } catch (err) {
    if (MISSING.has((err as NodeJS.ErrnoException).code ?? '')) return null;
    throw err;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw refused(`${file} is ${kindOf(st)}, not a regular file: Baton does not read it. Replace it with a plain file (or remove it).`);
    if (st.size > maxBytes) throw refused(`${file} is ${st.size} bytes, more than the ${maxBytes} Baton reads of such a file: it is left unread. Shorten it (or remove it).`);
    return { fd, size: st.size };
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
}

/** Up to `length` bytes from `start`; fewer when the file ended sooner. */
export function readRange(fd: number, start: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const n = fs.readSync(fd, buf, got, length - got, start + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

/** The bytes of a regular file of at most `maxBytes` (openForeign's rules); null when there is none. */
export function readForeignBytes(file: string, maxBytes = SETTINGS_MAX_BYTES): Buffer | null {
  const f = openForeign(file, maxBytes);
  if (f === null) return null;
  try {
    // One byte past the bound: a file that grew since fstat is still refused, not cut.
    const buf = readRange(f.fd, 0, Math.min(maxBytes, f.size) + 1);
    if (buf.length > maxBytes) throw refused(`${file} grew past the ${maxBytes} bytes Baton reads of such a file: it is left unread.`);
    return buf;
  } finally {
    fs.closeSync(f.fd);
  }
}

/** Where the first byte that is not UTF-8 stands, or -1 when all of it is. */
function firstBadByte(buf: Buffer): number {
  const text = buf.toString('utf8');
  let at = text.indexOf('\uFFFD');
  while (at >= 0) {
    const offset = Buffer.byteLength(text.slice(0, at));
    // A U+FFFD written in the file as its three bytes is text, not a bad byte.
    if (buf[offset] !== 0xef || buf[offset + 1] !== 0xbf || buf[offset + 2] !== 0xbd) return offset;
    at = text.indexOf('\uFFFD', at + 1);
  }
  return -1;
}

/**
 * A settings file's text, exactly: its bytes must be UTF-8, since a file
 * decoded with its bad bytes made U+FFFD would be written back changed (a
 * Latin-1 `é` lost on disconnect). Refused with the offset otherwise; null
 * when there is no file.
 */
export function readForeignUtf8(file: string, maxBytes = SETTINGS_MAX_BYTES): string | null {
  const buf = readForeignBytes(file, maxBytes);
  if (buf === null) return null;
  const bad = firstBadByte(buf);
  if (bad >= 0) {
    const hex = buf[bad].toString(16).toUpperCase().padStart(2, '0');
    throw refused(`${file} is not UTF-8 (byte 0x${hex} at offset ${bad}): Baton changed nothing. Save it as UTF-8 first.`);
  }
  return buf.toString('utf8');
}

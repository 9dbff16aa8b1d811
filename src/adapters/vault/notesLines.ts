// Reading and rewriting `uncommitted.md` line by line, whatever its size: no
// read cap, so no note past a cap is ever dropped by a fold, and lines that
// are not notes (a person's own, a torn tail) are kept byte for byte when the
// folded notes are taken out.
import * as fs from 'fs';
import { VaultReadError } from '../../core/errors';
import type { NoteLine } from '../../core/ports';
import { noteKey, parseNotes } from '../markdown/notesFile';
import { writeAtomicStream } from './atomicFile';
import * as fsCalls from './fsCalls';
import { LineSplitter } from './lineSplitter';

const CHUNK = 1 << 20;
/** A line longer than this is no note Baton wrote (notes are capped far below it); it is kept but not parsed. */
const PARSE_MAX = 64 << 20;

const parseLine = (line: Buffer): NoteLine | null => (line.length > PARSE_MAX ? null : (parseNotes(line.toString('utf8'))[0] ?? null));

/** The error for a notes file that exists but cannot be read: never taken for "no notes". */
export function unreadableNotes(file: string, err: unknown): VaultReadError {
  const code = (err as NodeJS.ErrnoException)?.code ?? String(err);
  const fix =
    code === 'EACCES' || code === 'EPERM'
      ? ` It is not readable by this user (a file left by an agent run with sudo?): give it back, e.g. sudo chown "$(id -un)" "${file}", then retry.`
      : ' Check the file, then retry.';
  return new VaultReadError(`Cannot read the working notes ${file} (${code}): nothing was changed, so no open note is lost.${fix}`, code);
}

/** Every line of `file`, in order, read a chunk at a time; false when there is no such file. Throws when it exists but cannot be read. */
async function eachLine(file: string, onLine: (line: Buffer, ended: boolean) => void | Promise<void>): Promise<boolean> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch (err) {
    // ENOTDIR: a file stands where the scope's folder would be, so there is no notes file.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw unreadableNotes(file, err);
  }
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    const queue: [Buffer, boolean][] = [];
    const splitter = new LineSplitter((line, ended) => queue.push([Buffer.from(line), ended]));
    for (;;) {
      let n: number;
      try {
        ({ bytesRead: n } = await handle.read(buf, 0, CHUNK, null));
      } catch (err) {
        throw unreadableNotes(file, err);
      }
      if (n === 0) break;
      splitter.push(buf.subarray(0, n));
      for (const [line, ended] of queue.splice(0)) await onLine(line, ended);
    }
    splitter.end();
    for (const [line, ended] of queue.splice(0)) await onLine(line, ended);
  } finally {
    await handle.close().catch(() => undefined);
  }
  return true;
}

/** The notes of a notes file in file order; [] when there is none. Throws (never "empty") when it cannot be read. */
export async function readNoteLines(file: string): Promise<NoteLine[]> {
  const out: NoteLine[] = [];
  await eachLine(file, (line) => {
    const n = parseLine(line);
    if (n) out.push(n);
  });
  return out;
}

/** The same, synchronously, for the index (which reads in slices on purpose); null when the file cannot be read. */
export function readNoteLinesSync(file: string): NoteLine[] | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return null;
  }
  const out: NoteLine[] = [];
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    const splitter = new LineSplitter((line) => {
      const n = parseLine(line);
      if (n) out.push(n);
    });
    for (;;) {
      const n = fs.readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      splitter.push(buf.subarray(0, n));
    }
    splitter.end();
    return out;
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The notes in the last `bytes` of `file` (its first, possibly cut, line
 * skipped): a bounded read whatever the file's size, for a cheap "was this
 * just recorded?". [] when the file is absent or unreadable: the caller only
 * writes a line more.
 */
export async function readRecentNotes(file: string, bytes: number): Promise<NoteLine[]> {
  // A file descriptor, not a FileHandle: an edit hook reads this on every edit (see fsCalls.ts).
  let fd: number;
  try {
    fd = await fsCalls.open(file, 'r');
  } catch {
    return [];
  }
  try {
    const size = (await fsCalls.fstat(fd)).size;
    const start = Math.max(0, size - bytes);
    const buf = Buffer.alloc(size - start);
    const { bytesRead } = await fsCalls.read(fd, buf, 0, buf.length, start);
    const text = buf.subarray(0, bytesRead).toString('utf8');
    const lines = text.split('\n');
    if (start > 0) lines.shift();
    return lines.map((l) => parseNotes(l)[0]).filter((n): n is NoteLine => n !== undefined);
  } catch {
    return [];
  } finally {
    await fsCalls.close(fd).catch(() => undefined);
  }
}

// With the origin: two machines' same words in the same second are two notes, and a fold takes out only its own.
const key = noteKey;
const HEADER = /^(# uncommitted\b.*|Working notes from sessions that have not been checkpointed yet\.)?\r?$/;

/**
 * Rewrites `file` without the notes in `drop` (each taken out once per time
 * it is listed), keeping every other line as it is: the header, open notes,
 * and lines a person wrote by hand. Removes the file when nothing but its
 * header would be left. Atomic: a temporary file, then a rename.
 */
export async function rewriteNotesWithout(file: string, drop: NoteLine[]): Promise<void> {
  const left = new Map<string, number>();
  for (const n of drop) left.set(key(n), (left.get(key(n)) ?? 0) + 1);
  await writeAtomicStream(file, async (write) => {
    let content = false;
    let batch: Buffer[] = [];
    let size = 0;
    const flush = async (): Promise<void> => {
      if (!batch.length) return;
      const out = Buffer.concat(batch, size);
      batch = [];
      size = 0;
      await write(out);
    };
    const exists = await eachLine(file, async (line) => {
      const n = parseLine(line);
      if (n) {
        const k = key(n);
        const count = left.get(k) ?? 0;
        if (count > 0) {
          left.set(k, count - 1);
          return;
        }
      }
      if (n || !HEADER.test(line.toString('latin1'))) content = true;
      // A torn last line gets its newline: the next append then starts a line of its own.
      batch.push(line, NEWLINE);
      size += line.length + 1;
      if (size >= CHUNK) await flush();
    });
    await flush();
    return exists && content;
  });
}

const NEWLINE = Buffer.from('\n');

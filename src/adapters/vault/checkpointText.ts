// The text of a checkpoint as views read it, whatever the file's size. A file
// up to 1 MB is read whole. A bigger one (large folded notes, a file dropped
// in the vault) is read a chunk at a time and every section is kept, each up
// to SECTION_CAP: a 50 MB State no longer pushes Didn't work, Verified, Files
// and Next out of what `resume` and `why` see, and where a section was cut a
// line says so and how much (nothing is dropped without a word; the file
// itself is untouched).
import * as fs from 'fs';
import { sectionOf } from '../../core/checkpointBody';
import { LineSplitter } from './lineSplitter';

/** Files up to this size are read whole. */
export const WHOLE_CAP = 1 << 20;
/** The most of one section (and of the frontmatter) a view reads from a bigger file. */
export const SECTION_CAP = 256 << 10;
const CHUNK = 1 << 20;

/** A bullet list's notice is a bullet, so it is seen; Files gets a plain line (a notice is no path for `why` to match). */
const isBulletList = (heading: string): boolean => {
  const s = sectionOf(heading);
  return !!s && !s.prose && s.key !== 'files';
};

const size = (bytes: number): string => (bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`);

/** Where to cut `buf` at most `max` bytes in, on a UTF-8 character boundary. */
function boundary(buf: Buffer, max: number): number {
  let at = Math.min(max, buf.length);
  while (at > 0 && at < buf.length && (buf[at] & 0xc0) === 0x80) at--;
  return at;
}

/** Feeds on lines; keeps the frontmatter and every section up to its cap, with a line saying what it left out. */
class Condenser {
  private readonly out: Buffer[] = [];
  private state: 'start' | 'front' | 'body' = 'start';
  private heading = '';
  private kept = 0;
  private skipped = 0;
  private skippedLines = 0;
  readonly splitter = new LineSplitter((line, ended, dropped) => this.line(line, ended, dropped), SECTION_CAP + 1);

  private emit(buf: Buffer): void {
    this.out.push(Buffer.from(buf), NL);
  }

  private line(buf: Buffer, ended: boolean, dropped: number): void {
    const bytes = buf.length + dropped + (ended ? 1 : 0);
    const fence = dropped === 0 && /^---\r?$/.test(buf.toString('latin1'));
    if (this.state === 'start') {
      this.state = fence ? 'front' : 'body';
      if (fence) return this.emit(buf);
    } else if (this.state === 'front' && fence) {
      // A cut frontmatter gets no notice inside it (that would break its YAML); its sections are all below.
      this.state = 'body';
      this.skipped = 0;
      this.close();
      return this.emit(buf);
    }
    if (this.state === 'body' && buf[0] === 0x23 && buf[1] === 0x23 && buf[2] === 0x20) {
      // `## ` at a line's start is always a heading: inside prose such a line is written with a backslash.
      this.close();
      this.heading = buf.subarray(3, boundary(buf, 200)).toString('utf8').trim();
      return this.emit(buf);
    }
    const room = SECTION_CAP - this.kept;
    if (bytes <= room && dropped === 0) {
      this.kept += bytes;
      return this.emit(buf);
    }
    if (room > 0 && this.skipped === 0) {
      // The head of the line that crosses the cap, so a section that is one huge line still shows its start.
      const head = buf.subarray(0, boundary(buf, room));
      this.emit(head);
      this.kept = SECTION_CAP;
      this.skipped += bytes - head.length;
    } else {
      this.skipped += bytes;
    }
    this.skippedLines += 1;
  }

  /** Ends a section: says what of it was left out. */
  private close(): void {
    if (this.skipped > 0 && this.state === 'body') {
      const what = `${size(this.skipped)} (${this.skippedLines} line${this.skippedLines === 1 ? '' : 's'}) of this section not shown: the checkpoint is over Baton's reading limit (${size(SECTION_CAP)} a section); the whole text is in the file`;
      this.out.push(Buffer.from(isBulletList(this.heading) ? `- [… ${what}]\n` : `[… ${what}]\n`));
    }
    this.kept = 0;
    this.skipped = 0;
    this.skippedLines = 0;
  }

  text(): string {
    this.splitter.end();
    this.close();
    return Buffer.concat(this.out).toString('utf8');
  }
}

const NL = Buffer.from('\n');

export interface CheckpointRead {
  text: string;
  stat: { mtime: number; size: number };
}

/** The checkpoint's text for views (see above); null when it cannot be read. */
export async function readCheckpointText(file: string): Promise<string | null> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(file, 'r');
    const { size: bytes } = await handle.stat();
    if (bytes <= WHOLE_CAP) {
      const buf = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buf, 0, bytes, 0);
      return buf.toString('utf8', 0, bytesRead);
    }
    const c = new Condenser();
    const buf = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, CHUNK, null);
      if (bytesRead === 0) break;
      c.splitter.push(buf.subarray(0, bytesRead));
    }
    return c.text();
  } catch {
    return null;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** The same, synchronously, with the stat of the open file (the index reads in slices on purpose). */
export function readCheckpointTextSync(file: string): CheckpointRead | null {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const st = fs.fstatSync(fd);
    const stat = { mtime: st.mtimeMs, size: st.size };
    if (st.size <= WHOLE_CAP) {
      const buf = Buffer.allocUnsafe(st.size);
      let read = 0;
      while (read < buf.length) {
        const n = fs.readSync(fd, buf, read, buf.length - read, read);
        if (n === 0) break;
        read += n;
      }
      return { text: buf.toString('utf8', 0, read), stat };
    }
    const c = new Condenser();
    const buf = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const n = fs.readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      c.splitter.push(buf.subarray(0, n));
    }
    return { text: c.text(), stat };
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * A plan (or any single-text file) up to `cap` bytes, and past it a last line
 * saying how much was left out; null when it cannot be read.
 */
export async function readWithNotice(file: string, cap = WHOLE_CAP): Promise<string | null> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(file, 'r');
    const { size: bytes } = await handle.stat();
    const buf = Buffer.alloc(Math.min(bytes, cap));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const cut = bytesRead < bytes ? boundary(buf, bytesRead) : bytesRead;
    const text = buf.toString('utf8', 0, cut);
    if (bytes <= cap) return text;
    return `${text}\n\n[… ${size(bytes - cut)} more not shown: the file is over Baton's reading limit (${size(cap)}); the whole text is in the file]\n`;
  } catch {
    return null;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

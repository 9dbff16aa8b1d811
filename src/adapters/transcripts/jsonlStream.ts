// A transcript read whole but never held whole: `baton import` goes through
// every line of a person's history (sessions of hundreds of megabytes, a few of
// gigabytes), so lines are cut from fixed-size chunks and parsed one at a time,
// and memory stays at one chunk plus one line whatever the file's size. The
// file is the agent's and may still be written: only the bytes it held when it
// was opened are read, and a last line without its newline that is no JSON is
// a torn line (a crash, or the agent mid-write), skipped and counted.
import * as fs from 'fs';
import { openForeign } from '../foreignFile';

const CHUNK = 1024 * 1024;
/** A line longer than this (a pasted image, a whole prompt blob) is skipped, not grown into memory. */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

export interface LineTally {
  /** Lines that were no JSON (a corrupt line in the middle). */
  bad: number;
  /** The last line, cut off without its newline and no JSON. */
  torn: boolean;
  /** Lines over MAX_LINE_BYTES, skipped unread. */
  long: number;
}

/**
 * Each line of the bytes [from, until) of an open file, in order, without its
 * newline; `last` marks a final piece no newline ended. A line over `maxLine`
 * is skipped unheld and counted in `tally.long`. Memory: one chunk and one line.
 */
export function* fileLines(fd: number, from: number, until: number, tally: Pick<LineTally, 'long'>, maxLine = MAX_LINE_BYTES): Generator<{ line: Buffer; last: boolean }> {
  const buf = Buffer.alloc(CHUNK);
  let parts: Buffer[] = [];
  let held = 0;
  let skipping = false;
  for (let at = from; at < until;) {
    const n = fs.readSync(fd, buf, 0, Math.min(CHUNK, until - at), at);
    if (n === 0) break;
    at += n;
    const chunk = buf.subarray(0, n);
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      if (!skipping && held + piece.length > maxLine) tally.long++;
      // The chunk is reused by the next read: a line handed out is a copy, or a view consumed before it.
      else if (!skipping) yield { line: parts.length ? Buffer.concat([...parts, piece]) : piece, last: false };
      parts = [];
      held = 0;
      skipping = false;
      start = nl + 1;
    }
    if (start < n && !skipping) {
      held += n - start;
      if (held > maxLine) {
        tally.long++;
        skipping = true;
        parts = [];
      } else parts.push(Buffer.from(chunk.subarray(start)));
    }
  }
  if (parts.length && !skipping) yield { line: Buffer.concat(parts), last: true };
}

/**
 * Each JSON line of `file` parsed, in order; `tally` counts what was skipped.
 * Throws only when the file cannot be opened or is no regular file (a FIFO is
 * refused, never waited on: foreignFile.ts).
 */
export function* jsonRecords(file: string, tally: LineTally): Generator<unknown> {
  const f = openForeign(file);
  if (f === null) throw Object.assign(new Error(`ENOENT: no such file, open '${file}'`), { code: 'ENOENT' });
  try {
    for (const { line, last } of fileLines(f.fd, 0, f.size, tally)) {
      const text = line.toString('utf8');
      if (!text.trim()) continue;
      try {
        yield JSON.parse(text) as unknown;
      } catch {
        if (last) tally.torn = true;
        else tally.bad++;
      }
    }
  } finally {
    fs.closeSync(f.fd);
  }
}

/** What a tally says was skipped, as one clause, or "". */
export function tallyText(t: LineTally): string {
  return [t.torn ? 'a torn last line' : '', t.bad ? `${t.bad} line(s) that are no JSON` : '', t.long ? `${t.long} line(s) over ${MAX_LINE_BYTES / 1024 / 1024} MB` : '']
    .filter(Boolean)
    .join(', ');
}

// What every transcript reader shares: the user's own words out of a file an
// agent wrote for itself, read from both ends only. Each host's format is one
// module beside this one (claude.ts, codex.ts, gemini.ts, cursor.ts,
// copilot.ts) that turns a window of the file into the messages a person
// typed; this file reads the windows, so a torn line or a cut window is the
// same skip in every format.
import * as fs from 'fs';

/** How much of each end of a transcript is read; transcripts grow to tens of megabytes. */
const HEAD_BYTES = 256 * 1024;
const TAIL_BYTES = 2 * 1024 * 1024;

export interface UserWords {
  /** The opening request, "" when the transcript holds no user message. */
  opening: string;
  /** Up to `recent` latest user messages after the opening one, oldest first. */
  latest: string[];
}

/** A format's reader: the messages a person typed, oldest first, in a window of its file (possibly cut at either end). */
export type MessagesOf = (text: string) => string[];

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Each line of a JSONL window parsed; a line that is not JSON (torn last line, partial first line of a tail) is skipped. */
export function jsonLines(window: string): unknown[] {
  const out: unknown[] = [];
  for (const line of window.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // a line cut by the window or by a crash mid-write
    }
  }
  return out;
}

/** Cuts on whole code points and says it was cut, so a clipped quote is never mistaken for the whole one. */
export function clip(value: string, max: number): string {
  const chars = Array.from(value.trim());
  return chars.length > max ? `${chars.slice(0, max).join('').trimEnd()} …[clipped]` : chars.join('');
}

function readRange(fd: number, start: number, length: number): string {
  const buf = Buffer.alloc(length);
  const n = fs.readSync(fd, buf, 0, length, start);
  return buf.subarray(0, n).toString('utf8');
}

/**
 * The opening request and the latest `recent` user messages of a transcript,
 * as `messagesOf` reads its format. Reads at most the first 256 KB and the last
 * 2 MB, so a long session costs no more than a short one. Throws only when the
 * file cannot be opened.
 */
export function readUserWords(file: string, messagesOf: MessagesOf, recent = 3): UserWords {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    let head: string[];
    let tail: string[];
    if (size <= HEAD_BYTES + TAIL_BYTES) {
      head = tail = messagesOf(readRange(fd, 0, size));
    } else {
      head = messagesOf(readRange(fd, 0, HEAD_BYTES));
      tail = messagesOf(readRange(fd, size - TAIL_BYTES, TAIL_BYTES));
    }
    const opening = head[0] ?? tail[0] ?? '';
    // In a short session the opening request is also among the latest: quote it once.
    const rest = head === tail ? tail.slice(1) : tail;
    return { opening, latest: rest.slice(-recent) };
  } finally {
    fs.closeSync(fd);
  }
}

// What every transcript reader shares: the user's own words out of a file an
// agent wrote for itself, read from both ends only. Each host's format is one
// module beside this one (claude.ts, codex.ts, gemini.ts, cursor.ts,
// copilot.ts) that turns a window of the file into the messages a person
// typed; this file reads the windows, so a torn line or a cut window is the
// same skip in every format.
import * as fs from 'fs';
import { openForeign, readRange } from '../foreignFile';

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

const readText = (fd: number, start: number, length: number): string => readRange(fd, start, length).toString('utf8');

/** The ends of a transcript: the whole file as both when it is small, else its first 256 KB and its last 2 MB. */
export interface Windows {
  head: string;
  tail: string;
  whole: boolean;
}

/**
 * Reads a transcript's ends (Windows). The path comes from the agent's payload:
 * a FIFO or a device there is refused before any read, never waited on
 * (foreignFile.ts). Throws only when the file cannot be opened or is no
 * regular file.
 */
export function readWindows(file: string): Windows {
  const f = openForeign(file);
  if (f === null) throw Object.assign(new Error(`ENOENT: no such file, open '${file}'`), { code: 'ENOENT' });
  const { fd, size } = f;
  try {
    if (size <= HEAD_BYTES + TAIL_BYTES) {
      const all = readText(fd, 0, size);
      return { head: all, tail: all, whole: true };
    }
    return { head: readText(fd, 0, HEAD_BYTES), tail: readText(fd, size - TAIL_BYTES, TAIL_BYTES), whole: false };
  } finally {
    fs.closeSync(fd);
  }
}

// Baton's own hand-over, wherever a host stores it as if the user had said it
// (Gemini CLI puts a hook's context into the user's message; a person may paste
// it): it starts with the first line app/agentHooks.ts sessionStart writes, or
// with the hand-over's heading (core/handover.ts renderHandover), and ends with
// the line sessionStart closes it with. Without that line (an older Baton, a
// host that cut it) it runs to the end of the message: quoting Baton back as
// the user's words is the worse mistake.
export const HANDOVER_END = "(End of Baton's hand-over.)";
const HANDOVER_START = /^(?:Baton, the session record of |# Hand-over — )/m;

/** A message without any hand-over of Baton's in it. */
export function withoutHandover(message: string): string {
  let rest = message;
  for (let m = HANDOVER_START.exec(rest); m; m = HANDOVER_START.exec(rest)) {
    const end = rest.indexOf(HANDOVER_END, m.index);
    rest = rest.slice(0, m.index) + (end < 0 ? '' : rest.slice(end + HANDOVER_END.length));
  }
  return rest.trim();
}

/**
 * The opening request and the latest `recent` user messages of a transcript,
 * as `messagesOf` reads its format, Baton's own hand-over taken out of each.
 * Reads at most the first 256 KB and the last 2 MB, so a long session costs no
 * more than a short one. Throws only when the file cannot be opened.
 */
export function readUserWords(file: string, messagesOf: MessagesOf, recent = 3): UserWords {
  const w = readWindows(file);
  const read = (window: string): string[] => messagesOf(window).map(withoutHandover).filter(Boolean);
  const head = read(w.head);
  const tail = w.whole ? head : read(w.tail);
  const opening = head[0] ?? tail[0] ?? '';
  // In a short session the opening request is also among the latest: quote it once.
  const rest = w.whole ? tail.slice(1) : tail;
  return { opening, latest: rest.slice(-recent) };
}

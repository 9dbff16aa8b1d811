// Reading what the user said from a Claude Code transcript (JSONL, one event
// per line). Only the user's own words are wanted: tool results, command
// echoes, injected reminders and compaction summaries all arrive as "user"
// lines too, and quoting them as the user speaking would put words in a
// person's mouth in a record others trust.
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

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

// Lines Claude Code writes into the user's turn on their behalf: slash-command
// echoes, local command output, hook and system reminders, interruptions.
const NOT_SPOKEN = /^\s*(?:<(?:command-name|command-message|command-args|local-command-stdout|local-command-stderr|system-reminder|user-prompt-submit-hook|bash-input|bash-stdout|bash-stderr)>|\[Request interrupted by user)/;
const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

/**
 * The text a person typed on one transcript line, or "" when the line is not
 * the user speaking: another role, a meta or sidechain (sub-agent) line, a
 * compaction summary, a line carrying a tool result, or an injected echo.
 */
export function spokenText(event: unknown): string {
  if (!isObject(event) || event.type !== 'user') return '';
  if (event.isMeta === true || event.isSidechain === true || event.isCompactSummary === true || event.isVisibleInTranscriptOnly === true) return '';
  if ('toolUseResult' in event) return '';
  const message = event.message;
  if (!isObject(message) || (message.role !== undefined && message.role !== 'user')) return '';
  const content = message.content;
  let text = '';
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    // A tool result anywhere in the line means the line is the tool talking.
    if (content.some((part) => isObject(part) && part.type === 'tool_result')) return '';
    text = content
      .filter((part): part is Json => isObject(part) && part.type === 'text' && typeof part.text === 'string')
      .map((part) => part.text as string)
      .join('\n');
  }
  text = text.replace(REMINDER, '').trim();
  if (!text || NOT_SPOKEN.test(text)) return '';
  return text;
}

/** Parses JSONL, skipping any line that is not JSON: a torn last line, a partial first line of a tail read. */
export function userMessages(jsonl: string): string[] {
  const out: string[] = [];
  for (const line of jsonl.split('\n')) {
    if (!line.trim()) continue;
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    const text = spokenText(event);
    if (text) out.push(text);
  }
  return out;
}

/** Cuts on whole code points and says it was cut, so a clipped quote is never mistaken for the whole one. */
export function clip(text: string, max: number): string {
  const chars = Array.from(text.trim());
  return chars.length > max ? `${chars.slice(0, max).join('').trimEnd()} …[clipped]` : chars.join('');
}

function readRange(fd: number, start: number, length: number): string {
  const buf = Buffer.alloc(length);
  const n = fs.readSync(fd, buf, 0, length, start);
  return buf.subarray(0, n).toString('utf8');
}

/**
 * The opening request and the latest `recent` user messages of a transcript.
 * Reads at most the first 256 KB and the last 2 MB, so a long session costs no
 * more than a short one; a line cut by either window is skipped as unreadable.
 * Throws only when the file cannot be opened.
 */
export function readUserWords(file: string, recent = 3): UserWords {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    let head: string[];
    let tail: string[];
    if (size <= HEAD_BYTES + TAIL_BYTES) {
      head = tail = userMessages(readRange(fd, 0, size));
    } else {
      head = userMessages(readRange(fd, 0, HEAD_BYTES));
      tail = userMessages(readRange(fd, size - TAIL_BYTES, TAIL_BYTES));
    }
    const opening = head[0] ?? tail[0] ?? '';
    // In a short session the opening request is also among the latest: quote it once.
    const rest = head === tail ? tail.slice(1) : tail;
    return { opening, latest: rest.slice(-recent) };
  } finally {
    fs.closeSync(fd);
  }
}

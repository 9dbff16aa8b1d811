// The working notes file (`uncommitted.md`): one line a note, appended whole.
import { oneLine } from '../../core/checkpointBody';
import { safe } from '../../core/names';

/**
 * One note line: `- <text> <!-- ts=<unix seconds> agent=<safe agent> -->`.
 * The text is folded onto one line. A `<!--` inside it gets one backslash
 * after the `<` (and the reader takes exactly one away, so the mapping is
 * exact even for text that had backslashes there): a markdown preview would
 * otherwise swallow the rest of the line, and the metadata must be the only
 * comment on the line.
 */
export function renderNoteLine(note: { text: string; agent: string; ts: number }): string {
  const ts = Number.isFinite(note.ts) ? Math.max(0, Math.floor(note.ts)) : 0;
  const text = oneLine(note.text).replace(/<(\\*)!--/g, '<\\$1!--');
  return `- ${text} <!-- ts=${ts} agent=${safe(note.agent)} -->\n`;
}

export function notesHeader(project: string): string {
  return `# uncommitted — ${project}\n\nWorking notes from sessions that have not been checkpointed yet.\n\n`;
}

// Greedy text and an anchored tail: the metadata is the last comment on the line.
// `[^\n]`, not `.`: a bare CR or a Unicode line separator typed into a line by
// hand is inside that note (a file is split into lines on LF alone), not a
// reason to drop the note; the text is folded onto one line when read.
const NOTE = /^[ \t]*[-*+][ \t]+([^\n]*)[ \t]*<!--[ \t]*ts=([0-9]+)[ \t]+agent=(\S*)[ \t]*-->[ \t]*$/;

/** Notes in file order; lines that do not match (headers, a torn last line) are ignored. Never throws. */
export function parseNotes(text: string): { text: string; agent: string; ts: number }[] {
  const out: { text: string; agent: string; ts: number }[] = [];
  if (typeof text !== 'string') return out;
  for (const line of text.split(/\r?\n/)) {
    const m = NOTE.exec(line);
    if (!m) continue;
    const ts = Number(m[2]);
    if (!Number.isSafeInteger(ts)) continue;
    out.push({ text: oneLine((m[1] ?? '').replace(/<\\(\\*)!--/g, '<$1!--')), agent: m[3] ?? '', ts });
  }
  return out;
}

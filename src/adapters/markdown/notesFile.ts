// The working notes file (`uncommitted.md`): one line a note, appended whole.
import { oneLine } from '../../core/checkpointBody';
import { safe } from '../../core/names';
import type { NoteLine } from '../../core/ports';
import { originValue } from '../../core/origin';

/**
 * One note line: `- <text> <!-- ts=<unix seconds> agent=<safe agent> -->`.
 * The text is folded onto one line. A `<!--` inside it gets one backslash
 * after the `<` (and the reader takes exactly one away, so the mapping is
 * exact even for text that had backslashes there): a markdown preview would
 * otherwise swallow the rest of the line, and the metadata must be the only
 * comment on the line.
 */
export function renderNoteLine(note: NoteLine): string {
  const ts = Number.isFinite(note.ts) ? Math.max(0, Math.floor(note.ts)) : 0;
  const text = oneLine(note.text).replace(/<(\\*)!--/g, '<\\$1!--');
  // The origin after `ts` and `agent`, which stay first and unchanged: a line
  // without it is a line as every earlier writer wrote it.
  const machine = originValue(note.machine ?? '');
  const session = originValue(note.agentSession ?? '');
  const origin = `${machine ? ` machine=${machine}` : ''}${session ? ` agent_session=${session}` : ''}`;
  return `- ${text} <!-- ts=${ts} agent=${safe(note.agent)}${origin} -->\n`;
}

/** A note's identity: two notes are one when all of this is equal (the same words at the same second on two machines are two notes). */
export const noteKey = (n: NoteLine): string => `${n.ts}\u0000${n.agent}\u0000${n.text}\u0000${n.machine ?? ''}\u0000${n.agentSession ?? ''}`;

export function notesHeader(project: string): string {
  return `# uncommitted — ${project}\n\nWorking notes from sessions that have not been checkpointed yet.\n\n`;
}

// Greedy text and an anchored tail: the metadata is the last comment on the line.
// `[^\n]`, not `.`: a bare CR or a Unicode line separator typed into a line by
// hand is inside that note (a file is split into lines on LF alone), not a
// reason to drop the note; the text is folded onto one line when read.
// After `agent`, any `key=value` pairs: the origin's (`machine`, `agent_session`)
// and a later writer's, ignored here and kept with the line's bytes.
const NOTE = /^[ \t]*[-*+][ \t]+([^\n]*)[ \t]*<!--[ \t]*ts=([0-9]+)[ \t]+agent=(\S*)((?:[ \t]+[A-Za-z_][A-Za-z0-9_]*=[^\s=]*)*)[ \t]*-->[ \t]*$/;

const ORIGIN_VALUE = /^[A-Za-z0-9_-]{1,128}$/;

/** The origin's keys among a note comment's extra pairs; an absent key is absent, not "". */
function originOf(pairs: string): { machine?: string; agentSession?: string } {
  const out: { machine?: string; agentSession?: string } = {};
  for (const pair of pairs.trim().split(/[ \t]+/)) {
    const eq = pair.indexOf('=');
    const [k, v] = [pair.slice(0, eq), pair.slice(eq + 1)];
    // Only a value Baton could have written (originValue's alphabet): a forged one is no origin, and never reaches a list raw.
    if (!ORIGIN_VALUE.test(v)) continue;
    if (k === 'machine' && out.machine === undefined) out.machine = v;
    else if (k === 'agent_session' && out.agentSession === undefined) out.agentSession = v;
  }
  return out;
}

/** Notes in file order; lines that do not match (headers, a torn last line) are ignored. Never throws. */
export function parseNotes(text: string): NoteLine[] {
  const out: NoteLine[] = [];
  if (typeof text !== 'string') return out;
  for (const line of text.split(/\r?\n/)) {
    const m = NOTE.exec(line);
    if (!m) continue;
    const ts = Number(m[2]);
    if (!Number.isSafeInteger(ts)) continue;
    const note: NoteLine = { text: oneLine((m[1] ?? '').replace(/<\\(\\*)!--/g, '<$1!--')), agent: m[3] ?? '', ts };
    if (m[4]) Object.assign(note, originOf(m[4]));
    out.push(note);
  }
  return out;
}

// The working notes file (`uncommitted.md`): one line a note, appended whole.
import { oneLine } from '../../core/checkpointBody';
import { safe } from '../../core/names';
import type { NoteLine } from '../../core/ports';
import { originValue } from '../../core/origin';

/**
 * One note line: `- <text> <!-- ts=<unix seconds> agent=<safe agent> -->`,
 * with its origin, when it has one, in a comment of its own just before:
 * `- <text> <!-- machine=<id> agent_session=<id> --> <!-- ts=… agent=… -->`.
 * The metadata comment stays exactly as every earlier writer wrote it, so an
 * older reader (whose pattern ends at `agent=<name> -->`) still reads the line
 * as a note, taking the origin comment for part of its text (hidden by a
 * markdown preview). The text is folded onto one line. A `<!--` inside it gets
 * one backslash after the `<` (and the reader takes exactly one away, so the
 * mapping is exact even for text that had backslashes there): a markdown
 * preview would otherwise swallow the rest of the line, and Baton's comments
 * must be the only ones on the line.
 */
export function renderNoteLine(note: NoteLine): string {
  const ts = Number.isFinite(note.ts) ? Math.max(0, Math.floor(note.ts)) : 0;
  const text = oneLine(note.text).replace(/<(\\*)!--/g, '<\\$1!--');
  const machine = originValue(note.machine ?? '');
  const session = originValue(note.agentSession ?? '');
  const pairs = [machine ? `machine=${machine}` : '', session ? `agent_session=${session}` : ''].filter(Boolean).join(' ');
  const origin = pairs ? ` <!-- ${pairs} -->` : '';
  return `- ${text}${origin} <!-- ts=${ts} agent=${safe(note.agent)} -->\n`;
}

/** A note's identity: two notes are one when all of this is equal (the same words at the same second on two machines are two notes). */
export const noteKey = (n: NoteLine): string => `${n.ts}\u0000${n.agent}\u0000${n.text}\u0000${n.machine ?? ''}\u0000${n.agentSession ?? ''}`;

export function notesHeader(project: string): string {
  return `# uncommitted — ${project}\n\nWorking notes from sessions that have not been checkpointed yet.\n\n`;
}

// A line is read from its ends, not by one pattern over all of it: a pattern
// with a free-length text between two runs of blanks backtracks cubically on a
// line of spaces (10,000 of them arriving by sync took minutes). The metadata is
// the line's last comment (a `<!--` of the text is written `<\!--`); the
// origin's comment, when there is one, is the one just before it. A line a
// person wrote with comments of their own is a note only when its last comment
// is Baton's metadata, as before.
const BULLET = /^[ \t]*[-*+][ \t]+/;
const PAIR = '[A-Za-z_][A-Za-z0-9_]*=[^\\s=]*';
// Pairs after `agent` are how lines carried their origin before it had a
// comment of its own (still read); any other key is a later writer's, ignored
// here and kept with the line's bytes.
const META = new RegExp(`^<!--[ \\t]*ts=([0-9]+)[ \\t]+agent=(\\S*)((?:[ \\t]+${PAIR})*)[ \\t]*-->[ \\t]*$`);
const ORIGIN_COMMENT = new RegExp(`^<!--[ \\t]*(${PAIR}(?:[ \\t]+${PAIR})*)[ \\t]*-->$`);

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
    const note = parseNoteLine(line);
    if (note) out.push(note);
  }
  return out;
}

/** One line of the notes file as a note, or null when it is not one. Linear in the line's length. */
function parseNoteLine(line: string): NoteLine | null {
  const bullet = BULLET.exec(line);
  if (!bullet) return null;
  const at = line.lastIndexOf('<!--');
  if (at < bullet[0].length) return null;
  const meta = META.exec(line.slice(at));
  if (!meta) return null;
  const ts = Number(meta[1]);
  if (!Number.isSafeInteger(ts)) return null;
  let text = line.slice(bullet[0].length, at).trimEnd();
  // Pairs after `agent` (the older place) fill what the origin's own comment lacks.
  let origin = originOf(meta[3] ?? '');
  const open = text.endsWith('-->') ? text.lastIndexOf('<!--') : -1;
  const own = open >= 0 ? ORIGIN_COMMENT.exec(text.slice(open)) : null;
  if (own) {
    // Only a comment naming an origin is one: any other stays the person's text.
    const found = originOf(own[1] ?? '');
    if (found.machine !== undefined || found.agentSession !== undefined) {
      origin = { ...origin, ...found };
      text = text.slice(0, open);
    }
  }
  return { text: oneLine(text.replace(/<\\(\\*)!--/g, '<$1!--')), agent: meta[2] ?? '', ts, ...origin };
}

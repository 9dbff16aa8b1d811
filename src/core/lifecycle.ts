// An agent's lifecycle events (a turn ended, a session ended), written by the
// hooks as working notes of one recognisable shape, `lifecycle: <event>`. They
// are no working notes for a reader: the hand-over does not list them, a
// checkpoint folds them away without putting them in its State, and a session
// of nothing else is not abandoned. They stay notes because they are what
// says a session is alive: the 6 h abandonment rule counts them as activity,
// and a note is what every machine sharing the vault sees (a Logos reading
// the same vault sees a plain note). They never carry a machine's path: the
// transcript a session ended with is kept in the agent-session binding
// (adapters/agentSessions.ts), which stays on the machine.
import type { Note } from './model';

export const LIFECYCLE_PREFIX = 'lifecycle: ';

/** The note a turn's end writes, with the host's reason when it gives one. */
export const turnEndedNote = (reason: string): string => `${LIFECYCLE_PREFIX}stopped${reason ? ` (${reason})` : ''}`;

/** The note a session's end writes. */
export const sessionEndedNote = (reason: string): string => `${LIFECYCLE_PREFIX}session ended (${reason || 'no reason given'})`;

/**
 * The notes Baton's hooks wrote for the same events before they were marked:
 * "<agent> stopped (…)" and "<agent> session <id> ended (…); transcript <path>",
 * recognised by the note's own agent so a vault written then reads as one
 * written now.
 */
function isLegacy(n: { text: string; agent: string }): boolean {
  if (!n.agent || !n.text.startsWith(`${n.agent} `)) return false;
  const rest = n.text.slice(n.agent.length + 1);
  return /^stopped(?: \([^)]*\))?$/.test(rest) || /^session(?: \S+)? ended \([^)]*\)(?:; transcript .*)?$/.test(rest);
}

export const isLifecycleNote = (n: { text: string; agent: string }): boolean => n.text.startsWith(LIFECYCLE_PREFIX) || isLegacy(n);

/** The notes a reader is meant to read: every note but the lifecycle events. */
export const workingNotes = <T extends Pick<Note, 'text' | 'agent'>>(notes: readonly T[]): T[] => notes.filter((n) => !isLifecycleNote(n));

// The rules of open sessions, derived from working notes alone: a session is
// an agent's run of notes in a scope, opened by its first note and closed when
// a checkpoint folds it. Keeping no other state means a deleted index or a
// vault copied to another machine loses no session.
import type { Abandoned, Note } from './model';
import type { NoteLine } from './ports';
import { stamp } from './time';
import { isEditNote } from './edits';
import { workingNotes } from './lifecycle';

export const ABANDON_AFTER = 6 * 3600;
export const PARALLEL_GRACE = 30 * 60;
export const QUIET_AFTER = 14 * 86400;

export interface OpenSession {
  id: string;
  scope: string;
  agent: string;
  /** The machine its notes came from; "" for notes written without an origin (before origins, or no id kept). */
  machine: string;
  start: number;
  lastActivity: number;
  notes: Note[];
}

/** The id of an open session: its start stamp and agent, the shape of the checkpoint that will close it. */
export const sessionId = (start: number, agent: string): string => `${stamp(start)}-${agent}`;

/**
 * Groups a scope's notes into one open session per agent and machine, notes in
 * the order written: the same agent name on two machines (everyone's Claude
 * Code is `claude-code`) is two sessions. Notes without an origin are one
 * session per agent, as they always were.
 */
export function openSessions(scope: string, lines: NoteLine[]): OpenSession[] {
  const byOrigin = new Map<string, NoteLine[]>();
  for (const line of lines) {
    const key = `${line.agent}\u0000${line.machine ?? ''}`;
    const list = byOrigin.get(key) ?? [];
    list.push(line);
    byOrigin.set(key, list);
  }
  const sessions: OpenSession[] = [];
  for (const list of byOrigin.values()) {
    const agent = list[0].agent;
    // Stable sort keeps same-second notes in file order.
    const sorted = [...list].sort((a, b) => a.ts - b.ts);
    const start = sorted[0].ts;
    const id = sessionId(start, agent);
    sessions.push({
      id,
      scope,
      agent,
      machine: list[0].machine ?? '',
      start,
      lastActivity: sorted[sorted.length - 1].ts,
      notes: sorted.map((n) => ({ ...n, session: id })),
    });
  }
  return sessions.sort((a, b) => a.start - b.start || a.agent.localeCompare(b.agent) || a.machine.localeCompare(b.machine));
}

/**
 * Silent past the window, lifecycle events counted as activity; a session of
 * lifecycle events alone (an agent that ran and wrote nothing) has nothing to
 * close and is not abandoned.
 */
export const isAbandoned = (s: OpenSession, now: number): boolean => now - s.lastActivity > ABANDON_AFTER && workingNotes(s.notes).length > 0;

/**
 * Which open sessions a checkpoint by `agent` on `machine` folds: its own, and
 * any other agent's of this machine that has been silent past the grace period
 * (a parallel agent still at work keeps its notes for its own checkpoint).
 * Another machine's session is never folded here, silent or not: its notes
 * arrived by sync and are its owner's to checkpoint; past the abandonment
 * window anyone may close it on purpose (Baton.closeAbandoned). Notes without
 * an origin keep the rule they were written under: any machine's checkpoint
 * by their agent folds them, as before origins.
 */
export function sessionsToFold(sessions: OpenSession[], agent: string, now: number, machine = ''): OpenSession[] {
  return sessions.filter((s) => {
    const here = s.machine === '' || s.machine === machine;
    return here && (s.agent === agent || now - s.lastActivity > PARALLEL_GRACE);
  });
}

/**
 * Appends folded notes to State. They are never dropped because the agent also
 * wrote a State of its own: the notes are what happened, the State a summary.
 */
export function foldIntoState(state: string, notes: Note[], agent: string): string {
  if (notes.length === 0) return state;
  const lines = notes.map((n) => (n.agent === agent ? `- ${n.text}` : `- (${n.agent}) ${n.text}`));
  const recorded = `Recorded during the session:\n${lines.join('\n')}`;
  return state.trim() ? `${state.trim()}\n\n${recorded}` : recorded;
}

/** The State of an auto-closed checkpoint: it says plainly that nobody handed this over. */
export function autoClosedState(silentFor: number): string {
  const hours = Math.floor(silentFor / 3600);
  return `closed automatically — no activity for ${hours}h, past the ${ABANDON_AFTER / 3600}h abandonment window; ` + 'nobody reviewed this session; this is not a real handoff';
}

export const isQuiet = (lastCheckpoint: number, now: number): boolean => lastCheckpoint <= 0 || now - lastCheckpoint > QUIET_AFTER;

/** An abandoned session as lists show it; its first note stands in for the task nobody wrote. */
export function toAbandoned(s: OpenSession): Abandoned {
  // An `edited:` note (a hook's record of a file) says nothing of the task, a lifecycle event nothing at all.
  const notes = workingNotes(s.notes);
  const first = (notes.find((n) => !isEditNote(n)) ?? notes[0])?.text ?? '';
  return {
    session: s.id,
    project: s.scope,
    agent: s.agent,
    machine: s.machine,
    task: first.length > 80 ? `${first.slice(0, 79)}…` : first,
    notes: notes.length,
    lastActivity: s.lastActivity,
  };
}

// Whose a session is, where a project is written from more than one machine:
// in a team's vault everyone's Claude Code is `claude-code`, so the agent name
// alone no longer says whose notes they are. Lists add the machine only then;
// a person alone on one machine sees what they always saw.
import type { Abandoned } from './model';
import { isAbandoned, type OpenSession } from './sessions';
import { workingNotes } from './lifecycle';
import { shortMachine } from './origin';
import { ident } from './quoted';
import { age } from './time';

/** Another machine's session still at work (inside the abandonment window), as a hand-over lists it. */
export interface LiveSession {
  session: string;
  agent: string;
  machine: string;
  notes: number;
  lastActivity: number;
}

/** "this machine", "machine 3f9c2a1b", or "" for notes without an origin. */
export function whoseLabel(machine: string | undefined, here: string): string {
  if (!machine) return '';
  return machine === here ? 'this machine' : `machine ${shortMachine(machine)}`;
}

/** A checkpoint's machine as its frontmatter holds it, when it is one Baton could have written. */
export const machineOf = (extra: Record<string, unknown> | undefined): string | undefined => {
  const m = extra?.machine;
  return typeof m === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(m) ? m : undefined;
};

/**
 * Whose each of a list's items is ("this machine", "machine 3f9c2a1b"), when
 * they and this machine are more than one machine; else "" for every item, so
 * a person alone sees what they always saw.
 */
export function whoseAmong(machines: readonly (string | undefined)[], here: string): (machine: string | undefined) => string {
  const several = new Set([here, ...machines].filter(Boolean)).size > 1;
  return (machine) => (several ? whoseLabel(machine, here) : '');
}

/** Whether the sessions come from more than one machine (this one counted): only then is the machine worth a word. */
export const severalMachines = (sessions: readonly OpenSession[], here: string): boolean => new Set([here, ...sessions.map((s) => s.machine)].filter(Boolean)).size > 1;

/** Abandoned sessions with whose they are, when that needs saying. */
export function withWhose(list: Abandoned[], several: boolean, here: string): Abandoned[] {
  return several ? list.map((a) => ({ ...a, whose: whoseLabel(a.machine, here) })) : list;
}

/** The other machines' sessions in a scope still at work: their owners' to checkpoint, never folded here. */
export function othersWorking(sessions: readonly OpenSession[], here: string, now: number): LiveSession[] {
  return sessions
    .filter((s) => s.machine && s.machine !== here && !isAbandoned(s, now) && workingNotes(s.notes).length > 0)
    .map((s) => ({ session: s.id, agent: s.agent, machine: s.machine, notes: workingNotes(s.notes).length, lastActivity: s.lastActivity }))
    .sort((a, b) => b.lastActivity - a.lastActivity);
}

/** The hand-over's "also working now" block: facts, one line a session; nothing when no other machine is at work. */
export function renderAlsoWorking(live: readonly LiveSession[] | undefined, now: number): string[] {
  if (!live?.length) return [];
  return [
    '',
    `Also working now, on other machines (${live.length}); their notes are theirs to checkpoint:`,
    ...live.map((s) => `  - ${ident(s.agent)} on machine ${shortMachine(s.machine)} (${s.notes} notes, last ${age(now - s.lastActivity)} ago, session ${ident(s.session)})`),
  ];
}

/** `, machine 3f9c2a1b` after an abandoned session's agent where whose needs saying, else "". */
export const whoseOf = (a: Abandoned): string => (a.whose ? `, ${a.whose}` : '');

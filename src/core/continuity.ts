// The cross-project questions answered from the index: which sessions are open
// anywhere, which of them are abandoned, and how each project stands. Pure:
// the index hands over its rows and the clock its time.
import type { Abandoned, ProjectContinuity } from './model';
import { rootProject } from './names';
import type { NoteLine, ScopeNote, ScopeSummary } from './ports';
import { workingNotes } from './lifecycle';
import { isAbandoned, isQuiet, openSessions, toAbandoned, type OpenSession } from './sessions';
import { severalMachines, withWhose } from './whose';

/** Every open session of the vault, from the index's mirror of each `uncommitted.md`. */
export function openAcrossVault(notes: readonly ScopeNote[]): OpenSession[] {
  const byScope = new Map<string, NoteLine[]>();
  for (const n of notes) {
    const list = byScope.get(n.scope) ?? [];
    const line: NoteLine = { text: n.text, agent: n.agent, ts: n.ts };
    if (n.machine) line.machine = n.machine;
    if (n.agentSession) line.agentSession = n.agentSession;
    list.push(line);
    byScope.set(n.scope, list);
  }
  return [...byScope].flatMap(([scope, lines]) => openSessions(scope, lines));
}

/**
 * Abandoned sessions, longest silent first; with `here` (this machine's id),
 * each says whose machine it was where its project is written from more than
 * one (whose.ts).
 */
export function abandonedAcross(notes: readonly ScopeNote[], now: number, here = ''): Abandoned[] {
  const open = openAcrossVault(notes);
  const byProject = new Map<string, OpenSession[]>();
  for (const s of open) byProject.set(rootProject(s.scope), [...(byProject.get(rootProject(s.scope)) ?? []), s]);
  return open
    .filter((s) => isAbandoned(s, now))
    .map((s) => withWhose([toAbandoned(s)], severalMachines(byProject.get(rootProject(s.scope)) ?? [], here), here)[0])
    .sort((a, b) => a.lastActivity - b.lastActivity);
}

function addMachines(e: ProjectContinuity, machines: readonly string[]): void {
  for (const m of machines) if (m && !e.machines.includes(m)) e.machines.push(m);
}

/**
 * Per project, worktree scopes rolled up: checkpointed projects first, most
 * recent first; never-checkpointed ones last.
 */
export function continuityOf(summaries: readonly ScopeSummary[], notes: readonly ScopeNote[], now: number): ProjectContinuity[] {
  const byProject = new Map<string, ProjectContinuity>();
  const entry = (scope: string): ProjectContinuity => {
    const project = rootProject(scope);
    let e = byProject.get(project);
    if (!e) {
      e = { project, checkpoints: 0, lastCheckpoint: 0, lastAgent: '', lastMachine: '', lastPerson: '', machines: [], uncommitted: 0, abandoned: 0, quiet: true, scopes: [] };
      byProject.set(project, e);
    }
    if (scope !== project && !e.scopes.includes(scope)) e.scopes.push(scope);
    return e;
  };
  for (const s of summaries) {
    const e = entry(s.scope);
    e.checkpoints += s.checkpoints;
    addMachines(e, s.machines);
    if (s.lastCheckpoint > e.lastCheckpoint) {
      e.lastCheckpoint = s.lastCheckpoint;
      e.lastAgent = s.lastAgent;
      e.lastMachine = s.lastMachine;
      e.lastPerson = s.lastPerson;
    }
  }
  for (const s of openAcrossVault(notes)) {
    const e = entry(s.scope);
    addMachines(e, [s.machine]);
    e.uncommitted += workingNotes(s.notes).length;
    if (isAbandoned(s, now)) e.abandoned += 1;
  }
  const list = [...byProject.values()];
  for (const e of list) {
    e.quiet = isQuiet(e.lastCheckpoint, now);
    e.scopes.sort();
  }
  return list.sort((a, b) => {
    if (a.checkpoints > 0 !== b.checkpoints > 0) return a.checkpoints > 0 ? -1 : 1;
    return b.lastCheckpoint - a.lastCheckpoint || a.project.localeCompare(b.project);
  });
}

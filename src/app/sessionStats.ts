// The lifecycle of sessions, counted. Every state is derived from the vault
// (plus the resume log), so the numbers survive a deleted index:
// - open:        an agent's open session (working notes, no checkpoint yet), active within 6h
// - abandoned:   an open session silent for more than 6h
// - auto-closed: a checkpoint nobody wrote (an abandoned session closed on its owner's behalf)
// - resumed:     a checkpoint an agent then resumed: a resume on its scope while
//                it was still the scope's latest (before the next checkpoint)
// - closed:      any other checkpoint
// The states are exclusive, so they add up to `total`. An auto-closed session
// stays auto-closed even when resumed: that nobody reviewed it matters more.
import type { Baton } from '../core/baton';
import type { Checkpoint } from '../core/model';
import { readResumes, type ResumeRecord } from '../adapters/resumeLog';

export interface SessionCounts {
  open: number;
  resumed: number;
  closed: number;
  autoClosed: number;
  abandoned: number;
  total: number;
}

export interface SessionStats extends SessionCounts {
  /** Per project (worktree scopes rolled up), projects with no session left out. */
  projects: Record<string, SessionCounts>;
}

export const zeroCounts = (): SessionCounts => ({ open: 0, resumed: 0, closed: 0, autoClosed: 0, abandoned: 0, total: 0 });

export type CheckpointState = 'resumed' | 'closed' | 'autoClosed';

/**
 * The state of a checkpointed session, given the times of the resumes on its
 * scope (ascending) and when the next checkpoint superseded it (Infinity when
 * none did): resumed when someone resumed while it was what resume showed. A
 * resume in the same second counts (an agent reading a hand-over the moment it
 * lands).
 */
export function checkpointState(cp: Pick<Checkpoint, 'ts' | 'autoClosed'>, resumes: readonly number[], supersededAt: number): CheckpointState {
  if (cp.autoClosed) return 'autoClosed';
  return resumes.some((t) => t >= cp.ts && t < supersededAt) ? 'resumed' : 'closed';
}

/** Resume times per scope, ascending. */
export function resumesByScope(records: readonly ResumeRecord[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const r of records) out.set(r.project, [...(out.get(r.project) ?? []), r.ts]);
  for (const list of out.values()) list.sort((a, b) => a - b);
  return out;
}

function add(into: SessionCounts, key: keyof Omit<SessionCounts, 'total'>, n = 1): void {
  into[key] += n;
  into.total += n;
}

/**
 * Counts every session in the vault, or in one project (with its worktree
 * scopes). Reads each scope's history from the vault, so it costs a walk of
 * the checkpoints: a report, not something to run on every keystroke.
 */
export async function sessionStats(baton: Baton, resumes: readonly ResumeRecord[], onlyProject?: string): Promise<SessionStats> {
  const byScope = resumesByScope(resumes);
  const stats: SessionStats = { ...zeroCounts(), projects: {} };
  for (const p of await baton.continuity()) {
    if (onlyProject && p.project !== onlyProject) continue;
    const counts = zeroCounts();
    for (const scope of [p.project, ...p.scopes]) {
      const view = await baton.sessions(scope);
      // History is newest first: each checkpoint is superseded by the one before it in the list.
      view.checkpoints.forEach((cp, i) => {
        const next = i > 0 ? view.checkpoints[i - 1].ts : Infinity;
        add(counts, checkpointState(cp, byScope.get(scope) ?? [], next));
      });
      const abandoned = new Set(view.abandoned.map((a) => a.session));
      const open = new Set(view.uncommitted.map((n) => n.session).filter((id) => !abandoned.has(id)));
      add(counts, 'open', open.size);
      add(counts, 'abandoned', abandoned.size);
    }
    if (counts.total === 0) continue;
    stats.projects[p.project] = counts;
    for (const k of ['open', 'resumed', 'closed', 'autoClosed', 'abandoned'] as const) add(stats, k, counts[k]);
  }
  return stats;
}

/** `sessionStats` over the vault's own resume log. */
export function vaultStats(baton: Baton, onlyProject?: string): Promise<SessionStats> {
  return sessionStats(baton, readResumes(baton.vaultRoot), onlyProject);
}

// Resuming a project: reading its hand-over, and counting the pick-up for
// `baton stats`. Every door resumes through here, so none can forget the count.
import type { Baton } from '../core/baton';
import type { ResumeView } from '../core/requests';
import { hasHandover } from '../core/handover';
import { threadOf, type Thread } from '../core/thread';
import { recordResume } from '../adapters/resumeLog';
import type { ClaimCheck } from '../core/evidence';
import { claimChecks } from './evidence';

export interface ResumeBy {
  agent: string;
  /** The door: cli, mcp, hook, vscode. */
  via: string;
  now: number;
  /**
   * Count the resume only when there was something to hand over. A hook
   * resumes at every session start of every project, and a start with
   * nothing to read is not a pick-up.
   */
  onlyWithHandover?: boolean;
  /**
   * Add other projects' dead ends that match the latest task. Only doors that
   * keep the index open ask (the MCP server, the editor): a one-shot process
   * (`baton resume`, a hook at session start) would load the whole index for
   * it, several times what the hand-over itself costs.
   */
  elsewhere?: boolean;
  /** The project's folder here: its working tree is what the latest checkpoint's claims are checked against. */
  folder?: string | null;
}

/** A resume's view with its thread, which every door's hand-over lists (core/handover.ts reads it). */
export interface HandoverView extends ResumeView {
  thread: Thread;
  /** The latest checkpoint's claims, fresh, stale or unbacked, when the door gave the project's folder (app/evidence.ts). */
  evidence?: ClaimCheck[];
}

/**
 * What a hand-over is made of, counted as no pick-up (`baton doctor`, the
 * bench): the latest checkpoint, open notes, abandoned sessions, and the
 * thread of what every checkpoint of the scope ruled out and decided
 * (core/thread.ts), from the one read of its history the latest comes from.
 */
export async function handoverView(baton: Baton, scope: string): Promise<HandoverView> {
  const s = await baton.sessions(scope);
  return {
    project: s.project,
    latest: s.checkpoints[0] ?? null,
    uncommitted: s.uncommitted,
    abandoned: s.abandoned,
    thread: threadOf(s.checkpoints),
    othersWorking: s.othersWorking,
  };
}

/**
 * The hand-over, with the few dead ends of other projects that match its
 * latest task when asked (`by.elsewhere`; the index is asked only when there
 * is a task).
 */
export async function resume(baton: Baton, scope: string, by: ResumeBy): Promise<HandoverView> {
  const found = await handoverView(baton, scope);
  const task = found.latest ? found.latest.task || found.latest.next : '';
  const view: HandoverView = { ...found, elsewhere: by.elsewhere && task.trim() ? await baton.deadEndsElsewhere(task, scope) : [] };
  if (found.latest && by.folder) view.evidence = claimChecks(found.latest, by.folder);
  if (!by.onlyWithHandover || hasHandover(view)) {
    recordResume(baton.vaultRoot, { ts: by.now, project: view.project, agent: by.agent, via: by.via });
  }
  return view;
}

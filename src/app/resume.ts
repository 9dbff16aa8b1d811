// Resuming a project: reading its hand-over, and counting the pick-up for
// `baton stats`. Every door resumes through here, so none can forget the count.
import type { Baton } from '../core/baton';
import type { ResumeView } from '../core/requests';
import { hasHandover } from '../core/handover';
import { recordResume } from '../adapters/resumeLog';

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
}

/**
 * The hand-over, with the few dead ends of other projects that match its
 * latest task when asked (`by.elsewhere`; the index is asked only when there
 * is a task).
 */
export async function resume(baton: Baton, scope: string, by: ResumeBy): Promise<ResumeView> {
  const found = await baton.resume(scope);
  const task = found.latest ? found.latest.task || found.latest.next : '';
  const view: ResumeView = { ...found, elsewhere: by.elsewhere && task.trim() ? await baton.deadEndsElsewhere(task, scope) : [] };
  if (!by.onlyWithHandover || hasHandover(view)) {
    recordResume(baton.vaultRoot, { ts: by.now, project: view.project, agent: by.agent, via: by.via });
  }
  return view;
}

// Committing a checkpoint (or a hand-off, which is a checkpoint addressed to
// someone) as every door does it: with the git state of the folder that is the
// project, and, when an agent wrote it, without the placeholders agents put in
// "didn't work" ("none", "n/a"), which would read as a dead end ruled out.
import type { Baton } from '../core/baton';
import type { CommitRequest, CommitResult } from '../core/requests';
import type { GitState } from '../core/model';
import type { Run } from '../core/runs';
import { emptyGit } from '../core/model';
import { placeholderNotice, splitPlaceholders } from '../core/placeholders';
import { readGitState } from '../adapters/git/gitState';
import { commitsSince } from '../adapters/git/blame';
import { evidenceFor } from './evidence';
import { homeOf } from './projectDir';
import { refreshThread, type ThreadRefresh } from './threadRefresh';

/**
 * The git state a checkpoint records: the folder's, or none when no folder is
 * the project (another repository's state would be a false record). With
 * `enabled: false` (an untrusted workspace) git is not run at all.
 */
export function gitStateOf(folder: string | null | undefined, opts: { enabled?: boolean } = {}): Promise<GitState> {
  return folder ? readGitState(folder, opts) : Promise.resolve(emptyGit());
}

/**
 * How a checkpoint standing in `folder` records the commits its session made
 * (the `commits` key, so blame need not walk history); none without a folder
 * or with git not allowed.
 */
export function commitCoverage(folder: string | null | undefined, opts: { enabled?: boolean } = {}): CommitRequest['coveredCommits'] {
  if (!folder || opts.enabled === false) return undefined;
  return ({ previousCommit, since }) => commitsSince(folder, previousCommit, since);
}

export interface CheckpointRequest extends Omit<CommitRequest, 'git' | 'coveredCommits'> {
  /**
   * The folder that is the project: the checkpoint records its git state and
   * the commits its session made there. None when no folder here is that
   * project (a named scope, an editor window on another project).
   */
  folder?: string | null;
  /** False in an untrusted workspace: git is not run, and the state says unreadable. */
  gitAllowed?: boolean;
  /** Written by an agent through a tool: placeholders in "failed" are dropped and reported. */
  byAgent?: boolean;
  /** Runs the caller made itself (`baton verify --run`), which back its claims like the session's own. */
  runs?: Run[];
}

export interface CheckpointResult extends CommitResult {
  /** The "failed" items left out as placeholders, in the order given (none unless `byAgent`). */
  placeholdersDropped: string[];
  /** The sentence telling the agent so, "" when nothing was dropped. */
  placeholderNotice: string;
  /**
   * The repository's agent-thread/ brought up to date (issue 28): its files
   * rewritten and pulled checkpoints pruned; `error` when that failed (the
   * checkpoint stands); absent when the folder has no shared thread.
   */
  thread?: ThreadRefresh | { error: string };
}

/** The shared thread refreshed after a checkpoint: never a reason for the checkpoint to fail. */
async function refreshedThread(baton: Baton, scope: string, folder: string | null | undefined, gitAllowed: boolean): Promise<CheckpointResult['thread']> {
  // An untrusted workspace's files are not Baton's to write.
  if (!folder || !gitAllowed) return undefined;
  try {
    return (await refreshThread(baton, { folder, scope, home: homeOf(process.env), vault: baton.vaultRoot })) ?? undefined;
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * The commit recipe every door follows (CLI, MCP, hooks, the editor's command
 * and its language-model tools): the folder's git state, the commits covered,
 * and for an agent's write, "failed" without its placeholders.
 */
export async function commitCheckpoint(baton: Baton, req: CheckpointRequest): Promise<CheckpointResult> {
  const { folder, gitAllowed, byAgent, runs, ...rest } = req;
  const git = { enabled: gitAllowed !== false };
  const { kept, dropped } = byAgent ? splitPlaceholders(rest.fields.failed ?? []) : { kept: rest.fields.failed, dropped: [] };
  const stated = byAgent ? { ...rest.fields, failed: kept } : rest.fields;
  // Each Verified item linked to the run it names, and failures not fixed since listed with their status (app/evidence.ts).
  const evidence = await evidenceFor(baton, { scope: rest.scope, agent: rest.agent, fields: stated, folder, gitAllowed, runs });
  const fields = { ...stated, ...(evidence.commands.length ? { commands: evidence.commands } : {}) };
  const extra = { ...evidence.extra, ...rest.extra };
  const r = await baton.commit({ ...rest, fields, extra, git: await gitStateOf(folder, git), coveredCommits: commitCoverage(folder, git) });
  const thread = await refreshedThread(baton, r.checkpoint.project, folder, git.enabled);
  return { ...r, placeholdersDropped: dropped, placeholderNotice: placeholderNotice(kept ?? [], dropped), ...(thread ? { thread } : {}) };
}

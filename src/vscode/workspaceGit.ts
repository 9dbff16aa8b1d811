// Where a checkpoint of a project is committed from in this window, shared by
// the Commit Checkpoint command and Copilot's checkpoint tools, so both hand
// app/commit.ts's recipe what the CLI would for the same folder.
import * as vscode from 'vscode';
import type { GitState } from '../core/model';
import { gitStateOf, type CheckpointRequest } from '../app/commit';
import { gitAllowed } from './config';
import type { ProjectScope } from './projectScope';

export type CommitPlace = Pick<CheckpointRequest, 'folder' | 'gitAllowed'>;

/**
 * The workspace folder that is `scope`, none when that project is not open
 * here (this window's git says nothing about another project); in an
 * untrusted workspace git may not run there: a repository's config can start
 * programs.
 */
export function workspaceCommitPlace(project: ProjectScope, scope: string): CommitPlace {
  const folder = (vscode.workspace.workspaceFolders ?? []).find((f) => project.ofUri(f.uri) === scope);
  return { folder: folder?.uri.fsPath, gitAllowed: gitAllowed() };
}

/** The git state that folder is in now (the Commit Checkpoint prompt suggests a task from its branch). */
export function workspaceGitState(project: ProjectScope, scope: string): Promise<GitState | undefined> {
  const { folder, gitAllowed: enabled } = workspaceCommitPlace(project, scope);
  return folder ? gitStateOf(folder, { enabled }) : Promise.resolve(undefined);
}

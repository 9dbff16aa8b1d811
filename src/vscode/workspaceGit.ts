// The git state a checkpoint of a project records, shared by the Commit
// Checkpoint command and Copilot's checkpoint tools, so both write what the
// CLI would for the same folder.
import * as vscode from 'vscode';
import type { GitState } from '../core/model';
import { commitCoverage, gitStateOf } from '../app/commit';
import type { CommitRequest } from '../core/requests';
import { gitAllowed } from './config';
import type { ProjectScope } from './projectScope';

/**
 * Git state of the workspace folder that is `scope`; none when that project is
 * not open here (this window's git says nothing about another project). In an
 * untrusted workspace git is not run and the state says unreadable: a
 * repository's config can start programs.
 */
export async function workspaceGitState(project: ProjectScope, scope: string): Promise<GitState | undefined> {
  const folder = (vscode.workspace.workspaceFolders ?? []).find((f) => project.ofUri(f.uri) === scope);
  if (!folder) return undefined;
  return gitStateOf(folder.uri.fsPath, { enabled: gitAllowed() });
}

/** How a checkpoint of `scope` records the commits its session made, from the same folder; none where git may not run. */
export function workspaceCoverage(project: ProjectScope, scope: string): CommitRequest['coveredCommits'] {
  const folder = (vscode.workspace.workspaceFolders ?? []).find((f) => project.ofUri(f.uri) === scope);
  return folder ? commitCoverage(folder.uri.fsPath, { enabled: gitAllowed() }) : undefined;
}

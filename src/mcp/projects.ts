// The projects the vault knows, for the prompts and resources: each project
// and its worktree scopes, from the app layer's continuity (the index).
import type { Baton } from '../core/baton';
import type { ProjectContinuity } from '../core/model';
import { ident } from '../core/quoted';
import { refused } from '../core/errors';
import { safeScope } from '../core/names';

/** Every scope with a record: each project, then its worktrees. */
export const scopesOf = (projects: readonly ProjectContinuity[]): string[] => projects.flatMap((p) => [p.project, ...p.scopes]);

/**
 * The safe scope of a name the caller gave, when the vault has a record of it
 * (a checkpoint or a working note); else a refusal naming the projects it has.
 */
export async function knownScope(baton: Baton, name: string): Promise<string> {
  const scope = safeScope(name);
  const scopes = scopesOf(await baton.continuity());
  if (scopes.includes(scope)) return scope;
  const known = scopes.length ? `Projects in the vault: ${scopes.map(ident).join(', ')}.` : 'The vault has no projects yet.';
  throw refused(`No project ${ident(scope)} in the Baton vault (no checkpoint or working note). ${known}`);
}

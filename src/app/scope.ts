// Which scope (`project` or `project/worktree`) a door acts on. Every door has
// the same two sources, asked in the same order: a name it was given (an
// argument, else BATON_PROJECT), else the project of a folder it knows (the
// CLI's working folder, an MCP client's root, a hook's session folder, the
// editor's workspace folder).
import { safeScope } from '../core/names';
import { scopeOf } from '../adapters/git/projectName';

/**
 * The safe scope of a folder by the contract's marker / main-worktree /
 * folder-name rule, or null for the home folder and `/` (which would gather
 * every stray session of a machine into one project). Throws, as `safeScope`
 * does, for a folder whose name has nothing usable in it.
 */
export function scopeOfFolder(dir: string): string | null {
  const raw = scopeOf(dir);
  return raw === null ? null : safeScope(raw);
}

export interface ScopeSources {
  /** The door's own argument or flag; blank counts as not given. */
  given?: string;
  /** BATON_PROJECT is read from here. */
  env: NodeJS.ProcessEnv;
  /** Folders to take the project from, best first. */
  folders: readonly (string | null | undefined)[];
}

export interface ResolvedScope {
  scope: string;
  /**
   * The folder that is this scope, when one of `folders` is: a checkpoint reads
   * its git state there, never from another repository's folder.
   */
  folder: string | null;
}

/** The given name (else BATON_PROJECT), else the first folder that has a project; null when neither says. */
export function resolveScope(from: ScopeSources): ResolvedScope | null {
  const folders = from.folders.filter((f): f is string => !!f);
  const given = from.given?.trim() || from.env.BATON_PROJECT?.trim();
  if (given) {
    const scope = safeScope(given);
    return { scope, folder: folders.find((f) => sameScope(f, scope)) ?? null };
  }
  for (const folder of folders) {
    const scope = scopeOfFolder(folder);
    if (scope) return { scope, folder };
  }
  return null;
}

/** A folder whose name cannot be a scope is simply not this one: the name given still stands. */
function sameScope(folder: string, scope: string): boolean {
  try {
    return scopeOfFolder(folder) === scope;
  } catch {
    return false;
  }
}

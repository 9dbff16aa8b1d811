// What the folder layout of a vault says without reading a markdown file:
// whether there is a vault at all, and which scope a changed file belongs to.
import * as fs from 'fs';
import * as path from 'path';

export type VaultProbe = 'noVault' | 'empty' | 'unreadable' | 'ready';

/**
 * Where the vault stands, for an editor's welcome views. Reads two directory
 * listings, never a file: it runs on every refresh.
 */
export async function probeVault(root: string, sessionsDir: string): Promise<VaultProbe> {
  try {
    const st = await fs.promises.stat(root);
    if (!st.isDirectory()) return 'unreadable';
    await fs.promises.readdir(root);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'noVault' : 'unreadable';
  }
  try {
    const entries = await fs.promises.readdir(sessionsDir, { withFileTypes: true });
    return entries.some((e) => e.isDirectory() && !e.name.startsWith('.')) ? 'ready' : 'empty';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'empty' : 'unreadable';
  }
}

/**
 * The scope a vault file belongs to: `sessions/<project>[/<worktree>]/[plans/]<file>`.
 * Undefined for anything else (a watcher then drops every cache, which is safe).
 */
export function scopeOfVaultFile(sessionsDir: string, file: string): string | undefined {
  const rel = path.relative(sessionsDir, file).split(path.sep);
  if (rel.length < 2 || rel[0] === '..' || rel[0] === '') return undefined;
  const dirs = rel.slice(0, -1);
  if (dirs[dirs.length - 1] === 'plans') dirs.pop();
  return dirs.length >= 1 && dirs.length <= 2 ? dirs.join('/') : undefined;
}

/** Is this absolute path inside the vault (where lenses and hovers would only echo the vault itself)? */
export function insideVault(root: string, file: string): boolean {
  const rel = path.relative(root, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

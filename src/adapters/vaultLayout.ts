// The folder layout of a vault (docs/vault-format.md), spelled here and
// nowhere else outside the vault adapters (eslint.config.mjs holds the other
// adapters, app, core and the doors to that): its folders and file names, the slugs that name its
// files, and what the layout says without reading a markdown file (whether
// there is a vault at all, which scope a changed file belongs to).
import * as fs from 'fs';
import * as path from 'path';

/** Every scope's folder is `sessions/<project>[/<worktree>]`. */
export const SESSIONS_DIR = 'sessions';
/** The cache (index, logs, hook bindings): may be deleted at any time. */
export const DATA_DIR = '.baton';
/**
 * Beside `.baton/`, not in it: what a deletion of the cache must never take
 * from a running writer (its scope lock, a note the vault refused). Idle, it
 * holds nothing but pending notes; it is never a cache.
 */
export const LIVE_DIR = '.baton-live';
/** A scope's working notes. */
export const NOTES_FILE = 'uncommitted.md';
/** A scope's plans, `plans/plan-*.md` in its folder. */
export const PLANS_DIR = 'plans';
/** The folders that are this machine's own: never shared, never in the way of a clone. */
export const LOCAL_DIRS: readonly string[] = [DATA_DIR, LIVE_DIR];
/** The files a new checkpoint creates, relative to the vault root (its name starts with an eight-digit date and a dash). */
export const CHECKPOINT_FILES_GLOB = `${SESSIONS_DIR}/**/[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]-*.md`;

/** The vault's cache folder, `.baton/` (see DATA_DIR). */
export const dataDirOf = (root: string): string => path.join(root, DATA_DIR);
export const scopeDirOf = (root: string, scope: string): string => path.join(root, SESSIONS_DIR, ...scope.split('/'));
export const locksDirOf = (root: string): string => path.join(root, LIVE_DIR, 'locks');
/** Where a note the vault refused waits for `baton index` (older Batons kept them in the cache's `pending/`). */
export const pendingDirOf = (root: string): string => path.join(root, LIVE_DIR, 'pending');
/** Which agent session each running agent CLI process is in, as its hooks saw it (agentHosts.ts): this machine's, never committed. */
export const agentHostsDirOf = (root: string): string => path.join(root, LIVE_DIR, 'agent-hosts');
/** Where hooks say why they failed or wrote nothing. */
export const hookLogOf = (root: string): string => path.join(dataDirOf(root), 'hooks.log');
/** The vault-relative name (no `.md`) of checkpoint `id` of `scope`. */
export const checkpointSlug = (scope: string, id: string): string => `${SESSIONS_DIR}/${scope}/${id}`;
/** The vault-relative name (no `.md`) of `scope`'s working notes. */
export const notesSlug = (scope: string): string => `${SESSIONS_DIR}/${scope}/${NOTES_FILE.slice(0, -3)}`;

/**
 * The scope of a vault-relative path or slug (`sessions/<scope>/[plans/]<file>`,
 * `/`-separated as git and slugs write it); undefined outside the sessions.
 */
export function scopeOfVaultPath(rel: string): string | undefined {
  const parts = rel.split('/');
  if (parts[0] !== SESSIONS_DIR || parts.length < 3) return undefined;
  const dirs = parts.slice(1, -1);
  if (dirs[dirs.length - 1] === PLANS_DIR) dirs.pop();
  return dirs.join('/') || undefined;
}

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
  if (dirs[dirs.length - 1] === PLANS_DIR) dirs.pop();
  return dirs.length >= 1 && dirs.length <= 2 ? dirs.join('/') : undefined;
}

/** Is this absolute path inside the vault (where lenses and hovers would only echo the vault itself)? */
export function insideVault(root: string, file: string): boolean {
  const rel = path.relative(root, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

// The vault's own files a door opens or watches itself, named by the vault's
// layout (adapters/vaultLayout.ts) so no door spells a vault path: the hooks'
// log, the checkpoint files the editor watches to sync after each one, and
// the folder a refused note waits in (which a door names to the person).
import { CHECKPOINT_FILES_GLOB, hookLogOf, pendingDirOf, SESSIONS_DIR } from '../adapters/vaultLayout';

/** Where hooks say why they failed or wrote nothing: in the cache, where a person can look. */
export function hookLogFile(vaultRoot: string): string {
  return hookLogOf(vaultRoot);
}

/** A glob, relative to the vault root, of the files a new checkpoint creates (notes change all the time and are not among them). */
export function checkpointFilesGlob(): string {
  return CHECKPOINT_FILES_GLOB;
}

/** A glob, relative to the vault root, of everything under the sessions folder: a new project's folder among them. */
export function sessionsTreeGlob(): string {
  return `${SESSIONS_DIR}/**`;
}

/** Where a note the vault refused waits until `baton index` can write it. */
export function pendingNotesDir(vaultRoot: string): string {
  return pendingDirOf(vaultRoot);
}

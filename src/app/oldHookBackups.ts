// The copies the old `baton hooks install` kept of each settings file before
// its first change (`<file>.baton-backup`, in the project or the home).
// Nothing reads them now; `baton hooks uninstall` names the ones still there
// so a person can delete them.
import * as fs from 'fs';
import * as path from 'path';

/** The files the old command wrote, relative to the project or the home. */
const OLD_FILES = [path.join('.claude', 'settings.json'), path.join('.codex', 'hooks.json'), path.join('.cursor', 'hooks.json')];

/** The backups still lying under `base`, as absolute paths. */
export function oldHookBackups(base: string): string[] {
  return OLD_FILES.map((f) => `${path.join(base, f)}.baton-backup`).filter((f) => fs.existsSync(f));
}

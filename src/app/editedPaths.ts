// Edited paths from a host's payload made repo-relative, or refused. Paths are
// untrusted text from another program: the vault must never hold an absolute
// path of this machine, nor anything outside the project the session is in.
import * as fs from 'fs';
import * as path from 'path';
import { cleanPath } from '../core/edits';
import { workTreeTop } from '../adapters/git/projectName';

function realpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

/** `abs` relative to `root` with `/` separators, or null when it is not inside it. */
function inside(root: string, abs: string): string | null {
  const rel = path.relative(root, abs);
  if (!rel || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return null;
  return rel.split(path.sep).join('/');
}

/**
 * The roots an edit may be relative to, nearest first: the working tree of the
 * session's folder (its git top), the folder itself, then the host's other
 * workspace roots (Cursor's workspace_roots).
 */
export function projectRoots(cwd: string, roots: readonly string[] = []): string[] {
  const out: string[] = [];
  const add = (r: string | null): void => {
    if (r && path.isAbsolute(r) && !out.includes(path.resolve(r))) out.push(path.resolve(r));
  };
  if (cwd) add(workTreeTop(cwd) ?? cwd);
  add(cwd);
  for (const r of roots) add(workTreeTop(r) ?? r);
  return out;
}

/**
 * One edited path, relative to the first root holding it; null when it is
 * outside every root (an absolute path elsewhere, `../` out of the project),
 * empty, or relative with no folder to resolve it against and leaving its own.
 * A symlinked root (/tmp on macOS) is compared by its real path too.
 */
export function repoRelative(raw: string, cwd: string, roots: readonly string[]): string | null {
  const cleaned = cleanPath(raw);
  if (!cleaned) return null;
  const native = path.sep === '\\' ? cleaned.replace(/\//g, '\\') : cleaned;
  if (!cwd && !path.isAbsolute(native)) {
    const norm = path.posix.normalize(cleaned);
    return norm.startsWith('../') || norm === '..' || norm === '.' ? null : norm.replace(/^\.\//, '');
  }
  const abs = path.resolve(cwd || '/', native);
  for (const root of roots) {
    const rel = inside(root, abs) ?? inside(realpath(root), path.join(realpath(path.dirname(abs)), path.basename(abs)));
    if (rel) return rel;
  }
  return null;
}

// Applies a plan. Each file is replaced atomically (a complete temporary file
// renamed over it, so an agent starting at that moment reads the old file or
// the new one, never half), keeping its mode: a settings file someone made
// private stays private. The person's bytes are saved before Baton's first
// change, and backups a change made stale are dropped.
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { refused } from '../../core/errors';
import type { AgentPlan, FileChange } from './agentPlan';
import { readText } from './agentPlan';

/**
 * Where a write to `file` lands: the file itself, or the file a symlink
 * points to (a dotfiles repository links `settings.json`), so the rename
 * replaces the target and the link stays. A link to nothing is refused: what
 * it was meant to point at is the person's to say.
 */
export function writeTarget(file: string): string {
  let link: fs.Stats;
  try {
    link = fs.lstatSync(file);
  } catch {
    return file;
  }
  if (!link.isSymbolicLink()) return file;
  try {
    return fs.realpathSync(file);
  } catch {
    throw refused(`${file} is a symlink to ${fs.readlinkSync(file)}, which does not exist; Baton changed nothing. Point the link at a file (or remove it) first.`);
  }
}

export function writeAtomic(to: string, text: string, mode?: number): void {
  const file = writeTarget(to);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let keep = mode ?? 0o644;
  if (mode === undefined) {
    try {
      keep = fs.statSync(file).mode & 0o777;
    } catch {
      // a new file
    }
  }
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  try {
    fs.writeFileSync(tmp, text, { mode: keep, flag: 'wx' });
    // writeFileSync's mode is masked by the umask; the file's own mode is what is kept.
    fs.chmodSync(tmp, keep);
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

function applyChange(c: FileChange): void {
  if (c.action === 'unchanged') return;
  // The plan was shown (a dry run, the editor's diff) before it is written: a
  // file the agent or the person changed since is not overwritten with a text
  // computed from its old bytes.
  if (readText(c.path) !== c.before) throw refused(`${c.path} changed since Baton looked at it; nothing more was written. Run connect again.`);
  // A backup is private to the person: 0600, whatever the file's mode.
  if (c.backup) writeAtomic(c.backup.path, c.backup.text, 0o600);
  // A link goes with the file it points to: left alone, it would point at nothing.
  if (c.after === null) for (const f of new Set([writeTarget(c.path), c.path])) fs.rmSync(f, { force: true });
  else writeAtomic(c.path, c.after);
  if (c.dropBackup) fs.rmSync(c.dropBackup, { force: true });
}

/**
 * Writes every changed file of the plan, in order; returns the changes that
 * were made. Stops at the first failure: the files before it are written
 * whole, the rest untouched, and running the plan again finishes it.
 */
export function applyPlan(plan: AgentPlan): FileChange[] {
  const done: FileChange[] = [];
  for (const c of plan.files) {
    applyChange(c);
    if (c.action !== 'unchanged') done.push(c);
  }
  return done;
}

// What connecting or disconnecting an agent would change, computed before
// anything is written: every file as it is and as it would be. `--dry-run`,
// the editor's diff preview and the writer all read the same plan, so what is
// shown is exactly what is written.
import * as crypto from 'crypto';
import * as path from 'path';
import { refused, usage } from '../../core/errors';
import { readForeignUtf8 } from '../foreignFile';
import { batonHomeOf } from '../homeLayout';

export type AgentId = 'claude-code' | 'codex' | 'cursor' | 'gemini' | 'copilot';
export type Scope = 'user' | 'project' | 'local';
export type ConnectAction = 'connect' | 'disconnect';

/**
 * Baton's own name for a hook event, the last word of `baton hook AGENT EVENT`.
 * `post-tool-use` is a tool call (edits, plan approval) and `file-edit` a bare
 * file edit (Cursor's afterFileEdit), since their payloads differ.
 */
export type BatonEvent = 'session-start' | 'pre-compact' | 'post-tool-use' | 'file-edit' | 'stop' | 'session-end';

export interface PlanInput {
  scope: Scope;
  home: string;
  projectDir: string;
  /** Absolute path of the stable launcher (`~/.baton/bin/baton`). Never written into a project-scope file. */
  launcherPath: string;
  /** The vault the agent's MCP server writes to, whatever the agent's own environment says. */
  vault: string;
  /**
   * Claude Code's configuration folder when CLAUDE_CONFIG_DIR names one (the
   * environment Claude Code runs in): its user settings and its .claude.json
   * live there instead of ~/.claude and ~/.claude.json (claudeCodeConfig.ts).
   */
  claudeConfigDir?: string;
}

export interface FileChange {
  path: string;
  /** The bytes on disk now; null when there is no file. */
  before: string | null;
  /** The bytes it would hold; null when it would be removed. */
  after: string | null;
  action: 'created' | 'updated' | 'unchanged' | 'removed';
  /** The person's bytes to keep before the first change, so disconnect can give them back. */
  backup: { path: string; text: string } | null;
  /** A backup that this change makes stale (restored, or no longer the file's past). */
  dropBackup: string | null;
}

export interface AgentPlan {
  agent: AgentId;
  scope: Scope;
  action: ConnectAction;
  files: FileChange[];
  /** What the person must know or do: trusting a hook, installing `baton` for teammates. */
  notes: string[];
  /** Commands to run where a file belongs to the agent itself (Claude Code's `.claude.json`). */
  commands: string[];
}

/**
 * A settings file as it is on disk, null when there is none: a regular file
 * of bounded size in UTF-8, else refused with a message (foreignFile.ts), so
 * a repository's symlink to /dev/zero is never read and no byte is changed by
 * decoding it.
 */
export function readText(file: string): string | null {
  return readForeignUtf8(file);
}

/**
 * Backups live under `~/.baton/backups`, never beside the file: beside a
 * project's `.claude/settings.json` a copy would be one `git add .` away from
 * being committed.
 */
export function backupPath(home: string, file: string): string {
  const hash = crypto.createHash('sha256').update(path.resolve(file)).digest('hex').slice(0, 16);
  return path.join(batonHomeOf(home), 'backups', `${path.basename(file)}.${hash}`);
}

export function change(file: string, before: string | null, after: string | null, extra: Partial<Pick<FileChange, 'backup' | 'dropBackup'>> = {}): FileChange {
  const action: FileChange['action'] = before === after ? 'unchanged' : after === null ? 'removed' : before === null ? 'created' : 'updated';
  return { path: file, before, after, action, backup: action === 'unchanged' ? null : (extra.backup ?? null), dropBackup: extra.dropBackup ?? null };
}

/**
 * How one file is edited: `hasOurs` says whether Baton's entries are in it,
 * `add` and `remove` compute the new text, `same` compares two texts as the
 * agent reads them, `isEmpty` says whether what is left is nothing Baton did
 * not put there itself.
 */
export interface FileFormat {
  hasOurs(text: string): boolean;
  add(text: string | null): string;
  remove(text: string): string;
  same(a: string, b: string): boolean;
  isEmpty(text: string): boolean;
}

/**
 * The change for one file. Connect keeps the person's bytes as a backup the
 * first time (when none of Baton's entries are there yet). Disconnect gives
 * back those exact bytes when the file reads the same as they did, removes a
 * file Baton created once nothing else is in it, and otherwise writes the
 * surgical removal, so the person's later edits stay.
 */
export function planFile(file: string, home: string, action: ConnectAction, format: FileFormat): FileChange {
  const before = readText(file);
  const bak = backupPath(home, file);
  if (action === 'connect') {
    const after = format.add(before);
    const pristine = before !== null && !format.hasOurs(before);
    return change(file, before, after, { backup: pristine ? { path: bak, text: before } : null, dropBackup: before === null ? bak : null });
  }
  if (before === null || !format.hasOurs(before)) return change(file, before, before);
  const removed = format.remove(before);
  const saved = readText(bak);
  if (saved !== null && format.same(saved, removed)) return change(file, before, saved, { dropBackup: bak });
  if (saved === null && format.isEmpty(removed)) return change(file, before, null, { dropBackup: bak });
  return change(file, before, removed, { dropBackup: bak });
}

export function scopeNotHad(agent: AgentId, scope: Scope, has: Scope[]): never {
  throw usage(`${agent} has no ${scope} scope; use ${has.map((s) => `--scope ${s}`).join(' or ')}.`);
}

export function notOurs(file: string, what: string): never {
  throw refused(`${file}: ${what} is not Baton's; Baton changed nothing. Rename or remove it first.`);
}

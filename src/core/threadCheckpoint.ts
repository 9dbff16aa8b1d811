// What `baton thread pull` takes from a checkpoint file an agent without Baton
// committed on its branch (agent-thread/checkpoints/YYYYMMDD-HHMMSS-AGENT.md,
// issue 28): the name must be the vault's own naming, the text a checkpoint
// the stdin parser reads. Anything else is refused with a reason and never
// imported: the file arrived from a branch anyone with push access wrote.
import { isEmptyCheckpoint, parseBody } from './checkpointBody';
import type { CheckpointFields } from './model';
import { maskSecrets } from './secrets';

/** A checkpoint is a few KB; a file far beyond is no hand-over, and is never read whole. */
export const THREAD_CHECKPOINT_MAX_BYTES = 64 * 1024;

/** Baton's own frontmatter key on a pulled checkpoint: where it came from (file, blob, branch, commit). */
export const PULLED_KEY = 'pulled';

export interface PulledMark {
  /** Relative to the repository: `agent-thread/checkpoints/20261202-171500-copilot.md`. */
  file: string;
  /** The git blob id of the file as read, so the working tree's copy is known for pruning. */
  blob: string;
  branch: string;
  commit: string;
}

const NAME = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-([a-z0-9]+(?:-[a-z0-9]+)*)\.md$/;

/** The time (unix seconds, UTC) and agent a file's name gives, or why the name is not a checkpoint's. */
export function threadCheckpointName(name: string): { at: number; agent: string } | { reason: string } {
  const m = NAME.exec(name);
  if (!m) return { reason: 'not named YYYYMMDD-HHMMSS-AGENT.md (UTC time, the agent in lowercase letters, digits and -)' };
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const t = new Date(ms);
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d || h > 23 || mi > 59 || s > 59 || y < 1970) {
    return { reason: `the time in its name (${m.slice(1, 7).join('')}) is no date` };
  }
  return { at: ms / 1000, agent: m[7] };
}

/**
 * The fields of a pulled file's text, secrets masked first, read by the same
 * parser as a checkpoint on stdin; or why it is no checkpoint (no section
 * Baton reads says anything).
 */
export function threadCheckpointFields(text: string): { fields: Partial<CheckpointFields>; masked: number } | { reason: string } {
  if (text.includes('\0')) return { reason: 'binary (holds NUL bytes), not markdown' };
  const masked = maskSecrets(text);
  const fields = parseBody(masked.text);
  if (isEmptyCheckpoint(fields)) return { reason: 'no checkpoint section (## Task, ## State, ## Next, …) says anything' };
  return { fields, masked: masked.count };
}

/** A checkpoint's `pulled` key as written, or null when it is none of Baton's marks. */
export function pulledMark(v: unknown): PulledMark | null {
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  const s = (k: string): string => (typeof o[k] === 'string' ? (o[k] as string) : '');
  return s('file') ? { file: s('file'), blob: s('blob'), branch: s('branch'), commit: s('commit') } : null;
}

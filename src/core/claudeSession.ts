// A checkpoint bound to a Claude Code session: the pre-compact hook records
// the agent's own session id in the frontmatter (`agent_session`; older
// captures also `cwd` and `transcript`, which app/sessionPlace.ts now reads
// from this machine's binding instead). Pure, so what counts as bound and
// which ids may reach a shell are unit-tested without VS Code.
import { refused } from './errors';
import type { Checkpoint } from './model';

export interface ClaudeSession {
  /** The agent's session id, exactly as the vault holds it: not yet validated. */
  id: string;
  /** The folder the session ran in, "" when not recorded. */
  cwd: string;
  /** The session's JSONL transcript, "" when not recorded. */
  transcript: string;
}

// The names Claude Code writes under: the hook's (`claude-code`) and what its
// MCP client may report. Another agent's session id means nothing to
// `claude --resume`, so a Codex checkpoint with `agent_session` is not bound.
const CLAUDE_AGENTS = new Set(['claude-code', 'claude']);

/**
 * Claude Code's session ids are UUIDs. Only ASCII letters, digits, `_` and
 * `-` may go into the shell line, and the first must be a letter or digit: an
 * id such as `--dangerously-skip-permissions` would otherwise be read by
 * `claude` as an option (its `--resume` takes an optional value).
 */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** The Claude Code session a checkpoint is bound to, or undefined when it is bound to none. */
export function claudeSessionOf(cp: Pick<Checkpoint, 'agent' | 'extra'>): ClaudeSession | undefined {
  const id = str(cp.extra.agent_session);
  if (!id || !CLAUDE_AGENTS.has(cp.agent.trim().toLowerCase())) return undefined;
  return { id, cwd: str(cp.extra.cwd), transcript: str(cp.extra.transcript) };
}

/**
 * The line typed into the terminal. The id comes from a shared vault and is
 * run by a shell, so anything but a plain id is refused here rather than
 * quoted: no quoting is right for every shell VS Code may open (bash, zsh,
 * fish, PowerShell, cmd), and a real Claude Code id never needs it.
 */
export function claudeResumeLine(id: string): string {
  if (!SESSION_ID.test(id)) {
    const shown = JSON.stringify(id.length > 60 ? `${id.slice(0, 60)}…` : id);
    throw refused(
      `Baton will not resume Claude Code session ${shown}: a session id may hold only letters, digits, "_" and "-" (starting with a letter or digit), ` +
        'and this one came from the vault and would be run by a shell.',
    );
  }
  return `claude --resume ${id}`;
}

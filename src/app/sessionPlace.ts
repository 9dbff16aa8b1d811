// Where an agent's session ran and where its transcript is: facts of one
// machine, kept in that machine's session binding (`.baton/agent-sessions/`),
// never in the vault a team may share (issue 23: no hook writes a machine's
// absolute path into the vault). Checkpoints written before that named them
// in their frontmatter (`cwd:`, `transcript:`), which still counts.
import { readBinding } from '../adapters/agentSessions';
import type { Checkpoint } from '../core/model';

export interface SessionPlace {
  /** The folder the session ran in, "" when this machine does not know it. */
  cwd: string;
  /** The session's transcript, "" when this machine does not know it. */
  transcript: string;
}

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** This machine's record of a checkpoint's agent session, else what the checkpoint itself names. */
export function sessionPlace(vaultRoot: string, cp: Pick<Checkpoint, 'agent' | 'extra'>): SessionPlace {
  const id = str(cp.extra.agent_session);
  const bound = id ? readBinding(vaultRoot, cp.agent, id) : null;
  return { cwd: bound?.cwd || str(cp.extra.cwd), transcript: bound?.transcript || str(cp.extra.transcript) };
}

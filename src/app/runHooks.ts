// A shell call an agent's host reported (issue 26): recorded as a run of the
// agent's session on this machine (adapters/vault/runLog.ts), with where the
// repository stood. Light like editHooks.ts: no index, no checkpoint format,
// one git process (headState) and one appended line.
import { maskSecrets } from '../core/secrets';
import type { Run } from '../core/runs';
import { headState } from '../adapters/git/headState';
import { appendRun } from '../adapters/vault/runLog';
import type { HookEnv, HookPayload } from './editHooks';
import { hookScope } from './editHooks';

/** Records the payload's shell run in its project; null when it reports none or names no project. */
export async function shellRan(h: HookEnv, p: HookPayload): Promise<Run | null> {
  if (!p.shell) return null;
  const scope = hookScope(h, p);
  if (!scope) return null;
  const where = await headState(p.cwd);
  // Commands carry secrets in environment prefixes and flags: masked before they reach disk, like every note.
  const run: Run = {
    ...p.shell,
    command: maskSecrets(p.shell.command).text,
    ts: h.now(),
    agent: h.agent,
    ...(p.sessionId ? { agentSession: p.sessionId } : {}),
    head: where.head,
    dirty: where.dirty,
  };
  return appendRun(h.vaultRoot, scope, run) ? run : null;
}

// A shell call an agent's host reported (issue 26): recorded as a run of the
// agent's session on this machine (adapters/vault/runLog.ts), with where the
// repository stood. Light like editHooks.ts: no index, no checkpoint format,
// one git process (headState) and one appended line.
import { maskSecrets } from '../core/secrets';
import type { Run, ShellCall } from '../core/runs';
import { headState } from '../adapters/git/headState';
import { codexExits, rolloutSize } from '../adapters/transcripts/codexExits';
import { appendRun } from '../adapters/vault/runLog';
import type { HookEnv, HookPayload } from './editHooks';
import { hookScope } from './editHooks';

/** Records the payload's shell run in its project; null when it reports none or names no project. */
export async function shellRan(h: HookEnv, p: HookPayload): Promise<Run | null> {
  if (!p.shell) return null;
  const scope = hookScope(h, p);
  if (!scope) return null;
  const where = await headState(p.cwd);
  const { call, endIn } = codexEnd(p, p.shell);
  // Commands carry secrets in environment prefixes and flags: masked before they reach disk, like every note.
  const run: Run = {
    ...call,
    command: maskSecrets(call.command).text,
    ts: h.now(),
    agent: h.agent,
    ...(p.sessionId ? { agentSession: p.sessionId } : {}),
    head: where.head,
    dirty: where.dirty,
    ...(endIn ? { endIn } : {}),
  };
  return appendRun(h.vaultRoot, scope, run) ? run : null;
}

/**
 * A Codex call's exit, which its payload does not state, from its rollout
 * (adapters/transcripts/codexExits.ts): 0.169.0 has written the command's
 * end record there when the hook runs, so the tail just read settles it;
 * where it has not (another version, a slow write), the run keeps where to
 * look and the checkpoint reads it there (app/evidence.ts).
 */
function codexEnd(p: HookPayload, call: ShellCall): { call: ShellCall; endIn?: Run['endIn'] } {
  if (call.status !== 'unknown' || p.host !== 'codex' || !p.toolUseId || !p.transcriptPath) return { call };
  const ref = { file: p.transcriptPath, callId: p.toolUseId, at: rolloutSize(p.transcriptPath) };
  const exit = codexExits(ref.file, [ref]).get(ref.callId);
  if (exit === undefined) return { call, endIn: ref };
  return { call: { ...call, status: exit === 0 ? 'passed' : 'failed', exit } };
}

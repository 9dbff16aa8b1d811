// Codex with Baton's hooks in hooks.json that it does not run: Codex runs a
// non-managed hook only once the person trusted its exact definition in the
// CLI's /hooks screen, keeps that trust per hash, and skips a new or changed
// hook without a word in `codex exec` (developers.openai.com/codex/hooks,
// "Review and trust hooks"; measured on 0.169.0: no hook fires until trusted).
// So a connect that wrote the hooks, or a reconnect that changed their
// commands (another vault, a moved launcher), leaves Codex without a
// hand-over, edits or captures until the person trusts them. Codex has no
// command for it outside its terminal UI (`--dangerously-bypass-hook-trust`
// lasts one run): the fix is the /hooks step, so it is a person's.
import type { AgentHealthInput, AgentProblem } from '../agentHealth';
import type { AgentStatus } from '../connect';
import { codexHookTrust } from '../../adapters/agents/codexConfig';

export function codexTrustProblems(i: AgentHealthInput, status: AgentStatus): AgentProblem[] {
  if (i.agent !== 'codex' || status.connected === 'no') return [];
  const verdicts = codexHookTrust(i);
  const events = (t: string): string[] => verdicts.filter((v) => v.trust === t).map((v) => v.event);
  const step = 'open Codex in a terminal, type /hooks, and trust the Baton hooks (Codex asks at start-up too: "Trust all and continue").';
  const problems: AgentProblem[] = [];
  const untrusted = events('untrusted');
  const modified = events('modified');
  if (untrusted.length > 0) {
    problems.push({
      summary: `hooks not trusted in Codex (${untrusted.join(', ')})`,
      text: `Codex has not trusted Baton's ${i.scope}-scope hooks (${untrusted.join(', ')}), so it skips them: no hand-over at session start, no edits or captures recorded. To fix: ${step}`,
      fix: { kind: 'manual' },
    });
  }
  if (modified.length > 0) {
    problems.push({
      summary: `hooks changed since trusted in Codex (${modified.join(', ')})`,
      text: `Baton's ${i.scope}-scope hooks (${modified.join(', ')}) changed since Codex trusted them (connect wrote new commands), so Codex skips them until trusted again. To fix: ${step}`,
      fix: { kind: 'manual' },
    });
  }
  const disabled = events('disabled');
  if (disabled.length > 0) {
    problems.push({
      summary: `hooks turned off in Codex (${disabled.join(', ')})`,
      text: `Baton's ${i.scope}-scope hooks (${disabled.join(', ')}) are turned off in Codex's /hooks screen (enabled = false in ~/.codex/config.toml). To fix: open /hooks in Codex and turn them on.`,
      fix: { kind: 'manual' },
    });
  }
  return problems;
}

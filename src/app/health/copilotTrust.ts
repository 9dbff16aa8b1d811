// Copilot CLI connected at project scope: Baton's hooks are in the folder's
// `.github/hooks`, which Copilot runs only in a folder the person trusted
// (adapters/agents/copilotTrust.ts). Until then Copilot works there without a
// hand-over, edits or captures, and says nothing of it in `copilot -p`.
// Trusting a folder is the person's decision, made in Copilot's own prompt.
// User scope needs no trust: `~/.copilot` hooks run in any folder.
import { copilotFolderTrust } from '../../adapters/agents/copilotTrust';
import type { AgentHealthInput, AgentProblem } from '../agentHealth';
import type { AgentStatus } from '../connect';

export function copilotTrustProblems(i: AgentHealthInput, connected: AgentStatus['connected'], env: NodeJS.ProcessEnv = process.env): AgentProblem[] {
  if (i.agent !== 'copilot' || i.scope !== 'project' || connected === 'no') return [];
  const t = copilotFolderTrust(i.home, i.projectDir, env);
  if (t.trusted) return [];
  return [
    {
      summary: "this folder is not trusted: Copilot CLI skips Baton's project hooks",
      text:
        `Copilot CLI has not been told to trust ${i.projectDir} (trusted_folders in ${t.file}), so it runs none of the folder's .github/hooks: ` +
        `no hand-over at session start, no edits or captures recorded. To fix: start \`copilot\` in ${i.projectDir} and answer "Yes, and remember this folder for future sessions" ` +
        `(or connect at user scope: baton connect copilot).`,
      fix: { kind: 'manual' },
    },
  ];
}

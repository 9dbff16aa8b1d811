// Gemini CLI in a folder it does not trust turns off every MCP server, the
// user's own included ("MCP servers are configured but disabled because this
// folder is untrusted", the 0.61.0 bundle), so Baton's tools are gone there
// while its hooks still run; and `gemini -p` in a folder never decided stops
// with FatalUntrustedWorkspaceError. Connect cannot fix this for the person:
// trusting a folder is their decision, made in Gemini's own trust dialog.
// What decides trust: adapters/agents/geminiSettings.ts.
import { geminiFolderTrust } from '../../adapters/agents/geminiSettings';
import type { AgentHealthInput, AgentProblem } from '../agentHealth';
import type { AgentStatus } from '../connect';

/** The problem of a connected Gemini CLI in a folder it does not trust, or none. */
export function geminiTrustProblems(i: AgentHealthInput, connected: AgentStatus['connected'], env: NodeJS.ProcessEnv = process.env): AgentProblem[] {
  if (i.agent !== 'gemini' || connected === 'no') return [];
  const t = geminiFolderTrust(i.home, i.projectDir, env);
  if (t.trusted === true) return [];
  const step = `start \`gemini\` in ${i.projectDir} and choose "Trust folder" (or add "${i.projectDir}": "TRUST_FOLDER" to ${t.file})`;
  const what =
    t.trusted === false
      ? `Gemini CLI is told not to trust ${i.projectDir} (${t.file})`
      : `Gemini CLI has not been told to trust ${i.projectDir}: it asks when it starts there, and \`gemini -p\` stops`;
  return [
    {
      summary: t.trusted === false ? "this folder is not trusted: Baton's MCP tools are off" : "this folder is not trusted yet: Baton's MCP tools are off",
      text: `${what}; in a folder it does not trust it turns off every MCP server, Baton's included: ${step}.`,
      fix: { kind: 'manual' },
    },
  ];
}

// Who Hand Off… offers to hand over to. Each agent once, under the name its
// hooks and MCP server write as (`claude-code`, never also `claude`): a name
// in the vault is folded into its agent by the rule the Agents view and
// doctor use for "last seen" (agentHealth.ts writesAs: `claude`, an MCP
// client's `codex-mcp-client`). The agents seen in this vault come first,
// newest first, marked with when; then the common ones not seen yet.
import { writesAs } from './agentHealth';
import { AGENT_IDS } from './connect';

export interface HandoffChoice {
  name: string;
  /** When it last wrote to this vault (Unix seconds; 0 when its files carry no time); absent when never. */
  lastSeen?: number;
}

/** Agents people hand off to that Baton connects, and one it does not. */
const COMMON: readonly string[] = [...AGENT_IDS, 'aider'];

/** The agent a name in the vault is written by: one Baton connects, else the name itself. */
export function canonicalAgent(name: string): string {
  return AGENT_IDS.find((id) => writesAs(id, name)) ?? name;
}

/**
 * The choices for Hand Off…, given the index's per-name stamps
 * (`lastByAgent`) and who is handing off (left out, under any of its names).
 */
export function handoffChoices(seen: readonly { agent: string; ts: number }[], self: string): HandoffChoice[] {
  const me = canonicalAgent(self);
  const last = new Map<string, number>();
  for (const s of seen) {
    const name = canonicalAgent(s.agent);
    if (!name || name === me) continue;
    last.set(name, Math.max(last.get(name) ?? 0, s.ts));
  }
  const seenFirst = [...last].sort(([a, ta], [b, tb]) => tb - ta || a.localeCompare(b)).map(([name, lastSeen]): HandoffChoice => ({ name, lastSeen }));
  return [...seenFirst, ...COMMON.filter((n) => n !== me && !last.has(n)).map((name) => ({ name }))];
}

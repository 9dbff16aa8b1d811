// Which module plans which agent: the one table every door (CLI, VS Code,
// doctor) reads, so an agent is added in one place.
import type { AgentId, AgentPlan, ConnectAction, PlanInput, Scope } from './agentPlan';
import { planClaudeCode } from './claudeCodeConfig';
import { planCodex } from './codexConfig';
import { planCursor } from './cursorConfig';

export interface AgentConfig {
  label: string;
  scopes: Scope[];
  plan(action: ConnectAction, input: PlanInput): AgentPlan;
}

export const AGENT_CONFIGS: Partial<Record<AgentId, AgentConfig>> = {
  'claude-code': { label: 'Claude Code', scopes: ['user', 'project', 'local'], plan: planClaudeCode },
  codex: { label: 'Codex CLI', scopes: ['user', 'project'], plan: planCodex },
  cursor: { label: 'Cursor', scopes: ['user', 'project'], plan: planCursor },
};

export function planAgent(agent: AgentId, action: ConnectAction, input: PlanInput): AgentPlan {
  const config = AGENT_CONFIGS[agent];
  if (!config) throw new Error(`No configuration module for ${agent}`);
  return config.plan(action, input);
}

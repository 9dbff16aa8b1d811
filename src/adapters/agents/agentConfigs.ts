// Which module plans which agent: the one table every door (CLI, VS Code,
// doctor) reads, so an agent is added in one place.
import type { AgentId, AgentPlan, ConnectAction, PlanInput, Scope } from './agentPlan';
import { planClaudeCode } from './claudeCodeConfig';
import { planCodex } from './codexConfig';
import { planCopilot } from './copilotConfig';
import { planCursor } from './cursorConfig';
import { planGemini } from './geminiConfig';

export interface AgentConfig {
  label: string;
  scopes: Scope[];
  plan(action: ConnectAction, input: PlanInput): AgentPlan;
}

export const AGENT_CONFIGS: Record<AgentId, AgentConfig> = {
  'claude-code': { label: 'Claude Code', scopes: ['user', 'project', 'local'], plan: planClaudeCode },
  codex: { label: 'Codex CLI', scopes: ['user', 'project'], plan: planCodex },
  cursor: { label: 'Cursor', scopes: ['user', 'project'], plan: planCursor },
  gemini: { label: 'Gemini CLI', scopes: ['user', 'project'], plan: planGemini },
  copilot: { label: 'GitHub Copilot (CLI)', scopes: ['user', 'project'], plan: planCopilot },
};

export function planAgent(agent: AgentId, action: ConnectAction, input: PlanInput): AgentPlan {
  return AGENT_CONFIGS[agent].plan(action, input);
}

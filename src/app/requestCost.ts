// What Baton costs the requests of the agents connected here, for `baton
// doctor`: the MCP server the agents' configs start (the launcher's runtime
// and script, else this CLI), asked for its instructions and tools, and the
// session-start hand-over of the project doctor runs in, as the hook prints it.
// Counted as the bench counts them (core/requestBudget.ts).
import type { AgentId } from './connect';
import { openBaton } from './openBaton';
import { resolveScope } from './scope';
import { startText } from './agentHooks';
import { handoverView } from './resume';
import { hasHandover } from '../core/handover';
import { START_BUDGET_TOKENS, TOOL_BUDGET_TOKENS, tokensOf, toolChars } from '../core/requestBudget';
import { probeMcpServer } from '../adapters/mcpProbe';

export interface RequestCost {
  /** The agents connected (in any scope) whose requests carry these. */
  agents: AgentId[];
  tools: { count: number; chars: number; tokens: number; budget: number } | { error: string };
  /** The session start of the folder's project; null outside a project. */
  handover: { project: string; chars: number; tokens: number; budget: number } | null;
}

export interface RequestCostInput {
  vault: string;
  cwd: string;
  agents: AgentId[];
  /** The program and script the configs' launcher runs; null to use this process's. */
  server: { runtime: string; script: string } | null;
  now: number;
}

export async function requestCost(o: RequestCostInput): Promise<RequestCost> {
  const runtime = o.server?.runtime ?? process.execPath;
  const script = o.server?.script ?? process.argv[1] ?? '';
  let tools: RequestCost['tools'];
  try {
    const probed = await probeMcpServer(runtime, [script, 'mcp'], { ...process.env, BATON_VAULT: o.vault, BATON_AGENT: '', BATON_PROJECT: '' });
    const chars = probed.tools.reduce((n, t) => n + toolChars(t), probed.instructions.length);
    tools = { count: probed.tools.length, chars, tokens: tokensOf(chars), budget: TOOL_BUDGET_TOKENS };
  } catch (err) {
    tools = { error: err instanceof Error ? err.message : String(err) };
  }
  const scope = resolveScope({ env: {}, folders: [o.cwd] })?.scope ?? null;
  let handover: RequestCost['handover'] = null;
  if (scope) {
    const view = await handoverView(openBaton(o.vault), scope);
    const chars = hasHandover(view) ? startText(scope, view, o.now).length : 0;
    handover = { project: scope, chars, tokens: tokensOf(chars), budget: START_BUDGET_TOKENS };
  }
  return { agents: o.agents, tools, handover };
}

// The Agents view's plain nodes (no TreeItem: agentItems.ts makes those), and
// which children an agent has.
import type { AgentFix, AgentHealth } from '../../app/agentHealth';
import type { AgentId, Scope } from '../../app/connect';

export interface AgentNode {
  kind: 'agent';
  agent: AgentId;
  label: string;
  /** Its folder is in the home folder: installed here (or it was). */
  present: boolean;
  /** One per scope that can be written here (project and local only with a workspace folder). */
  scopes: AgentHealth[];
  lastSeen: string | null;
}

/** One of an agent's files in a scope where Baton's entries are, fully or partly. */
export interface AgentFileNode {
  kind: 'agentFile';
  agent: AgentId;
  scope: Scope;
  path: string;
  state: AgentHealth['files'][number]['state'];
}

/** A problem and its fix. `agent` and `scope` are what Connect reads from the node it is run on, so its picks are skipped. */
export interface AgentProblemNode {
  kind: 'agentProblem';
  agent: AgentId;
  scope: Scope;
  summary: string;
  text: string;
  fix: AgentFix;
}

export type AgentsNode = AgentNode | AgentFileNode | AgentProblemNode;

export const isConnected = (n: AgentNode): boolean => n.scopes.some((s) => s.connected !== 'no');

/** Every problem with its fix first, then the files of the scopes Baton is in (each opens). */
export function childrenOf(n: AgentNode): AgentsNode[] {
  const files: AgentFileNode[] = n.scopes
    .filter((s) => s.connected !== 'no')
    .flatMap((s) => s.files.map((f) => ({ kind: 'agentFile' as const, agent: n.agent, scope: s.scope, path: f.path, state: f.state })));
  const problems: AgentProblemNode[] = n.scopes.flatMap((s) =>
    s.problems.map((p) => ({ kind: 'agentProblem' as const, agent: n.agent, scope: s.scope, summary: p.summary, text: p.text, fix: p.fix })),
  );
  return [...problems, ...files];
}

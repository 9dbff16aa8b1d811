// Whether an agent is connected, for `baton doctor` and the Agents view,
// read from the same plans connect and disconnect make: a file is connected
// when connecting would change nothing in it, has nothing of Baton's when
// disconnecting would change nothing, and is outdated otherwise (Baton's
// entries are there, but not the current ones: another launcher, an older
// set of events). So doctor can never disagree with what connect would do.
import * as fs from 'fs';
import * as path from 'path';
import { BatonError } from '../../core/errors';
import { AGENT_CONFIGS, planAgent } from './agentConfigs';
import type { AgentId, PlanInput } from './agentPlan';

export type FileState = 'connected' | 'absent' | 'outdated';

export interface AgentStatus {
  agent: AgentId;
  scope: PlanInput['scope'];
  /** `partly` when some of the agent's files are connected and others not. */
  connected: 'yes' | 'no' | 'partly';
  files: { path: string; state: FileState }[];
  /** What stops connect, with the fix (a file that is not JSON, a server named baton that is not Baton's). */
  problems: string[];
  /** Commands connect would print (Claude Code's .claude.json): their effect cannot be read from a file here. */
  commands: string[];
}

export function agentStatus(agent: AgentId, input: PlanInput): AgentStatus {
  const base = { agent, scope: input.scope };
  let connect;
  let disconnect;
  try {
    connect = planAgent(agent, 'connect', input);
    disconnect = planAgent(agent, 'disconnect', input);
  } catch (err) {
    if (!(err instanceof BatonError)) throw err;
    return { ...base, connected: 'no', files: [], problems: [err.message], commands: [] };
  }
  const files = connect.files.map((c, i) => {
    const state: FileState = c.action === 'unchanged' ? 'connected' : disconnect.files[i].action === 'unchanged' ? 'absent' : 'outdated';
    return { path: c.path, state };
  });
  const n = files.filter((f) => f.state === 'connected').length;
  const connected = n === files.length ? 'yes' : n === 0 && files.every((f) => f.state === 'absent') ? 'no' : 'partly';
  const problems = files
    .filter((f) => f.state === 'outdated')
    .map((f) => `${f.path} has Baton entries that are not the current ones: run baton connect ${agent} --scope ${input.scope}.`);
  return { ...base, connected, files, problems, commands: connect.commands };
}

/** The folders each agent keeps in the home folder: an agent whose folder exists is installed here, or was. */
const HOME_MARKERS: Record<AgentId, string> = {
  'claude-code': '.claude',
  codex: '.codex',
  cursor: '.cursor',
  gemini: '.gemini',
  copilot: '.copilot',
};

/** The agents that look installed on this machine, first, for the Connect quick pick; then the others. */
export function agentsByPresence(home: string, folders: Pick<PlanInput, 'claudeConfigDir'> = {}): { agent: AgentId; label: string; present: boolean }[] {
  const marker = (agent: AgentId): string => (agent === 'claude-code' && folders.claudeConfigDir) || path.join(home, HOME_MARKERS[agent]);
  const all = (Object.keys(AGENT_CONFIGS) as AgentId[]).map((agent) => ({
    agent,
    label: AGENT_CONFIGS[agent].label,
    present: fs.existsSync(marker(agent)),
  }));
  return [...all.filter((a) => a.present), ...all.filter((a) => !a.present)];
}

// Connecting an agent to Baton, as every door does it (`baton connect`, the
// editor's Connect Agent…, doctor): the plan is computed for the stable
// launcher, never for wherever this process happens to run from, so a config
// keeps working after the extension updates. A door shows the plan (a dry run,
// a diff) and then applies that same plan, so what was shown is what is
// written.
import * as os from 'os';
import { usage } from '../core/errors';
import { AGENT_CONFIGS, planAgent } from '../adapters/agents/agentConfigs';
import type { AgentId, AgentPlan, ConnectAction, FileChange, Scope } from '../adapters/agents/agentPlan';
import { agentStatus, agentsByPresence, type AgentStatus } from '../adapters/agents/agentStatus';
import { applyPlan } from '../adapters/agents/configWriter';
import { currentRuntime, launcherPath, readLauncher, writeLauncher, type LauncherInfo, type LauncherTarget, type LauncherWrite } from '../adapters/launcher';

export type { AgentId, AgentPlan, AgentStatus, ConnectAction, FileChange, LauncherInfo, LauncherTarget, Scope };

export const AGENT_IDS = Object.keys(AGENT_CONFIGS) as AgentId[];
const SCOPES: Scope[] = ['user', 'project', 'local'];

export interface ConnectTarget {
  agent: AgentId;
  scope: Scope;
  /** The project a `project`/`local` scope writes into (its repository root or folder). */
  projectDir: string;
  /** The vault the agent's hooks and MCP server write to, whatever the agent's own environment says. */
  vault: string;
  /** The home folder the user-scope files and the launcher live in (tests pass a temporary one). */
  home?: string;
}

/** The agent a person typed, or a usage error listing the ones Baton knows. */
export function agentId(name: string | undefined): AgentId {
  const n = (name ?? '').trim().toLowerCase();
  const aliases: Record<string, AgentId> = { claude: 'claude-code', 'gemini-cli': 'gemini', 'codex-cli': 'codex', 'copilot-cli': 'copilot' };
  const id = (AGENT_IDS as string[]).includes(n) ? (n as AgentId) : aliases[n];
  if (!id) throw usage(`${name ? `Unknown agent "${name}"` : 'Which agent?'}: one of ${AGENT_IDS.join(', ')}.`);
  return id;
}

export function scopeOf(name: string | undefined, agent: AgentId): Scope {
  const scope = (name ?? 'user').trim().toLowerCase() as Scope;
  if (!SCOPES.includes(scope)) throw usage(`--scope is user, project or local, not "${name}".`);
  const has = AGENT_CONFIGS[agent].scopes;
  if (!has.includes(scope)) throw usage(`${AGENT_CONFIGS[agent].label} has no ${scope} scope; use ${has.map((s) => `--scope ${s}`).join(' or ')}.`);
  return scope;
}

export const agentLabel = (agent: AgentId): string => AGENT_CONFIGS[agent].label;

function input(t: ConnectTarget) {
  const home = t.home ?? os.homedir();
  return { scope: t.scope, home, projectDir: t.projectDir, launcherPath: launcherPath(home), vault: t.vault };
}

/** What connecting (or disconnecting) would change, file by file; writes nothing. */
export function planConnection(action: ConnectAction, t: ConnectTarget): AgentPlan {
  return planAgent(t.agent, action, input(t));
}

/**
 * Writes a plan made by planConnection. A file changed since the plan was
 * made is refused (the person saw a diff of the old bytes); the files before
 * it are written whole and running connect again finishes the rest.
 */
export function applyConnection(plan: AgentPlan): FileChange[] {
  return applyPlan(plan);
}

export function connectionStatus(t: ConnectTarget): AgentStatus {
  return agentStatus(t.agent, input(t));
}

/** The agents that look installed here first (their folder in the home folder), then the rest. */
export function agentsToOffer(home: string = os.homedir()): { agent: AgentId; label: string; present: boolean }[] {
  return agentsByPresence(home);
}

/**
 * Points the stable launcher (`~/.baton/bin/baton`) at a runtime and CLI that
 * are really there: the extension passes VS Code's own runtime and its bundled
 * CLI on activation; a CLI run from a clone passes its own Node. Rewrites
 * nothing when it already points there.
 */
export function refreshLauncher(target: LauncherTarget, home: string = os.homedir()): LauncherWrite {
  return writeLauncher(home, target);
}

export function launcherInfo(home: string = os.homedir()): LauncherInfo | null {
  return readLauncher(home);
}

export { currentRuntime, launcherPath };

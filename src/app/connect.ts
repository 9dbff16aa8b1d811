// Connecting an agent to Baton, as every door does it (`baton connect`, the
// editor's Connect Agent…, doctor): the plan is computed for the stable
// launcher, never for wherever this process happens to run from, so a config
// keeps working after the extension updates. A door shows the plan (a dry run,
// a diff) and then applies that same plan, so what was shown is what is
// written. Where a file is the agent's own (Claude Code's .claude.json), the
// plan holds the agent's commands that write it, run by the door when the
// agent's CLI is on PATH and otherwise left to the person.
import * as os from 'os';
import * as path from 'path';
import { usage } from '../core/errors';
import { AGENT_CONFIGS, planAgent } from '../adapters/agents/agentConfigs';
import type { AgentId, AgentPlan, ConnectAction, FileChange, PlanInput, Scope } from '../adapters/agents/agentPlan';
import { agentStatus, agentsByPresence, type AgentStatus } from '../adapters/agents/agentStatus';
import { applyPlan } from '../adapters/agents/configWriter';
import { findOnPath, runStep, stepEnv, type AgentStep } from '../adapters/agents/agentCli';
import { claudeJsonFile, claudeMcpSteps } from '../adapters/agents/claudeCodeConfig';
import { currentRuntime, launcherPath, readLauncher, writeLauncher, type LauncherInfo, type LauncherTarget, type LauncherWrite } from '../adapters/launcher';

export type { AgentId, AgentPlan, AgentStatus, AgentStep, ConnectAction, FileChange, LauncherInfo, LauncherTarget, Scope };

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
  /**
   * The environment the agents run in, for the variables that move their
   * folders (CLAUDE_CONFIG_DIR). This process's when no home is given either:
   * a home of a test's own is never moved by the tester's environment.
   */
  env?: NodeJS.ProcessEnv;
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

/** The agents' folders an environment moves: Claude Code's CLAUDE_CONFIG_DIR, when it is an absolute path as Claude Code requires. */
export function agentFolders(env: NodeJS.ProcessEnv): Pick<PlanInput, 'claudeConfigDir'> {
  // 2.1.328 refuses a relative one: "the configuration home (CLAUDE_CONFIG_DIR) is not an absolute path".
  const dir = env.CLAUDE_CONFIG_DIR?.trim();
  return dir && path.isAbsolute(dir) ? { claudeConfigDir: path.resolve(dir) } : {};
}

/** Where Claude Code keeps its user- and local-scope MCP servers, for this home and environment. */
export const claudeServersFile = (home: string, env: NodeJS.ProcessEnv): string => claudeJsonFile({ home, ...agentFolders(env) });

function input(t: ConnectTarget): PlanInput {
  const home = t.home ?? os.homedir();
  const env = t.env ?? (t.home === undefined ? process.env : {});
  return { scope: t.scope, home, projectDir: t.projectDir, launcherPath: launcherPath(home), vault: t.vault, ...agentFolders(env) };
}

/** The agents with a file only their own CLI writes, and the commands for it. */
const AGENT_STEPS: Partial<Record<AgentId, typeof claudeMcpSteps>> = { 'claude-code': claudeMcpSteps };

export interface ConnectionPlan extends AgentPlan {
  /** The agent's own commands, in order: `commands` is their text. */
  steps: AgentStep[];
  /** The home folder the plan was made for: the agent's commands run with it as HOME. */
  home: string;
}

/** What connecting (or disconnecting) would change, file by file and command by command; writes and runs nothing. */
export function planConnection(action: ConnectAction, t: ConnectTarget): ConnectionPlan {
  const i = input(t);
  const plan = planAgent(t.agent, action, i);
  return { ...plan, steps: AGENT_STEPS[t.agent]?.(action, i) ?? [], home: i.home };
}

/** The agent's CLI that would run a plan's steps (absolute), or null when it is not on this PATH or there are none. */
export function stepRunner(plan: ConnectionPlan, pathEnv: string = process.env.PATH ?? ''): string | null {
  return plan.steps.length ? findOnPath(plan.steps[0].program, pathEnv) : null;
}

export interface StepsOutcome {
  /** The commands that ran and succeeded. */
  ran: string[];
  /** The commands left for the person: all of them without the CLI, the failed one and those after it otherwise. */
  left: string[];
  /** Why a command failed, in the agent's own words. */
  failures: string[];
}

/**
 * Runs a plan's agent commands in order, after its files are written, and
 * stops at the first that fails: the next one (an add after a remove) would
 * act on a state the plan did not expect.
 */
export async function runConnectionSteps(plan: ConnectionPlan, env: NodeJS.ProcessEnv = process.env): Promise<StepsOutcome> {
  const out: StepsOutcome = { ran: [], left: [], failures: [] };
  const bin = stepRunner(plan, env.PATH ?? '');
  if (!bin) return { ...out, left: plan.steps.map((s) => s.text) };
  for (const [n, step] of plan.steps.entries()) {
    const r = await runStep(bin, step, stepEnv(env, plan.home, step));
    if (r.ok) {
      out.ran.push(step.text);
      continue;
    }
    out.failures.push(`\`${step.program} ${step.argv.slice(0, 2).join(' ')}\` failed${r.output ? `: ${r.output}` : ''}`);
    out.left.push(...plan.steps.slice(n).map((s) => s.text));
    break;
  }
  return out;
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
export function agentsToOffer(home: string = os.homedir(), env: NodeJS.ProcessEnv = process.env): { agent: AgentId; label: string; present: boolean }[] {
  return agentsByPresence(home, agentFolders(env));
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

/** The launcher's target for a bundled CLI script, run by the runtime this process runs on. */
export function launcherFor(script: string): LauncherTarget {
  return { ...currentRuntime(), script };
}

// `baton doctor`: is everything an agent needs to reach Baton in place? The
// vault (there or creatable, readable, writable, its index opening), the
// stable launcher, and each agent's connection per scope, read from the same
// plans connect makes (app/connect.ts), so doctor never disagrees with what
// connect would do. Healthy means nothing needs fixing: an agent that simply
// is not connected is fine (it may not be installed here); a connected agent
// whose files are outdated, half there, or that calls a broken launcher is not.
import * as os from 'os';
import * as path from 'path';
import { SqlIndex } from '../adapters/index/sqlIndex';
import { FsVault } from '../adapters/vault/fsVault';
import { deadLocks } from '../adapters/vault/scopeLock';
import { vaultAccess } from '../adapters/vault/vaultAccess';
import { AGENT_IDS, connectionStatus, type AgentId, type AgentStatus, type Scope } from './connect';
import { AGENT_CONFIGS } from '../adapters/agents/agentConfigs';
import { claudeMcpRegistered } from '../adapters/agents/claudeJson';
import { checkLauncher } from './launcherCheck';
import { projectRoot } from './projectDir';

export interface DoctorVault {
  path: string;
  ok: boolean;
  exists: boolean;
  readable: boolean;
  writable: boolean;
  /** `ok`, `none` (no vault yet), or why it would not open. */
  index: string;
  /** Locks whose holder is dead. Not a problem: the next writer of that scope breaks them at once. */
  staleLocks: string[];
  problems: string[];
}

export interface DoctorLauncher {
  path: string;
  ok: boolean;
  present: boolean;
  runtime: string | null;
  script: string | null;
  runtimeExists: boolean;
  scriptExists: boolean;
}

export interface DoctorAgent {
  agent: AgentId;
  scope: Scope;
  connected: AgentStatus['connected'];
  files: AgentStatus['files'];
  /** When a note or checkpoint by this agent was last written to the vault (ISO 8601), null when never. */
  lastSeen: string | null;
  problems: string[];
}

export interface DoctorReport {
  ok: boolean;
  vault: DoctorVault;
  launcher: DoctorLauncher;
  agents: DoctorAgent[];
}

/**
 * The names an agent writes as: its id, and what its MCP client calls itself
 * (`claude-code`, `cursor-vscode`, `gemini-cli-mcp-client`, `codex-mcp-client`),
 * matched as a name or a name followed by `-…`.
 */
const NAMES: Record<AgentId, string[]> = {
  'claude-code': ['claude-code', 'claude'],
  codex: ['codex'],
  cursor: ['cursor'],
  gemini: ['gemini'],
  copilot: ['copilot', 'github-copilot'],
};

export function writesAs(agent: AgentId, name: string): boolean {
  const n = name.toLowerCase();
  return NAMES[agent].some((a) => n === a || n.startsWith(`${a}-`));
}

async function lastByAgent(vault: string): Promise<{ rows: { agent: string; ts: number }[]; error: string | null }> {
  try {
    const index = await SqlIndex.open(new FsVault(vault));
    try {
      await index.refresh();
      return { rows: index.lastByAgent(), error: null };
    } finally {
      // Not saved: doctor looks, it does not leave a cache behind.
      index.close();
    }
  } catch (err) {
    return { rows: [], error: (err as Error).message };
  }
}

async function checkVault(vault: string): Promise<{ report: DoctorVault; seen: { agent: string; ts: number }[] }> {
  const access = vaultAccess(vault);
  const problems = [...access.problems];
  let index = 'none';
  let seen: { agent: string; ts: number }[] = [];
  if (access.exists && access.readable) {
    const r = await lastByAgent(vault);
    seen = r.rows;
    index = r.error === null ? 'ok' : r.error;
    if (r.error !== null) problems.push(`The vault's index would not open (${r.error}): run baton --vault "${vault}" index.`);
  }
  const staleLocks = access.exists ? await deadLocks(path.join(vault, '.baton-live', 'locks')) : [];
  return { report: { path: vault, ok: problems.length === 0, exists: access.exists, readable: access.readable, writable: access.writable, index, staleLocks, problems }, seen };
}

export interface DoctorRequest {
  vault: string;
  /** The folder doctor runs in: its repository root is the project whose project-scope files are checked. */
  cwd: string;
  home?: string;
}

export async function doctor(req: DoctorRequest): Promise<DoctorReport> {
  const home = req.home ?? os.homedir();
  const { report: vault, seen } = await checkVault(req.vault);
  const check = checkLauncher(null, home);
  const info = check.info;
  const launcher: DoctorLauncher = {
    path: check.path,
    ok: info !== null && info.runtimeExists && info.scriptExists,
    present: check.before !== null,
    runtime: info?.runtime ?? null,
    script: info?.script ?? null,
    runtimeExists: info?.runtimeExists ?? false,
    scriptExists: info?.scriptExists ?? false,
  };
  const projectDir = projectRoot(req.cwd);
  // In the home folder or at the root there is no project: only user scope is asked about.
  const inProject = path.resolve(projectDir) !== path.resolve(home) && path.dirname(projectDir) !== projectDir;
  const agents: DoctorAgent[] = [];
  for (const agent of AGENT_IDS) {
    const last = seen.filter((s) => writesAs(agent, s.agent)).reduce((m, s) => Math.max(m, s.ts), 0);
    const lastSeen = last > 0 ? new Date(last * 1000).toISOString() : null;
    for (const scope of AGENT_CONFIGS[agent].scopes.filter((s) => s === 'user' || inProject)) {
      const status = connectionStatus({ agent, scope, projectDir, vault: req.vault, home });
      const fix = `baton connect ${agent}${scope === 'user' ? '' : ` --scope ${scope}`}`;
      const problems = [...status.problems];
      if (status.connected === 'partly' && problems.length === 0) problems.push(`Only some of ${AGENT_CONFIGS[agent].label}'s ${scope}-scope files are connected: run ${fix}.`);
      if (status.connected !== 'no' && scope !== 'project' && !launcher.ok) {
        const what = !launcher.present ? 'is missing' : info === null ? 'is not one Baton wrote' : !info.runtimeExists ? `runs ${info.runtime}, which is gone` : `runs ${info.script}, which is gone`;
        problems.push(`${AGENT_CONFIGS[agent].label} calls the launcher ${launcher.path}, which ${what}: run ${fix} (the built CLI repoints it at its own Node), or open VS Code with Baton.`);
      }
      // Claude Code's user and local MCP servers live in its own ~/.claude.json, which connect leaves to `claude mcp add-json`.
      if (agent === 'claude-code' && scope !== 'project' && status.connected !== 'no' && claudeMcpRegistered(home, scope, projectDir) === false) {
        problems.push(`Baton's MCP server is not in ~/.claude.json (${scope} scope): run ${status.commands[0] ?? `${fix} and the command it prints`}`);
      }
      agents.push({ agent, scope, connected: status.connected, files: status.files, lastSeen, problems });
    }
  }
  return { ok: vault.ok && agents.every((a) => a.problems.length === 0), vault, launcher, agents };
}

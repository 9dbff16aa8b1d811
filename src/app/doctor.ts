// `baton doctor`: is everything an agent needs to reach Baton in place? The
// vault (there or creatable, readable, writable, its index opening), the
// stable launcher, and each agent's connection per scope, read from the same
// plans connect makes (app/connect.ts), so doctor never disagrees with what
// connect would do. Healthy means nothing needs fixing: an agent that simply
// is not connected is fine (it may not be installed here); a connected agent
// whose files are outdated, half there, or that calls a broken launcher is not.
// Each agent is judged by app/agentHealth.ts, which the editor's Agents view
// shows too.
import * as os from 'os';
import * as path from 'path';
import { SqlIndex } from '../adapters/index/sqlIndex';
import { FsVault } from '../adapters/vault/fsVault';
import { deadLocks } from '../adapters/vault/scopeLock';
import { vaultAccess } from '../adapters/vault/vaultAccess';
import { AGENT_IDS, type AgentId, type AgentStatus, type Scope } from './connect';
import { agentHealth, writesAs } from './agentHealth';
import { AGENT_CONFIGS } from '../adapters/agents/agentConfigs';
import { checkLauncher } from './launcherCheck';
import { projectRoot } from './projectDir';
import { requestCost, type RequestCost } from './requestCost';

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
  /** What Baton costs the connected agents' requests (app/requestCost.ts); absent when none is connected. */
  tokens?: RequestCost;
}

export { writesAs };

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
  const staleLocks = access.exists ? await deadLocks(new FsVault(vault).locksDir) : [];
  return { report: { path: vault, ok: problems.length === 0, exists: access.exists, readable: access.readable, writable: access.writable, index, staleLocks, problems }, seen };
}

export interface DoctorRequest {
  vault: string;
  /** The folder doctor runs in: its repository root is the project whose project-scope files are checked. */
  cwd: string;
  home?: string;
  /** The PATH project-scope hooks are run with; this process's by default. */
  pathEnv?: string;
  /** The environment the agents run in (CLAUDE_CONFIG_DIR moves Claude Code's files); this process's by default. */
  env?: NodeJS.ProcessEnv;
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
  const pathEnv = req.pathEnv ?? process.env.PATH ?? '';
  const agents: DoctorAgent[] = AGENT_IDS.flatMap((agent) =>
    AGENT_CONFIGS[agent].scopes
      .filter((s) => s === 'user' || inProject)
      .map((scope) => {
        const h = agentHealth({ agent, scope, projectDir, vault: req.vault, home, launcher: check, seen, pathEnv, env: req.env ?? process.env });
        return { ...h, problems: h.problems.map((p) => p.text) };
      }),
  );
  const connected = [...new Set(agents.filter((a) => a.connected !== 'no').map((a) => a.agent))];
  const server = launcher.ok && info?.runtime && info.script ? { runtime: info.runtime, script: info.script } : null;
  const tokens = connected.length ? await requestCost({ vault: req.vault, cwd: req.cwd, agents: connected, server, now: Math.floor(Date.now() / 1000) }) : undefined;
  return { ok: vault.ok && agents.every((a) => a.problems.length === 0), vault, launcher, agents, ...(tokens ? { tokens } : {}) };
}

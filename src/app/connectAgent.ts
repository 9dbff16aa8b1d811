// `baton connect` / `baton disconnect` as one use case: the launcher made
// runnable first (user and local scope call it by absolute path), then the
// agent's own files, then the agent's own commands for a file only it writes
// (Claude Code's `claude mcp add-json`, run here when `claude` is on PATH, so
// connect is one step), all planned before anything is written so a dry run
// reports exactly what a real run writes and runs.
import type { ConnectAction, FileChange, Scope } from '../adapters/agents/agentPlan';
import type { LauncherTarget } from '../adapters/launcher';
import { agentId, applyConnection, planConnection, runConnectionSteps, scopeOf, stepRunner } from './connect';
import { applyLauncherCheck, checkLauncher } from './launcherCheck';
import { projectRoot } from './projectDir';

export interface ConnectRequest {
  action: ConnectAction;
  /** As typed: an id or an alias (`claude`); unknown names are a usage error. */
  agent: string | undefined;
  /** As typed; user by default. */
  scope: string | undefined;
  vault: string;
  /** The folder the command runs in: its repository root is the project of project and local scope. */
  cwd: string;
  home: string;
  dryRun: boolean;
  /** The runtime and script of the CLI running now, when it runs from its bundle; null otherwise. */
  self: LauncherTarget | null;
  /** The environment the agents run in: its PATH finds their commands, its CLAUDE_CONFIG_DIR moves Claude Code's files; this process's by default. */
  env?: NodeJS.ProcessEnv;
}

export interface FileOutcome {
  path: string;
  action: FileChange['action'];
  before: string | null;
  after: string | null;
}

export interface ConnectOutcome {
  agent: string;
  scope: Scope;
  dryRun: boolean;
  files: FileOutcome[];
  notes: string[];
  /** The agent's commands Baton ran (a dry run: would run), in order. */
  ran: string[];
  /** The agent's commands left for the person: its CLI is not on PATH, or one failed. */
  commands: string[];
  /** A command of the agent's that failed, in its own words: connect did not finish. */
  failures: string[];
}

export async function connectAgent(req: ConnectRequest): Promise<ConnectOutcome> {
  const agent = agentId(req.agent);
  const scope = scopeOf(req.scope, agent);
  const env = req.env ?? process.env;
  const target = { agent, scope, projectDir: projectRoot(req.cwd), vault: req.vault, home: req.home, env };
  // Planned before the launcher is touched: a config Baton cannot edit (not
  // JSON, a server named baton that is someone else's) stops everything.
  const plan = planConnection(req.action, target);
  const files: FileOutcome[] = [];
  const notes: string[] = [];
  // Only a connect that writes the launcher's absolute path needs it to run; disconnect leaves it to other agents.
  if (req.action === 'connect' && scope !== 'project') {
    const check = checkLauncher(req.self, req.home);
    const action: FileChange['action'] = check.verdict !== 'fix' ? 'unchanged' : check.before === null ? 'created' : 'updated';
    files.push({ path: check.path, action, before: check.before, after: check.after ?? check.before });
    notes.push(...check.notes);
    if (!req.dryRun) applyLauncherCheck(check, req.self, req.home);
  }
  let steps = { ran: [] as string[], left: plan.commands, failures: [] as string[] };
  if (!req.dryRun) {
    applyConnection(plan);
    steps = await runConnectionSteps(plan, env);
  } else if (stepRunner(plan, env.PATH ?? '') !== null) steps = { ...steps, ran: plan.commands, left: [] };
  files.push(...plan.files.map((f) => ({ path: f.path, action: f.action, before: f.before, after: f.after })));
  notes.push(...plan.notes);
  return { agent, scope, dryRun: req.dryRun, files, notes, ran: steps.ran, commands: steps.left, failures: steps.failures };
}

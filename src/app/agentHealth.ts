// One agent in one scope: connected or not, where, when it last wrote to the
// vault, and each problem with the kind of fix that clears it. `baton doctor`
// prints it and the editor's Agents view shows it with a button per fix; both
// call this, so the view cannot say "fine" where doctor says "FIX".
//
// The fix is a kind, not a command line: the CLI words it as the command to
// run, the editor as the command it runs for you (a launcher the extension
// repoints at itself, where the CLI repoints it at its own Node).
import * as fs from 'fs';
import * as path from 'path';
import { AGENT_CONFIGS } from '../adapters/agents/agentConfigs';
import { connectionStatus, type AgentId, type AgentStatus, type Scope } from './connect';
import { geminiTrustProblems } from './health/geminiTrust';
import type { LauncherCheck } from './launcherCheck';
import { claudeMcpProblems } from './health/claudeMcp';
import { codexTrustProblems } from './health/codexTrust';
import { copilotTrustProblems } from './health/copilotTrust';

export type AgentFix =
  /** Connect (again) in this scope: Baton's entries outdated or half there (a launcher path that moved), Claude Code's own MCP command. */
  | { kind: 'connect'; agent: AgentId; scope: Scope }
  /** The launcher the user-scope configs call does not run: point it at a runtime and CLI that are there. */
  | { kind: 'launcher' }
  /** Project-scope configs call `baton` on PATH, and there is none here. */
  | { kind: 'path' }
  /** Only a person can: a file Baton cannot parse, a server named baton that is not Baton's. */
  | { kind: 'manual' };

export interface AgentProblem {
  /** A few words for a list (the editor's tree item); `text` is the whole sentence, with the CLI's fix. */
  summary: string;
  text: string;
  fix: AgentFix;
}

export interface AgentHealth {
  agent: AgentId;
  scope: Scope;
  connected: AgentStatus['connected'];
  files: AgentStatus['files'];
  /** When a note or checkpoint by this agent was last written to the vault (ISO 8601), null when never. */
  lastSeen: string | null;
  problems: AgentProblem[];
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

/** The newest stamp (Unix seconds) among the index's per-name stamps that are this agent's, as ISO 8601; null when none. */
export function lastSeenOf(agent: AgentId, seen: readonly { agent: string; ts: number }[]): string | null {
  const last = seen.filter((s) => writesAs(agent, s.agent)).reduce((m, s) => Math.max(m, s.ts), 0);
  return last > 0 ? new Date(last * 1000).toISOString() : null;
}

/** Is there a `baton` a shell with this PATH would run? */
export function batonOnPath(pathEnv: string, platform: NodeJS.Platform = process.platform): boolean {
  const names = platform === 'win32' ? ['baton.cmd', 'baton.exe', 'baton'] : ['baton'];
  return pathEnv
    .split(path.delimiter)
    .filter(Boolean)
    .some((dir) =>
      names.some((n) => {
        try {
          fs.accessSync(path.join(dir, n), fs.constants.X_OK);
          return fs.statSync(path.join(dir, n)).isFile();
        } catch {
          return false;
        }
      }),
    );
}

export interface AgentHealthInput {
  agent: AgentId;
  scope: Scope;
  projectDir: string;
  vault: string;
  home: string;
  /** The launcher as checkLauncher(null, home) found it. */
  launcher: LauncherCheck;
  /** Per agent name, the newest stamp of its notes and checkpoints (the index's lastByAgent). */
  seen: readonly { agent: string; ts: number }[];
  /** The PATH project-scope hooks would be run with (this process's). */
  pathEnv: string;
  /** The environment the agents run in (CLAUDE_CONFIG_DIR, Gemini's and Copilot's folders); this process's when absent. */
  env?: NodeJS.ProcessEnv;
}

export function agentHealth(i: AgentHealthInput): AgentHealth {
  const { agent, scope } = i;
  const label = AGENT_CONFIGS[agent].label;
  const status = connectionStatus({ agent, scope, projectDir: i.projectDir, vault: i.vault, home: i.home, env: i.env ?? process.env });
  const fix = `baton connect ${agent}${scope === 'user' ? '' : ` --scope ${scope}`}`;
  const connect: AgentFix = { kind: 'connect', agent, scope };
  // agentStatus has problems of two kinds: a plan that could not be made (no
  // files: a file Baton will not touch), or one per file whose entries are outdated.
  const outdated = status.files.filter((f) => f.state === 'outdated');
  const problems: AgentProblem[] =
    status.files.length === 0
      ? status.problems.map((text) => ({ summary: text, text, fix: { kind: 'manual' } }))
      : status.problems.map((text, n) => ({
          summary: `${outdated[n] ? path.basename(outdated[n].path) : 'a file'}: Baton's entries are not the current ones`,
          text,
          fix: connect,
        }));
  if (status.connected === 'partly' && problems.length === 0) {
    problems.push({ summary: `only some ${scope}-scope files are connected`, text: `Only some of ${label}'s ${scope}-scope files are connected: run ${fix}.`, fix: connect });
  }
  const l = i.launcher;
  const launcherOk = l.info !== null && l.info.runtimeExists && l.info.scriptExists;
  if (status.connected !== 'no' && scope !== 'project' && !launcherOk) {
    const what =
      l.before === null
        ? 'is missing'
        : l.info === null
          ? 'is not one Baton wrote'
          : !l.info.runtimeExists
            ? `runs ${l.info.runtime}, which is gone`
            : `runs ${l.info.script}, which is gone`;
    problems.push({
      summary: `the launcher ${what}`,
      text: `${label} calls the launcher ${l.path}, which ${what}: run ${fix} (the built CLI repoints it at its own Node), or open VS Code with Baton.`,
      fix: { kind: 'launcher' },
    });
  }
  if (status.connected !== 'no' && scope === 'project' && !batonOnPath(i.pathEnv)) {
    problems.push({
      summary: '`baton` is not on PATH',
      text: `${label}'s project-scope hooks call \`baton\` on PATH, which is not found here: link it (Baton: Install 'baton' Command in PATH in VS Code, or ln -s ${l.path} /usr/local/bin/baton).`,
      fix: { kind: 'path' },
    });
  }
  problems.push(...claudeMcpProblems(i, status));
  problems.push(...codexTrustProblems(i, status));
  problems.push(...geminiTrustProblems(i, status.connected, i.env ?? process.env));
  problems.push(...copilotTrustProblems(i, status.connected, i.env ?? process.env));
  return { agent, scope, connected: status.connected, files: status.files, lastSeen: lastSeenOf(agent, i.seen), problems };
}

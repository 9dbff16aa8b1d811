// Claude Code: Baton's hooks in its settings files and Baton's MCP server.
//
// Facts, from Claude Code's documentation (code.claude.com/docs/en/hooks and
// /mcp, read from the mirror ericbuess/claude-code-docs, docs/hooks.md and
// docs/mcp.md at ec68a5b, 2026-08-22):
// - Hooks live in ~/.claude/settings.json (all projects), .claude/settings.json
//   (committed), .claude/settings.local.json (not committed), shaped
//   {"hooks": {EVENT: [{"matcher"?, "hooks": [{"type": "command", "command", "timeout"}]}]}}
//   (hooks.md, "Hook locations" and "Command hook fields").
// - `timeout` is in seconds; the command default is 600. SessionEnd hooks share
//   a 1.5 s budget, raised to the longest configured per-hook timeout up to 60 s
//   (hooks.md, "Common fields").
// - A matcher of letters, digits, `_`, `-`, `|` is a list of exact names
//   (hooks.md, "Matcher patterns"): "Edit|Write|NotebookEdit|ExitPlanMode"
//   matches those tools and not MultiEdit-like look-alikes.
// - SessionStart plain stdout, or hookSpecificOutput.additionalContext, is added
//   to the context; over 10,000 characters it is saved to a file and replaced by
//   a preview (hooks.md, "Exit code 0" and "JSON output").
// - MCP scopes: local and user live in ~/.claude.json, project in .mcp.json at
//   the project root, {"mcpServers": {name: {command, args, env}}} (mcp.md,
//   "MCP installation scopes"). ~/.claude.json is a file Claude Code "writes for
//   itself; you don't need to edit it": sign-in, per-project trust and the
//   global config live there, and it is rewritten (with rotating backups) by
//   Claude Code (docs/settings.md, "Where settings live"; docs/claude-directory.md).
//   So Baton does not edit it: for user and local scope it runs the supported
//   writer, `claude mcp add-json --scope user|local NAME JSON` (mcp.md, "Add MCP
//   servers from JSON configuration"), when `claude` is on PATH, else prints it;
//   it writes .mcp.json only for project scope. Claude Code 2.1.328 refuses to
//   add a name that is there ("MCP server baton already exists in user config",
//   exit 1) and to remove one that is not (exit 1), so the commands are planned
//   from what ~/.claude.json holds now (claudeJson.ts): none when Baton's entry
//   is the current one, remove then add when it is outdated.
// - Project servers from .mcp.json wait for the person's approval in an
//   interactive session (mcp.md, "Project scope").
// - CLAUDE_CONFIG_DIR moves the configuration folder: "every ~/.claude path"
//   lives under it (docs/claude-directory.md, docs/env-vars.md), the user
//   settings.json included; and 2.1.328's `claude mcp add-json` then writes
//   $CLAUDE_CONFIG_DIR/.claude.json, nothing in the home folder (tried with the
//   agents tier's CLI, user and local scope). So both are read and written
//   there, and `claude mcp` runs with the same CLAUDE_CONFIG_DIR (app/connect.ts).
import * as path from 'path';
import type { AgentPlan, ConnectAction, PlanInput } from './agentPlan';
import type { AgentStep } from './agentCli';
import { notOurs, planFile, scopeNotHad } from './agentPlan';
import { PROJECT_NOTE, isOurServer, nestedHookSet, serverEntry, type HookEventSpec } from './batonCommand';
import { claudeServer, sameServer } from './claudeJson';
import type { HookSet, NamedEntry } from './jsonEdit';
import { hooksFormat, mcpFormat } from './jsonFormats';

/** Claude Code's events, Baton's event and the timeout (seconds) within each one's budget. */
const EVENTS: HookEventSpec[] = [
  { key: 'SessionStart', event: 'session-start', timeout: 30 },
  { key: 'PreCompact', event: 'pre-compact', timeout: 60 },
  // Edits (files for the checkpoint), plan approval and shell runs (evidence for Verified, issue 26); no other tool starts Baton.
  { key: 'PostToolUse', event: 'post-tool-use', matcher: 'Edit|Write|NotebookEdit|ExitPlanMode|Bash', timeout: 10 },
  // A Bash that exits non-zero fails the tool: Claude Code fires this instead of PostToolUse (hooks.md, "PostToolUseFailure").
  { key: 'PostToolUseFailure', event: 'post-tool-use', matcher: 'Bash', timeout: 10 },
  { key: 'Stop', event: 'stop', timeout: 10 },
  // Raises SessionEnd's shared 1.5 s budget to 5 s: enough for one note, short enough not to hold up exit.
  { key: 'SessionEnd', event: 'session-end', timeout: 5 },
];

export function claudeHookSet(input: PlanInput): HookSet {
  return nestedHookSet(input, 'claude-code', EVENTS);
}

/** Claude Code's configuration folder: CLAUDE_CONFIG_DIR, else ~/.claude. */
export const claudeDir = (input: Pick<PlanInput, 'home' | 'claudeConfigDir'>): string => input.claudeConfigDir || path.join(input.home, '.claude');

/** The file Claude Code keeps its user- and local-scope MCP servers in: ~/.claude.json, or .claude.json in CLAUDE_CONFIG_DIR. */
export const claudeJsonFile = (input: Pick<PlanInput, 'home' | 'claudeConfigDir'>): string =>
  input.claudeConfigDir ? path.join(input.claudeConfigDir, '.claude.json') : path.join(input.home, '.claude.json');

export function claudeSettingsPath(input: PlanInput): string {
  if (input.scope === 'user') return path.join(claudeDir(input), 'settings.json');
  return path.join(input.projectDir, '.claude', input.scope === 'project' ? 'settings.json' : 'settings.local.json');
}

/** A word for a POSIX shell, quoted unless it is plain. */
const sh = (s: string): string => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * Baton's MCP server for Claude Code. BATON_AGENT names the agent whatever
 * the MCP client calls itself (Claude Code's is `claude-code` today), so the
 * tools and the hooks write under one name.
 */
export function claudeServerEntry(input: PlanInput): { command: string; args: string[]; env?: Record<string, string> } {
  return serverEntry(input, 'claude-code');
}

/** The `claude mcp` commands that bring Claude Code's .claude.json to what connecting (or disconnecting) means; none for project scope. */
export function claudeMcpSteps(action: ConnectAction, input: PlanInput): AgentStep[] {
  if (input.scope === 'project') return [];
  const scope = input.scope === 'local' ? 'local' : 'user';
  // Local scope keys its servers by the folder the command runs in.
  // The folder planned from is the one `claude` writes: CLAUDE_CONFIG_DIR set to it, or unset.
  const dir = input.claudeConfigDir || null;
  const step = (...argv: string[]): AgentStep => ({
    program: 'claude',
    argv,
    cwd: scope === 'local' ? input.projectDir : input.home,
    env: { CLAUDE_CONFIG_DIR: dir },
    text: `${dir ? `CLAUDE_CONFIG_DIR=${sh(dir)} ` : ''}claude ${argv.map(sh).join(' ')}`,
  });
  const remove = step('mcp', 'remove', '--scope', scope, 'baton');
  const want = claudeServerEntry(input);
  const file = claudeJsonFile(input);
  const now = claudeServer(file, scope, input.projectDir);
  if (now.state === 'other') notOurs(`${file} (${scope} scope)`, 'the MCP server "baton"');
  if (action === 'disconnect') return now.state === 'ours' ? [remove] : [];
  if (now.state === 'ours' && sameServer(now.entry, want)) return [];
  const add = step('mcp', 'add-json', '--scope', scope, 'baton', JSON.stringify(want));
  return now.state === 'ours' ? [remove, add] : [add];
}

export function planClaudeCode(action: ConnectAction, input: PlanInput): AgentPlan {
  if (!['user', 'project', 'local'].includes(input.scope)) scopeNotHad('claude-code', input.scope, ['user', 'project', 'local']);
  const settings = claudeSettingsPath(input);
  const files = [planFile(settings, input.home, action, hooksFormat(claudeHookSet(input), settings))];
  const notes: string[] = [];
  const entry: NamedEntry = { map: ['mcpServers'], name: 'baton', value: claudeServerEntry(input), isOurs: isOurServer };
  if (input.scope === 'project') {
    const mcp = path.join(input.projectDir, '.mcp.json');
    files.push(planFile(mcp, input.home, action, mcpFormat(entry, mcp)));
    if (action === 'connect') {
      notes.push(PROJECT_NOTE);
      notes.push('Claude Code asks each person to approve the "baton" server from .mcp.json the first time it starts in this project.');
    }
  }
  // ~/.claude.json is Claude Code's own file: its supported writer is the CLI, whose commands the door runs (or prints).
  const commands = claudeMcpSteps(action, input).map((s) => s.text);
  if (commands.length)
    notes.push(
      `Claude Code keeps ${input.scope}-scope MCP servers in ${claudeJsonFile(input)}, which it rewrites itself: Baton's MCP server goes in and out through \`claude mcp\`, never by editing that file.`,
    );
  return { agent: 'claude-code', scope: input.scope, action, files, notes, commands };
}

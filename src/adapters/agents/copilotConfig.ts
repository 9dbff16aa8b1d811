// GitHub Copilot's agents: Baton's hooks for Copilot CLI (and the cloud agent
// reading the repository's), and Baton's MCP server for Copilot CLI. VS Code's
// own Copilot gets Baton's MCP server from the extension's provider, so no
// VS Code file is written for it.
//
// Facts, from GitHub's documentation:
// - Hook files: `.github/hooks/*.json` in the repository (Copilot CLI, loaded
//   from the working directory, and the cloud agent, from the default branch)
//   and, for Copilot CLI, `~/.copilot/hooks/*.json` (COPILOT_HOME moves it)
//   (docs.github.com/en/copilot/reference/hooks-reference, "Hooks locations";
//   docs.github.com/en/copilot/concepts/agents/hooks).
// - Shape: {"version": 1, "hooks": {event: [{"type": "command", "bash",
//   "powershell", "cwd"?, "env"?, "timeoutSec"}]}}, `timeoutSec` in seconds,
//   default 30 (docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference).
// - Events used: sessionStart, preCompact, postToolUse, agentStop (the main
//   agent finishing its turn), sessionEnd (cli-hooks-reference, "Hook events";
//   agentStop and preCompact documented in github/docs#43876). The sessionStart
//   payload is {sessionId, timestamp (ms), cwd, source: new|resume|startup,
//   initialPrompt}; GitHub's hooks-configuration page says its output is
//   ignored, but 1.0.102 reads a top-level {"additionalContext"} into the
//   conversation (hooks/hosts.ts sessionStartAnswer; FACTS.md), and that is how
//   Copilot CLI gets the hand-over: it passes no MCP server instructions.
// - MCP for Copilot CLI: ~/.copilot/mcp-config.json, {"mcpServers": {name:
//   {"type": "local", "command", "args", "env", "tools": ["*"]}}}
//   (docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-mcp-servers;
//   the location per github/docs#40683).
// - VS Code's agent runs these files too (`.github/hooks/*.json`, `~/.copilot/hooks`),
//   converting the event names to PascalCase and running `bash` on Linux and
//   macOS, `powershell` on Windows, with its own payloads; it also runs
//   `.claude/settings*.json` (microsoft/vscode-docs docs/agent-customization/hooks.md,
//   "Hook file locations", FAQ). So these hooks are VS Code's own
//   (hooks/hosts.ts OWN_HOOK_OF); `agentStop` and `sessionEnd` are no VS Code events.
import * as path from 'path';
import type { AgentPlan, BatonEvent, ConnectAction, PlanInput } from './agentPlan';
import { planFile, scopeNotHad } from './agentPlan';
import { PROJECT_NOTE, flatHookSet, hookCommand, isOurServer, serverEntry, type HookEventSpec } from './batonCommand';
import { flatHooksFormat, mcpFormat } from './jsonFormats';
import type { HookSet, NamedEntry } from './jsonEdit';

/** Timeouts in seconds (Copilot's `timeoutSec`). */
const EVENTS: HookEventSpec[] = [
  { key: 'sessionStart', event: 'session-start', timeout: 30 },
  { key: 'preCompact', event: 'pre-compact', timeout: 60 },
  { key: 'postToolUse', event: 'post-tool-use', timeout: 10 },
  { key: 'agentStop', event: 'stop', timeout: 10 },
  { key: 'sessionEnd', event: 'session-end', timeout: 5 },
];

export function copilotHookSet(input: PlanInput): HookSet {
  // PowerShell runs a quoted path only after `&`; `baton` on PATH needs nothing. Its single quotes take everything literally.
  const psWord = (w: string): string => (/^[A-Za-z0-9_@%+=:,./\\-]+$/.test(w) ? w : `'${w.replace(/'/g, "''")}'`);
  const ps = (event: BatonEvent): string => {
    const line = hookCommand(input, 'copilot', event, psWord);
    return line.startsWith("'") ? `& ${line}` : line;
  };
  return flatHookSet('bash', EVENTS, (e) => ({ type: 'command', bash: hookCommand(input, 'copilot', e.event), powershell: ps(e.event), timeoutSec: e.timeout }));
}

export function planCopilot(action: ConnectAction, input: PlanInput): AgentPlan {
  if (input.scope === 'local') scopeNotHad('copilot', input.scope, ['user', 'project']);
  const notes: string[] = [];
  const hooks = input.scope === 'user' ? path.join(input.home, '.copilot', 'hooks', 'baton.json') : path.join(input.projectDir, '.github', 'hooks', 'baton.json');
  const files = [planFile(hooks, input.home, action, flatHooksFormat(copilotHookSet(input), hooks))];
  if (input.scope === 'user') {
    const mcp = path.join(input.home, '.copilot', 'mcp-config.json');
    const value = { type: 'local', ...serverEntry(input, 'copilot'), tools: ['*'] };
    const entry: NamedEntry = { map: ['mcpServers'], name: 'baton', value, isOurs: isOurServer };
    files.push(planFile(mcp, input.home, action, mcpFormat(entry, mcp)));
  }
  if (action === 'connect') {
    notes.push("VS Code's Copilot already has Baton's MCP server from the extension; these files are for Copilot CLI.");
    if (input.scope === 'project') {
      notes.push(PROJECT_NOTE);
      notes.push('Copilot CLI reads no project MCP file: each teammate connects Copilot CLI to Baton with `baton connect copilot` in their own scope.');
    }
  }
  return { agent: 'copilot', scope: input.scope, action, files, notes, commands: [] };
}

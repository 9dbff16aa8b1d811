// Gemini CLI: Baton's MCP server and its hooks, both in one settings.json.
//
// Facts, from google-gemini/gemini-cli at 5411f11 (2026-08-21):
// - Settings: ~/.gemini/settings.json (user) and .gemini/settings.json (project)
//   (docs/cli/settings.md). They may hold comments: the CLI reads them through
//   strip-json-comments (packages/cli/src/config/settings.ts), so edits keep them.
// - MCP: a top-level "mcpServers" {name: {command, args, env, cwd, timeout (ms),
//   trust}} (docs/tools/mcp-server.md, "Configure the MCP server in settings.json").
// - Hooks: "hooks" {EVENT: [{matcher?, hooks: [{type: "command", command, name?,
//   timeout}]}]}, `timeout` in milliseconds, default 60000 (docs/hooks/reference.md,
//   "Configuration schema"); on by default (hooksConfig.enabled, docs/reference/configuration.md).
// - stdout must be the JSON answer only (docs/hooks/index.md): Baton's hook
//   answers there in Gemini's shape, hookSpecificOutput.additionalContext for
//   SessionStart (docs/hooks/reference.md, "SessionStart").
// - Events: SessionStart (source startup|resume|clear), PreCompress (not
//   "PreCompact"; trigger auto|manual, advisory and asynchronous), AfterTool
//   (tool_name, tool_input, tool_response; the edit tools are write_file and
//   replace: packages/core/src/tools/definitions/base-declarations.ts),
//   AfterAgent (once per turn: Gemini's "stop"), SessionEnd (reason; the CLI
//   does not wait for it) (docs/hooks/reference.md).
// - Project hooks are fingerprinted: a changed command is a new, untrusted hook
//   the person is warned about (docs/hooks/index.md, "Security and risks").
import * as path from 'path';
import type { AgentPlan, ConnectAction, FileFormat, PlanInput } from './agentPlan';
import { planFile, scopeNotHad } from './agentPlan';
import { PROJECT_NOTE, isOurServer, nestedHookSet, serverEntry, type HookEventSpec } from './batonCommand';
import { hooksFormat, mcpFormat } from './jsonFormats';
import type { HookSet, NamedEntry } from './jsonEdit';
import { emptyBut, sameJson } from './jsonEdit';

const EVENTS: HookEventSpec[] = [
  { key: 'SessionStart', event: 'session-start', timeout: 30_000 },
  { key: 'PreCompress', event: 'pre-compact', timeout: 60_000 },
  // Anchored: a matcher is a regular expression for tools.
  { key: 'AfterTool', event: 'post-tool-use', matcher: '^(write_file|replace|run_shell_command)$', timeout: 10_000 },
  { key: 'AfterAgent', event: 'stop', timeout: 10_000 },
  { key: 'SessionEnd', event: 'session-end', timeout: 5_000 },
];

export function geminiHookSet(input: PlanInput): HookSet {
  return nestedHookSet(input, 'gemini', EVENTS, (e) => ({ name: `baton-${e.event}` }));
}

/** One file, two kinds of entry: each edit composes the server's and the hooks'. */
function settingsFormat(server: FileFormat, hooks: FileFormat): FileFormat {
  return {
    hasOurs: (t) => server.hasOurs(t) || hooks.hasOurs(t),
    add: (t) => hooks.add(server.add(t)),
    remove: (t) => hooks.remove(server.hasOurs(t) ? server.remove(t) : t),
    same: sameJson,
    isEmpty: (t) => emptyBut(t),
  };
}

export function planGemini(action: ConnectAction, input: PlanInput): AgentPlan {
  if (input.scope === 'local') scopeNotHad('gemini', input.scope, ['user', 'project']);
  const file = path.join(input.scope === 'user' ? input.home : input.projectDir, '.gemini', 'settings.json');
  const entry: NamedEntry = { map: ['mcpServers'], name: 'baton', value: serverEntry(input, 'gemini'), isOurs: isOurServer };
  const format = settingsFormat(mcpFormat(entry, file), hooksFormat(geminiHookSet(input), file));
  const files = [planFile(file, input.home, action, format)];
  const notes: string[] = [];
  if (action === 'connect' && input.scope === 'project') {
    notes.push(PROJECT_NOTE);
    notes.push('Gemini CLI warns before running project hooks it has not seen, and again whenever their command changes.');
  }
  return { agent: 'gemini', scope: input.scope, action, files, notes, commands: [] };
}

// Codex CLI: Baton's MCP server in config.toml and its hooks in hooks.json.
//
// Facts, from OpenAI's Codex documentation and source:
// - MCP servers are `[mcp_servers.<name>]` tables in ~/.codex/config.toml, or
//   .codex/config.toml in a trusted project, with `command`, `args`, `env`
//   (developers.openai.com/codex/mcp; openai/codex docs/config.md, "MCP
//   integration"). Startup timeout `startup_timeout_sec`, default 10 s.
// - Hooks: ~/.codex/hooks.json or <repo>/.codex/hooks.json (or inline [hooks] in
//   config.toml), the nested shape {"hooks": {EVENT: [{"matcher"?, "hooks":
//   [{"type": "command", "command", "timeout"}]}]}}; project hooks load only when
//   the project's .codex/ layer is trusted (developers.openai.com/codex/hooks).
//   Unmanaged hooks run only after the person trusts the hook's exact
//   definition (/hooks in the CLI); trust is kept per hash, so a changed command
//   is skipped until trusted again (same page, "Review and trust hooks").
// - `timeout` is seconds (`timeout_sec`, serde rename "timeout", default 600;
//   codex-rs/hooks/src/engine/config.rs as documented in the repo's notes).
// - Events: SessionStart, PreCompact (openai/codex#19905), PostToolUse with
//   apply_patch edits under tool_name "apply_patch", the patch in
//   tool_input.command (openai/codex#18391), Stop, and SessionEnd for the root
//   thread, its timeout default 1 s and capped at 3 s (openai/codex#33895).
// - SessionStart output: {"hookSpecificOutput": {"hookEventName": "SessionStart",
//   "additionalContext"}} (codex-rs/hooks/schema/generated/session-start.command.output.schema.json).
import * as path from 'path';
import type { AgentPlan, ConnectAction, FileFormat, PlanInput } from './agentPlan';
import { planFile, scopeNotHad } from './agentPlan';
import { PROJECT_NOTE, isOurServer, nestedHookSet, serverEntry, type HookEventSpec } from './batonCommand';
import { hooksFormat } from './jsonFormats';
import type { HookSet } from './jsonEdit';
import type { TableEdit } from './tomlEdit';
import { hasTable, readToml, removeTable, upsertTable } from './tomlEdit';
import { isDeepStrictEqual } from 'util';

const EVENTS: HookEventSpec[] = [
  { key: 'SessionStart', event: 'session-start', timeout: 30 },
  { key: 'PreCompact', event: 'pre-compact', timeout: 60 },
  { key: 'PostToolUse', event: 'post-tool-use', matcher: '^apply_patch$', timeout: 10 },
  { key: 'Stop', event: 'stop', timeout: 10 },
  // Codex caps SessionEnd at 3 s.
  { key: 'SessionEnd', event: 'session-end', timeout: 3 },
];

export function codexHookSet(input: PlanInput): HookSet {
  return nestedHookSet(input, 'codex', EVENTS);
}

export function tomlFormat(edit: TableEdit, file: string): FileFormat {
  return {
    hasOurs: (t) => hasTable(t, edit),
    add: (t) => upsertTable(t, edit, file),
    remove: (t) => removeTable(t, edit, file),
    same: (a, b) => isDeepStrictEqual(JSON.parse(JSON.stringify(readToml(a, file))), JSON.parse(JSON.stringify(readToml(b, file)))),
    isEmpty: (t) => t.trim() === '',
  };
}

export function planCodex(action: ConnectAction, input: PlanInput): AgentPlan {
  if (input.scope === 'local') scopeNotHad('codex', input.scope, ['user', 'project']);
  const dir = input.scope === 'user' ? path.join(input.home, '.codex') : path.join(input.projectDir, '.codex');
  const config = path.join(dir, 'config.toml');
  const hooks = path.join(dir, 'hooks.json');
  const edit: TableEdit = { key: ['mcp_servers', 'baton'], value: serverEntry(input), isOurs: isOurServer };
  const files = [planFile(config, input.home, action, tomlFormat(edit, config)), planFile(hooks, input.home, action, hooksFormat(codexHookSet(input), hooks))];
  const notes: string[] = [];
  if (action === 'connect' && files[1].action !== 'unchanged') {
    notes.push('Codex runs a new or changed hook only once you trust it: open /hooks in Codex and trust the Baton hooks.');
  }
  if (action === 'connect' && input.scope === 'project') {
    notes.push(PROJECT_NOTE);
    notes.push("Codex reads a project's .codex/config.toml and .codex/hooks.json only when the project is trusted.");
  }
  return { agent: 'codex', scope: input.scope, action, files, notes, commands: [] };
}

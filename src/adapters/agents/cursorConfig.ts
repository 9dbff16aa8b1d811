// Cursor: Baton's MCP server in mcp.json and its hooks in hooks.json.
//
// Facts: Cursor's own pages (cursor.com/docs/context/mcp, cursor.com/docs/agent/hooks)
// are not among the stored copies this was checked against; what follows is
// from copies and readers of them, and where they disagree with the issue it
// says so:
// - MCP: ~/.cursor/mcp.json (every project) or .cursor/mcp.json (one project),
//   {"mcpServers": {name: {command, args, env}}} (the example "copied verbatim"
//   from cursor.com/docs/mcp at developersdigest.tech/mcp-servers/clients/cursor;
//   mcpbundles.com/guides/cursor).
// - Hooks: ~/.cursor/hooks.json or .cursor/hooks.json, {"version": 1, "hooks":
//   {event: [{"command", "timeout"?, "matcher"?}]}}, flat (cupcake.eqtylab.io/
//   reference/harnesses/cursor; cursor-hooks@1.1.6 README on unpkg). Project hook
//   commands run relative to the project's .cursor/ folder: Baton's are
//   absolute or on PATH, so that does not matter.
// - Events used: sessionStart, preCompact, afterFileEdit (payload `file_path`,
//   `edits`), stop (`status`), sessionEnd; every payload carries
//   `conversation_id`, `workspace_roots`, `cursor_version` (cupcake reference;
//   mem0's cursor-hooks.json uses sessionStart, preCompact and stop). A forum
//   report (forum.cursor.com/t/149566) says some Cursor builds rejected
//   `sessionStart` as an unknown hook type: the hook then never runs, and the
//   MCP server's instructions still reach the agent.
// - `timeout` is in seconds in every public example (mem0: 3, 5, 12, 30).
import * as path from 'path';
import type { AgentPlan, ConnectAction, PlanInput } from './agentPlan';
import { planFile, scopeNotHad } from './agentPlan';
import { PROJECT_NOTE, flatHookSet, hookCommand, isOurServer, serverEntry, type HookEventSpec } from './batonCommand';
import type { HookSet, NamedEntry } from './jsonEdit';
import { flatHooksFormat, mcpFormat } from './jsonFormats';

const EVENTS: HookEventSpec[] = [
  { key: 'sessionStart', event: 'session-start', timeout: 30 },
  { key: 'preCompact', event: 'pre-compact', timeout: 60 },
  { key: 'afterFileEdit', event: 'file-edit', timeout: 10 },
  { key: 'stop', event: 'stop', timeout: 10 },
  { key: 'sessionEnd', event: 'session-end', timeout: 5 },
];

export function cursorHookSet(input: PlanInput): HookSet {
  return flatHookSet('command', EVENTS, (e) => ({ command: hookCommand(input, 'cursor', e.event), timeout: e.timeout }));
}

export function planCursor(action: ConnectAction, input: PlanInput): AgentPlan {
  if (input.scope === 'local') scopeNotHad('cursor', input.scope, ['user', 'project']);
  const dir = input.scope === 'user' ? path.join(input.home, '.cursor') : path.join(input.projectDir, '.cursor');
  const mcp = path.join(dir, 'mcp.json');
  const hooks = path.join(dir, 'hooks.json');
  const entry: NamedEntry = { map: ['mcpServers'], name: 'baton', value: serverEntry(input, 'cursor'), isOurs: isOurServer };
  const files = [planFile(mcp, input.home, action, mcpFormat(entry, mcp)), planFile(hooks, input.home, action, flatHooksFormat(cursorHookSet(input), hooks))];
  const notes: string[] = [];
  if (action === 'connect') {
    notes.push('Restart Cursor (or open a new agent chat) and switch the "baton" server on under MCP in Cursor\'s settings if it is off.');
    if (input.scope === 'project') notes.push(PROJECT_NOTE);
  }
  return { agent: 'cursor', scope: input.scope, action, files, notes, commands: [] };
}

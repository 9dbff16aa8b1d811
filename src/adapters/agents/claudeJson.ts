// Whether Baton's MCP server is registered in `~/.claude.json`, for `baton
// doctor`. Read only: the file is Claude Code's own (sign-in, per-project
// trust) and rewritten by it, so Baton never edits it and connect prints the
// `claude mcp add-json` command instead (see claudeCodeConfig.ts). User scope
// keeps servers in the top-level `mcpServers`, local scope under
// `projects[<dir>].mcpServers` (Claude Code's docs/mcp.md, "MCP installation scopes").
import * as path from 'path';
import { readText } from './agentPlan';
import { isOurServer } from './batonCommand';

/** true or false when the file says; null when there is no readable ~/.claude.json to ask. */
export function claudeMcpRegistered(home: string, scope: 'user' | 'local', projectDir: string): boolean | null {
  let value: unknown;
  try {
    const text = readText(path.join(home, '.claude.json'));
    if (text === null) return null;
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const obj = (v: unknown): Record<string, unknown> | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);
  const holder = scope === 'user' ? obj(value) : obj(obj(obj(value)?.projects)?.[projectDir]);
  return isOurServer(obj(holder?.mcpServers)?.baton);
}

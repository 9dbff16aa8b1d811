// Baton's MCP server as `~/.claude.json` (or `$CLAUDE_CONFIG_DIR/.claude.json`) holds it, for connect (which runs
// `claude mcp add-json` or `remove` only where that changes something) and for
// doctor. Read only: the file is Claude Code's own (sign-in, per-project trust)
// and rewritten by it, so Baton never edits it (see claudeCodeConfig.ts).
// Where servers are, as Claude Code 2.1.328 writes them (read from the file
// `claude mcp add-json` wrote in this repository's agents tier): user scope in
// the top-level `mcpServers`, local scope in `projects[<dir>].mcpServers`, the
// dir being the folder the command ran in; an entry is the JSON given, as is
// (`{"command","args","env"}`). Matches docs/mcp.md, "MCP installation scopes".
import { readText } from './agentPlan';
import { isOurServer } from './batonCommand';

export type ClaudeServer =
  /** No server named baton (or no ~/.claude.json yet: Claude Code never ran or nothing was added). */
  | { state: 'absent' }
  | { state: 'ours'; entry: Record<string, unknown> }
  /** A server named baton that is not Baton's: the person's own. */
  | { state: 'other' };

const obj = (v: unknown): Record<string, unknown> | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

/**
 * The `baton` server of one scope in `file` (claudeCodeConfig.ts claudeJsonFile). A file that is not JSON reads as absent:
 * Claude Code itself starts over from a backup then, and `claude mcp` is what
 * would say so.
 */
export function claudeServer(file: string, scope: 'user' | 'local', projectDir: string): ClaudeServer {
  let value: unknown;
  try {
    const text = readText(file);
    if (text === null) return { state: 'absent' };
    value = JSON.parse(text);
  } catch {
    return { state: 'absent' };
  }
  const holder = scope === 'user' ? obj(value) : obj(obj(obj(value)?.projects)?.[projectDir]);
  const entry = obj(obj(holder?.mcpServers)?.baton);
  if (entry === undefined) return { state: 'absent' };
  return isOurServer(entry) ? { state: 'ours', entry } : { state: 'other' };
}

/** Does an entry Claude Code holds run what `want` says (program, arguments, environment)? Key order and a `type: "stdio"` aside. */
export function sameServer(entry: Record<string, unknown>, want: { command: string; args: string[]; env?: Record<string, string> }): boolean {
  const canon = (v: unknown): string =>
    JSON.stringify(v, (_k, x: unknown) => (obj(x) ? Object.fromEntries(Object.entries(x as object).sort(([a], [b]) => a.localeCompare(b))) : x));
  const env = obj(entry.env) ?? {};
  return entry.command === want.command && canon(entry.args) === canon(want.args) && canon(env) === canon(want.env ?? {}) && (entry.type === undefined || entry.type === 'stdio');
}

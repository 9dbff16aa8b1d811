// Claude Code without Baton's MCP server: its hooks connected (the hand-over
// arrives) but no tools to note or checkpoint with, because `claude mcp
// add-json` never ran, ran before the entry changed, or the server was
// removed since. The hooks live in a file connect writes, the server in
// ~/.claude.json (in CLAUDE_CONFIG_DIR when set), which only Claude Code writes, so agentStatus cannot see it:
// the verdict is whether connect would run a `claude mcp` command (the
// plan's commands, planned from what ~/.claude.json holds: claudeCodeConfig.ts),
// so doctor cannot disagree with connect. Claude Code that never ran here has
// no ~/.claude.json, hence no server: that is missing too.
import * as path from 'path';
import type { AgentHealthInput, AgentProblem } from '../agentHealth';
import { claudeServersFile, type AgentStatus } from '../connect';

export function claudeMcpProblems(i: AgentHealthInput, status: AgentStatus): AgentProblem[] {
  if (i.agent !== 'claude-code' || i.scope === 'project' || status.connected === 'no' || status.commands.length === 0) return [];
  const fix = `baton connect claude-code${i.scope === 'user' ? '' : ` --scope ${i.scope}`}`;
  const outdated = status.commands.some((c) => /\bclaude mcp remove\b/.test(c));
  const what = outdated ? 'is not the current one' : 'is missing';
  const full = claudeServersFile(i.home, i.env ?? process.env);
  const file = full.startsWith(path.join(i.home, path.sep)) ? `~${path.sep}${path.relative(i.home, full)}` : full;
  return [
    {
      summary: `MCP server ${what} (${file}, ${i.scope})`,
      text: `Baton's MCP server ${what} in ${file} (${i.scope} scope), so Claude Code has no Baton tools: run ${fix} (it runs \`claude mcp\` for you), or: ${status.commands.join(' && ')}`,
      fix: { kind: 'connect', agent: i.agent, scope: i.scope },
    },
  ];
}

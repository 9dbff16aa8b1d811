// Who is writing through the MCP server: the same agent name the host's hooks
// write as (hooks/hosts.ts AGENT_OF), so a session's notes, edits and stop
// notes fold into one checkpoint and `baton sessions` shows one agent.
//
// `baton connect` puts BATON_AGENT in the server's environment, which wins.
// Without it (a server added by hand, an older connect), the client's own
// name from the MCP handshake (`clientInfo.name`) is mapped to the host's
// agent name. Names as each client sent them to a logging MCP server
// (2026-12-02), or as its source names them:
// - Claude Code 2.1.328: "claude-code" (`claude mcp list`'s health check).
// - Codex CLI 0.169.0: "codex-mcp-client" (`codex exec`).
// - Gemini CLI 0.61.0: "gemini-cli-mcp-client" (`gemini -p`; bundle's connectToMcpServer).
// - Copilot CLI 1.0.102: "copilot-cli" (`copilot -p`).
// - Cursor: "cursor-vscode" (not checked against Cursor itself: the name
//   public MCP servers' client tables and captured initialize requests show).
// - VS Code: its product's long name, "Visual Studio Code" (microsoft/vscode
//   src/vs/workbench/contrib/mcp/common/mcpServerRequestHandler.ts,
//   `clientInfo: { name: productService.nameLong }`); its agent is GitHub
//   Copilot, whose hooks write as "copilot".
import { safe } from '../core/names';

/** The client names known to belong to a host whose hooks Baton installs, after `safe`, to that host's agent name. */
export const CLIENT_AGENTS: Readonly<Record<string, string>> = {
  'claude-code': 'claude-code',
  'codex-mcp-client': 'codex',
  'gemini-cli-mcp-client': 'gemini',
  'copilot-cli': 'copilot',
  'cursor-vscode': 'cursor',
  'visual-studio-code': 'copilot',
  'visual-studio-code-insiders': 'copilot',
};

/** The agent name of a server's caller: BATON_AGENT, else the client's name mapped (else as given), else "mcp". */
export function agentOfClient(env: NodeJS.ProcessEnv, clientName: string | undefined): string {
  const configured = env.BATON_AGENT?.trim();
  if (configured) return configured;
  const name = safe(clientName ?? '');
  return CLIENT_AGENTS[name] ?? (name || 'mcp');
}

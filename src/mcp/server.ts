// The Baton MCP server: the session core offered as tools to any agent that
// speaks MCP (Claude Code, Codex, Cursor, Copilot), over any transport; the
// hand-over and the projects also as prompts and resources.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { VERSION } from '../app/version';
import { registerPrompts } from './prompts';
import { registerReadTools } from './readTools';
import { registerResources } from './resources';
import { toolContext, type McpDeps } from './toolContext';
import { registerWriteTools } from './writeTools';

/** Read by clients that pass server instructions to the model: how to use Baton without being told. */
export const INSTRUCTIONS = [
  'Baton keeps the thread between agent sessions.',
  'Call resume first and read "Didn\'t work" before proposing anything; before_you_try before an approach;',
  'note_progress after each step; why before changing a file;',
  'checkpoint, with what was ruled out in "failed", before you stop or when the context runs low.',
].join(' ');

export function createMcpServer(deps: McpDeps): McpServer {
  const server = new McpServer({ name: 'baton', version: VERSION }, { instructions: INSTRUCTIONS });
  const ctx = toolContext(server, deps);
  registerWriteTools(server, ctx);
  registerReadTools(server, ctx);
  registerPrompts(server, ctx);
  registerResources(server, ctx);
  return server;
}

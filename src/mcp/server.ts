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
  'Baton keeps the thread between agent sessions in a markdown vault.',
  'At the start of a session call resume (and read "Didn\'t work" before proposing anything).',
  'Before trying an approach, call before_you_try. While working, call note_progress after each meaningful step.',
  'Before you stop or when the context runs low, call checkpoint (or handoff) with what was ruled out in "failed".',
  'Before changing a file, why tells you which earlier sessions touched it.',
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

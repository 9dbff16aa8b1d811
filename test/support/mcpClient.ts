// Baton's MCP server started as an agent starts it (`baton mcp` over stdio,
// no agent or project named in the environment) and the SDK's real client
// connected to it: what the tests that speak MCP share.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export interface McpStart {
  /** The CLI bundle to run. */
  cli: string;
  vault: string;
  cwd: string;
  /** The client's name, as an agent gives it (it becomes the agent name). */
  name: string;
  /** The environment to start from (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Set in the server's environment after the BATON_* variables are cleared, as an agent's config sets them (BATON_AGENT). */
  serverEnv?: Record<string, string>;
}

export async function mcpClient(o: McpStart): Promise<Client> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(o.env ?? process.env)) if (v !== undefined) env[k] = v;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [o.cli, 'mcp'],
    cwd: o.cwd,
    env: { ...env, BATON_AGENT: '', BATON_PROJECT: '', ...o.serverEnv, BATON_VAULT: o.vault },
    stderr: 'pipe',
  });
  const client = new Client({ name: o.name, version: '1.0.0' });
  await client.connect(transport);
  return client;
}

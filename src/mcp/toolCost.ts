// What Baton's MCP server costs an agent on every request: the tools'
// definitions (name, description, input schema: what a client turns into the
// model's function declarations) and the server instructions, as the SDK's
// real client lists them from the real server in memory. Counted as JSON
// characters and as tokens at four characters a token, the rule of thumb the
// budget is set in (issue 23: 1,200 tokens; bench/tokens.ts, BENCHMARKS.md).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Baton } from '../core/baton';
import { TOOL_BUDGET_TOKENS, tokensOf, toolChars } from '../core/requestBudget';
import { createMcpServer } from './server';

export { TOOL_BUDGET_TOKENS, tokensOf };

export interface ToolCost {
  tools: { name: string; chars: number }[];
  instructions: number;
  chars: number;
  tokens: number;
}

/** Lists the tools without touching the vault: listing calls no tool, so no Baton is needed behind it. */
export async function toolCost(): Promise<ToolCost> {
  const server = createMcpServer({ baton: null as unknown as Baton, env: {}, cwd: '/', now: () => 0 });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'baton-tool-cost', version: '1' });
  try {
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    const each = tools.map((t) => ({ name: t.name, chars: toolChars(t) }));
    const instructions = (client.getInstructions() ?? '').length;
    const chars = each.reduce((n, t) => n + t.chars, instructions);
    return { tools: each, instructions, chars, tokens: tokensOf(chars) };
  } finally {
    await client.close();
    await server.close();
  }
}

// `baton mcp [--basic-memory DIR]`: the MCP server on stdio. Stdout belongs
// to the protocol, so nothing else is ever written there; a failure inside a
// tool becomes that tool's error reply, never the end of the server.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { readGitState } from '../adapters/git/gitState';
import { basicMemoryDir } from '../adapters/basicMemory';
import { parse, str } from '../cli/args';
import type { Context } from '../cli/context';
import { createMcpServer } from './server';

export async function mcp(ctx: Context, args: string[]): Promise<number> {
  const { values } = parse('mcp', args, { 'basic-memory': { type: 'string' } }, '[--basic-memory DIR]');
  const server = createMcpServer({
    baton: ctx.core(),
    vaultRoot: ctx.vault,
    env: ctx.io.env,
    cwd: ctx.io.cwd,
    basicMemoryDir: basicMemoryDir(str(values['basic-memory']), ctx.io.env),
    now: () => Math.floor(Date.now() / 1000),
    gitState: (dir) => readGitState(dir),
  });
  // A stray rejection (a client gone mid-reply) is reported, not fatal: other
  // tool calls in flight still deserve their answers.
  const report = (err: unknown): void => {
    ctx.io.err(`baton mcp: ${err instanceof Error ? err.message : String(err)}\n`);
  };
  process.on('unhandledRejection', report);
  process.on('uncaughtException', report);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
  return 0;
}

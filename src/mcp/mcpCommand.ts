// `baton mcp [--basic-memory DIR]`: the MCP server on stdio (the CLI parses
// the command line and hands the call here). Stdout belongs to the protocol,
// so nothing else is ever written there; a failure inside a tool becomes that
// tool's error reply, never the end of the server.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Io } from '../app/io';
import { mcpSessionOf } from '../app/agentHostSession';
import { openBaton } from '../app/openBaton';
import { createMcpServer } from './server';
import { framedInput, MAX_MESSAGE } from './stdioFrames';

export async function serveStdio(call: { vaultRoot: string; io: Io; basicMemoryDir?: string }): Promise<number> {
  const { io } = call;
  const server = createMcpServer({
    baton: openBaton(call.vaultRoot),
    env: io.env,
    cwd: io.cwd,
    basicMemoryDir: call.basicMemoryDir,
    now: () => Math.floor(Date.now() / 1000),
    sessionOf: mcpSessionOf(call.vaultRoot, io.env),
  });
  // A stray rejection (a client gone mid-reply) is reported, not fatal: other
  // tool calls in flight still deserve their answers.
  const report = (err: unknown): void => {
    io.err(`baton mcp: ${err instanceof Error ? err.message : String(err)}\n`);
  };
  process.on('unhandledRejection', report);
  process.on('uncaughtException', report);
  // Whole messages, and a reply to one too big to take (see stdioFrames.ts).
  const transport = new StdioServerTransport(
    framedInput(process.stdin, (line) => process.stdout.write(line)),
    process.stdout,
    { maxBufferSize: MAX_MESSAGE + 2 },
  );
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
  return 0;
}

// Asks a stdio MCP server what it tells every client: its instructions (the
// initialize result) and its tools (tools/list), with the protocol's own
// newline-delimited JSON-RPC messages, no SDK: `baton doctor` weighs the very
// server the agents' configs start, without loading the MCP SDK into the CLI.
// (MCP spec, "Transports: stdio": one JSON-RPC message per line.)
import { spawn } from 'child_process';

export interface ProbedTool {
  name: string;
  description?: string;
  inputSchema?: unknown;
}

export interface Probed {
  instructions: string;
  tools: ProbedTool[];
}

const PROTOCOL = '2025-06-18';

/** Starts the server, asks, and stops it; rejects when it does not answer within `timeoutMs`. */
export function probeMcpServer(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 10_000): Promise<Probed> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let instructions = '';
    let buffer = '';
    const done = (err: Error | null, value?: Probed): void => {
      clearTimeout(timer);
      child.kill();
      if (err) reject(err);
      else resolve(value as Probed);
    };
    const timer = setTimeout(() => done(new Error(`the MCP server did not answer within ${timeoutMs / 1000} s`)), timeoutMs);
    const send = (msg: object): void => void child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n');
    child.on('error', (err) => done(err));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        let msg: { id?: number; result?: { instructions?: unknown; tools?: ProbedTool[] }; error?: { message?: string } };
        try {
          msg = JSON.parse(line) as typeof msg;
        } catch {
          continue;
        }
        if (msg.error) return done(new Error(`the MCP server refused: ${msg.error.message ?? 'unknown error'}`));
        if (msg.id === 1) {
          instructions = typeof msg.result?.instructions === 'string' ? msg.result.instructions : '';
          send({ method: 'notifications/initialized' });
          send({ id: 2, method: 'tools/list', params: {} });
        } else if (msg.id === 2) {
          return done(null, { instructions, tools: msg.result?.tools ?? [] });
        }
      }
    });
    send({ id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'baton-doctor', version: '1' } } });
  });
}

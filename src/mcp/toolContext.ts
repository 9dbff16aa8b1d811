// What every MCP tool needs: the core, who is calling, which project, and a
// way to answer. The project is the tool's argument, else BATON_PROJECT, else
// the client's first root folder, else the server's working folder, so an
// agent in a workspace never has to name its project.
import { fileURLToPath } from 'url';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, RootsListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Baton } from '../core/baton';
import { BatonError, usage } from '../core/errors';
import { stripDeep } from '../core/quoted';
import { resolveScope, type ResolvedScope } from '../app/scope';
import type { SessionOfCall } from '../app/agentHostSession';
import { agentOfClient } from './clientAgents';

export interface McpDeps {
  baton: Baton;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** A basic-memory folder whose session notes `why` also searches; read-only. */
  basicMemoryDir?: string;
  now(): number;
  /** The caller's own agent session, from the host's environment, a call's `_meta` or its hooks (app/agentHostSession.ts). */
  sessionOf?: SessionOfCall;
}

export interface ToolContext {
  deps: McpDeps;
  project(arg: string | undefined): Promise<ResolvedScope>;
  /** Who is writing: never a tool argument, so a model cannot split one host's session under two names (clientAgents.ts). */
  agent(): string;
  /** The writer's agent session ("" when nothing says it), from the call's `_meta` or the server's host; never a tool argument either. */
  agentSession(meta: Record<string, unknown> | undefined): string;
}

const ROOTS_TIMEOUT_MS = 3000;

export function toolContext(server: McpServer, deps: McpDeps): ToolContext {
  // Roots are asked for once and forgotten when the client says they changed.
  let roots: Promise<string | null> | undefined;
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    roots = undefined;
  });

  async function firstRoot(): Promise<string | null> {
    if (!server.server.getClientCapabilities()?.roots) return null;
    try {
      const r = await server.server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS });
      const uri = r.roots[0]?.uri;
      return uri?.startsWith('file:') ? fileURLToPath(uri) : null;
    } catch {
      // A client that advertises roots but does not answer must not block a tool.
      return null;
    }
  }

  return {
    deps,
    async project(arg) {
      const root = await (roots ??= firstRoot());
      const found = resolveScope({ given: arg, env: deps.env, folders: [root, deps.cwd] });
      if (found) return found;
      throw usage('No project: pass "project", set BATON_PROJECT for the server, or open a workspace folder.');
    },
    agent() {
      return agentOfClient(deps.env, server.server.getClientVersion()?.name);
    },
    agentSession(meta) {
      return deps.sessionOf?.(server.server.getClientVersion()?.name, meta) ?? '';
    },
  };
}

/**
 * Readable text for the agent plus the same facts as structured content. Both
 * reach an agent, so neither carries a control character (quoted.ts); the
 * text frames checkpoint text as quotes (handover.ts).
 */
export function reply(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: stripDeep(structured) };
}

// By name, not instanceof: a bundle that splits the MCP server from the CLI has two copies of the class.
const isOurs = (err: unknown): boolean => err instanceof BatonError || (err instanceof Error && err.name === 'BatonError');
const messageOf = (err: unknown): string => (isOurs(err) ? (err as Error).message : `Baton failed: ${err instanceof Error ? err.message : String(err)}`);

/** A tool error: the message says what was wrong and what to do; the server keeps running. */
export function failure(err: unknown): CallToolResult {
  return { content: [{ type: 'text', text: messageOf(err) }], isError: true };
}

/**
 * Prompts and resources have no error result: a failure is the request's
 * JSON-RPC error (the SDK turns a thrown McpError into one and keeps serving).
 * Baton's usage errors and refusals are the caller's to fix (invalid params);
 * the world getting in the way, or anything else, is internal.
 */
export function protocolError(err: unknown): McpError {
  if (err instanceof McpError) return err;
  const callers = isOurs(err) && (err as BatonError).kind !== 'failed';
  return new McpError(callers ? ErrorCode.InvalidParams : ErrorCode.InternalError, messageOf(err));
}

/** Wraps a prompt or resource body so that every failure is a clear protocol error, never a crash. */
export function rethrown<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await fn(...args);
    } catch (err) {
      throw protocolError(err);
    }
  };
}

/** What the SDK hands a tool body beside its arguments: here only the request's `_meta`. */
export interface CallExtra {
  _meta?: Record<string, unknown>;
}

/** Wraps a tool body so that no error escapes as a protocol failure or a crash. */
export function guarded<A>(fn: (args: A, extra?: CallExtra) => Promise<CallToolResult>): (args: A, extra?: CallExtra) => Promise<CallToolResult> {
  return async (args, extra) => {
    try {
      return await fn(args, extra);
    } catch (err) {
      return failure(err);
    }
  };
}

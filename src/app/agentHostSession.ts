// Which agent session an MCP tool call belongs to. The stdio transport names
// none, so each host is asked what it does give its MCP server, as seen from
// the real CLIs in the agents' tier (test/agents/*.test.ts, 2026-12-02), and
// failing that what its own session-start hook recorded for the CLI process
// both run under (adapters/agentHosts.ts). Nothing known: no session, never a
// guessed one.
//
// - Claude Code 2.1.328: CLAUDE_CODE_SESSION_ID in the server's environment,
//   the hooks' `session_id` (public reports said only its Bash tool had it:
//   anthropics/claude-code#61752, #25642). Set when the server starts, so
//   after /clear (a new session in the same process) the hook's record, newer, wins.
// - Codex CLI 0.169.0: every tools/call's `_meta.sessionId` (also
//   `_meta["x-codex-turn-metadata"].session_id`), the hooks' `session_id`
//   (openai/codex#18093, #21329); the server's environment is filtered.
// - Gemini CLI 0.61.0: nothing (environment: GEMINI_CLI=1 only, google-gemini/gemini-cli#18832;
//   `_meta`: a progressToken; its hooks get GEMINI_SESSION_ID, its server not): the hook's record.
// - Copilot CLI 1.0.102: COPILOT_AGENT_SESSION_ID in the server's environment, the hooks' `sessionId`.
// Other clients (VS Code, Cursor, an unknown one) get none: one VS Code
// process holds many chats, so "the newest session of the process" could be another chat's.
import { safe } from '../core/names';
import { readHostSession, writeHostSession } from '../adapters/agentHosts';
import { hostProcess, type ProcStat } from '../adapters/processTree';

type Meta = Record<string, unknown> | undefined;

interface Source {
  /** The hooks' name of the host (hooks/hosts.ts Host), whose records this client may read. */
  host: string;
  env?: string;
  meta?: (m: Record<string, unknown>) => string;
}

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** By the client's name in the MCP handshake, after `safe` (mcp/clientAgents.ts lists where each was read). */
const SOURCES: Readonly<Record<string, Source>> = {
  'claude-code': { host: 'claude-code', env: 'CLAUDE_CODE_SESSION_ID' },
  'codex-mcp-client': {
    host: 'codex',
    meta: (m) => str(m.sessionId) || (isObject(m['x-codex-turn-metadata']) ? str(m['x-codex-turn-metadata'].session_id) : ''),
  },
  'gemini-cli-mcp-client': { host: 'gemini' },
  'copilot-cli': { host: 'copilot', env: 'COPILOT_AGENT_SESSION_ID' },
};

/**
 * A session-start hook's note of which session its CLI process is in now
 * (the process: this hook's nearest ancestor that is no shell). Never fails
 * the hook: without /proc, or with the vault read-only, MCP writes simply
 * carry no session.
 */
export async function recordHostSession(vaultRoot: string, host: string, session: string, now: number): Promise<void> {
  if (!session || !Object.values(SOURCES).some((s) => s.host === host)) return;
  const proc = hostProcess();
  if (!proc) return;
  await writeHostSession(vaultRoot, proc, { host, session, at: now }).catch(() => undefined);
}

/** What an MCP server asks at each write: the caller's agent session, or "" when nothing says it. */
export type SessionOfCall = (clientName: string | undefined, meta: Meta) => string;

/**
 * One per server process: the CLI process above it is looked up once (a walk
 * of /proc), its record read again at each write (one small file: a /clear
 * between two notes must show), so a note costs a file read more than before.
 */
export function mcpSessionOf(vaultRoot: string, env: NodeJS.ProcessEnv, parent: number = process.ppid): SessionOfCall {
  let host: ProcStat | null | undefined;
  const recorded = (source: Source): string => {
    host ??= hostProcess(parent);
    return host ? (readHostSession(vaultRoot, host, source.host)?.session ?? '') : '';
  };
  return (clientName, meta) => {
    const source = SOURCES[safe(clientName ?? '')];
    if (!source) return '';
    return (source.meta && meta ? source.meta(meta) : '') || recorded(source) || (source.env ? str(env[source.env]) : '');
  };
}

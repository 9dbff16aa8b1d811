// The hook use cases that run often (after every edit, at every turn's end)
// or must be cheap (checking which hooks are installed), and what every hook
// use case shares. Light on purpose: the core, the vault and the project name,
// no git, no transcript reader, and the index never opened (openBaton loads it
// on first use), so an edit hook costs little more than starting Node. The
// rest (session start, compaction, plans) is app/agentHooks.ts.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Baton } from '../core/baton';
import { sessionEndedNote, turnEndedNote } from '../core/lifecycle';
import type { ShellCall } from '../core/runs';
import { readBinding } from '../adapters/agentSessions';
import { readForeignBytes } from '../adapters/foreignFile';
import { projectRoots, repoRelative } from './editedPaths';
import { openBaton } from './openBaton';
import { resolveScope } from './scope';

/** What the hooks' door read from an agent's payload (hooks/payload.ts); every field "" when missing. */
export interface HookPayload {
  /** The program that sent the payload (hooks/hosts.ts `Host`): decides the transcript format. */
  host: string;
  /** The agent's own session id (Claude Code, Codex: `session_id`; Cursor: `conversation_id`). */
  sessionId: string;
  transcriptPath: string;
  /** The session's working folder (Cursor: its first workspace root). */
  cwd: string;
  /** The host's workspace roots (Cursor's workspace_roots), [] when it names none. */
  roots: string[];
  /** Paths the payload says were edited, as the host wrote them (hooks/hosts.ts). */
  edited: string[];
  /** session-start: startup, resume, clear, compact. */
  source: string;
  /** session-start: the person's first prompt, where the host sends it (Copilot CLI's initialPrompt), else "". */
  prompt: string;
  /** pre-compact: manual or auto. */
  trigger: string;
  /** pre-compact: what the user asked the compaction to keep (Claude's, Copilot CLI's custom instructions), "" when none. */
  instructions: string;
  /** pre-compact: Cursor's context figures (context_usage_percent, message_count, messages_to_compact), null when absent. */
  context: { percent: number | null; messages: number | null; toCompact: number | null };
  /** session-end: clear, logout, prompt_input_exit, other (Copilot CLI: complete); stop: Cursor's status, Copilot CLI's stopReason. */
  reason: string;
  toolName: string;
  toolInput: Record<string, unknown>;
  /** post-tool-use: the host's id of the call (Claude Code, Codex: `tool_use_id`), "" when none. */
  toolUseId?: string;
  /** post-tool-use: the shell command the tool ran and how it ended (hooks/shellRun.ts), null for any other tool. */
  shell?: ShellCall | null;
}

export interface HookEnv {
  vaultRoot: string;
  env: NodeJS.ProcessEnv;
  /** The agent name hooks write as: the same one the agent's MCP client reports, so its notes fold together. */
  agent: string;
  now(): number;
  /** Opened on demand; tests pass their own clock through it. */
  baton?: Baton;
}

export const core = (h: HookEnv): Baton => (h.baton ??= openBaton(h.vaultRoot));

/**
 * The scope a hook acts on: BATON_PROJECT, else the project of the session's
 * folder. Null for the home folder or `/`, where a hook does nothing rather
 * than gather every stray session of a machine into one project.
 */
export function hookScope(h: HookEnv, p: HookPayload): string | null {
  return resolveScope({ env: h.env, folders: [p.cwd] })?.scope ?? null;
}

/**
 * File edits the host reported: each path made relative to the project (see
 * editedPaths.ts; outside it, nothing is recorded) and written as an `edited:`
 * note of the agent's open session (core/edits.ts), which the next checkpoint
 * folds into its Files. No index, no git: this runs after every edit.
 */
export async function filesEdited(h: HookEnv, p: HookPayload): Promise<string[]> {
  if (!p.edited.length) return [];
  const scope = hookScope(h, p);
  if (!scope) return [];
  const roots = projectRoots(p.cwd, p.roots);
  const rel = p.edited.map((e) => repoRelative(e, p.cwd, roots)).filter((r): r is string => r !== null);
  if (!rel.length) return [];
  return (await core(h).recordEdits(scope, h.agent, rel, h.now(), { agentSession: p.sessionId })).recorded;
}

/**
 * The end of a turn (Claude's and Codex's Stop, Cursor's stop, Gemini's
 * AfterAgent, Copilot's agentStop): a lifecycle note (core/lifecycle.ts) that
 * the agent stopped, and why when the host says (Cursor's status). Written
 * once per run of turns: not again while it is still the agent's latest note,
 * so an idle back-and-forth adds nothing.
 */
export async function turnEnded(h: HookEnv, p: HookPayload): Promise<string> {
  const scope = hookScope(h, p);
  if (!scope) return '';
  const text = turnEndedNote(p.reason);
  await core(h).noteUnlessLatest(scope, h.agent, text, h.now(), { agentSession: p.sessionId });
  return text;
}

/** Where each host keeps the hooks Baton writes for it (src/adapters/agents/*Config.ts), user scope then project. */
function hookFiles(agent: string, home: string, root: string): string[] {
  const dirFiles = (dir: string): string[] => {
    try {
      return fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => path.join(dir, f));
    } catch {
      return [];
    }
  };
  switch (agent) {
    case 'cursor':
      return [path.join(home, '.cursor', 'hooks.json'), path.join(root, '.cursor', 'hooks.json')];
    case 'codex':
      return [path.join(home, '.codex', 'hooks.json'), path.join(root, '.codex', 'hooks.json')];
    case 'gemini':
      return [path.join(home, '.gemini', 'settings.json'), path.join(root, '.gemini', 'settings.json')];
    case 'copilot':
      return [...dirFiles(path.join(home, '.copilot', 'hooks')), ...dirFiles(path.join(root, '.github', 'hooks'))];
    default:
      return [];
  }
}

/**
 * Whether Baton's session-start hook for `agent` (the one a host runs as its
 * own, hooks/hosts.ts OWN_HOOK_OF) is installed where it is read (the user's
 * file, or the project's): then a hook installed for another agent that this
 * host also runs stays silent. A file read, no parse.
 */
export async function ownHookInstalled(h: HookEnv, p: HookPayload, agent: string): Promise<boolean> {
  const home = h.env.HOME || os.homedir();
  const roots = projectRoots(p.cwd, p.roots);
  const needle = new RegExp(`\\bhook\\s+${AGENT_NAMES[agent] ?? agent}\\s+session-start\\b`);
  for (const root of roots.length ? roots : [home]) {
    for (const file of hookFiles(agent, home, root)) {
      try {
        // A repository's file: a symlink to /dev/zero or a FIFO is never read (foreignFile.ts).
        const text = readForeignBytes(file)?.toString('utf8');
        if (text !== undefined && needle.test(text)) return true;
      } catch {
        // not a file Baton reads: no hook of Baton's there
      }
    }
  }
  return false;
}

/** The agent name in Baton's hook command for each agent whose hooks Baton installs. */
const AGENT_NAMES: Record<string, string> = { cursor: 'cursor', codex: 'codex', gemini: 'gemini', copilot: 'copilot', 'claude-code': 'claude-code' };

/** What a session end did: the note written, or why nothing was (for the hook log). */
export type SessionEnd = { note: string } | { skipped: string };

/**
 * Session end: a lifecycle note (core/lifecycle.ts) that the session ended and
 * why, so the next reader knows it did not just go quiet. It names no
 * transcript: a note is read on every machine sharing the vault, and the
 * path is one machine's (session start keeps it in the session's binding). A session Baton never saw start, with no
 * transcript on disk, never ran: `claude mcp list`'s health check ends one
 * with a transcript path that does not exist. It writes nothing; neither does
 * the end of a session whose payload names none (Copilot CLI's) when the
 * agent has no open note in the project to mark the end of.
 */
export async function sessionEnd(h: HookEnv, p: HookPayload): Promise<SessionEnd> {
  const bound = p.sessionId ? readBinding(h.vaultRoot, h.agent, p.sessionId) : null;
  const scope = hookScope(h, p) ?? (bound?.scope || null);
  if (!scope) return { skipped: 'no project for this folder (the home folder or /)' };
  const transcript = p.transcriptPath && fs.existsSync(p.transcriptPath) ? p.transcriptPath : '';
  if (p.sessionId && !bound && !transcript) {
    return { skipped: `session ${p.sessionId} never started here (no session start, no transcript${p.transcriptPath ? ` at ${p.transcriptPath}` : ''}): nothing recorded` };
  }
  const baton = core(h);
  if (!p.sessionId && !(await baton.hasOpenNotes(scope, h.agent))) {
    return { skipped: `the session names no id and ${h.agent} has no open note in ${scope}: nothing to mark the end of` };
  }
  const text = sessionEndedNote(p.reason);
  await baton.note(scope, h.agent, text, h.now(), { agentSession: p.sessionId });
  return { note: text };
}

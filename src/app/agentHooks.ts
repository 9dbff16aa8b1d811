// What each agent hook does once its payload is known to matter: the use
// cases behind the hooks' door (src/hooks), which parses the payload and
// prints what the agent should read. Loaded only then (see
// hooks/hookCommand.ts): this file pulls in the core, the vault and git.
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Baton } from '../core/baton';
import { refused } from '../core/errors';
import { hasHandover, renderHandover } from '../core/handover';
import { readBinding, updateBinding } from '../adapters/agentSessions';
import { clip, readUserWords } from '../adapters/claudeTranscript';
import { gitStateOf } from './commit';
import { projectRoots, repoRelative } from './editedPaths';
import { openBaton } from './openBaton';
import { resume } from './resume';
import { resolveScope } from './scope';

/** What the hooks' door read from an agent's payload (hooks/payload.ts); every field "" when missing. */
export interface HookPayload {
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
  /** pre-compact: manual or auto. */
  trigger: string;
  /** session-end: clear, logout, prompt_input_exit, other; stop: Cursor's status. */
  reason: string;
  toolName: string;
  toolInput: Record<string, unknown>;
}

/** Claude Code caps what a SessionStart hook may add to the context at 10,000 characters. */
export const HANDOVER_LIMIT = 10_000;
const OPENING_CHARS = 1200;
const RECENT_CHARS = 600;

export interface HookEnv {
  vaultRoot: string;
  env: NodeJS.ProcessEnv;
  /** The agent name hooks write as: the same one the agent's MCP client reports, so its notes fold together. */
  agent: string;
  now(): number;
  /** Opened on demand; tests pass their own clock through it. */
  baton?: Baton;
}

const core = (h: HookEnv): Baton => (h.baton ??= openBaton(h.vaultRoot));

/**
 * The scope a hook acts on: BATON_PROJECT, else the project of the session's
 * folder. Null for the home folder or `/`, where a hook does nothing rather
 * than gather every stray session of a machine into one project.
 */
export function hookScope(h: HookEnv, p: HookPayload): string | null {
  return resolveScope({ env: h.env, folders: [p.cwd] })?.scope ?? null;
}

/**
 * The hand-over to print at session start, or "" when the project has no
 * checkpoint, no working notes and no abandoned session. Its first line says
 * what follows and that its "Didn't work" list holds what was ruled out, as
 * facts, not orders (what is quoted under it was written by agents); it is cut
 * to the agent's limit with a pointer to the rest.
 */
export async function sessionStart(h: HookEnv, p: HookPayload): Promise<string> {
  const scope = hookScope(h, p);
  if (!scope) return '';
  const baton = core(h);
  const view = await resume(baton, scope, { agent: h.agent, via: 'hook', now: h.now(), onlyWithHandover: true });
  if (p.sessionId) {
    await updateBinding(h.vaultRoot, h.agent, p.sessionId, h.now(), { scope, cwd: p.cwd, transcript: p.transcriptPath });
  }
  if (!hasHandover(view)) return '';
  const first =
    `Baton, the session record of ${scope}: below is the hand-over earlier sessions left. Its "Didn't work" list holds approaches ` +
    'an earlier session tried and ruled out, with its reasons. Progress is recorded with baton note; baton checkpoint leaves the next hand-over.\n\n';
  const text = first + renderHandover(view, h.now());
  if (text.length <= HANDOVER_LIMIT) return text;
  const tail = `\n…(cut at ${HANDOVER_LIMIT} characters; the rest: baton resume ${scope})\n`;
  // Cut in UTF-16 units (what the limit counts), never inside a surrogate pair.
  const kept = text.slice(0, HANDOVER_LIMIT - tail.length);
  return (/[\ud800-\udbff]$/.test(kept) ? kept.slice(0, -1) : kept) + tail;
}

/**
 * Before compaction: an extractive checkpoint of the user's own words, the
 * opening request and the latest three messages, clipped. Marked
 * `capture: extractive` so nobody mistakes it for a deliberate hand-over, and
 * bound to the agent's session id and transcript. Like any checkpoint it folds
 * the agent's open notes. A second compaction with nothing new said writes
 * nothing (the binding remembers the last capture).
 */
export async function preCompact(h: HookEnv, p: HookPayload): Promise<string> {
  const scope = hookScope(h, p);
  if (!scope) return '';
  if (!p.transcriptPath) throw refused('pre-compact payload has no transcript_path');
  const words = readUserWords(p.transcriptPath, 3);
  // A transcript with none of the user's words in it (another host's format,
  // an empty session) gives no capture at all, never an empty one.
  if (!words.opening && !words.latest.length) return '';
  const fingerprint = createHash('sha256').update(JSON.stringify([scope, words])).digest('hex').slice(0, 16);
  const bound = p.sessionId ? readBinding(h.vaultRoot, h.agent, p.sessionId) : null;
  if (bound?.lastCapture === fingerprint) return '';

  const latest = words.latest.map((m) => `- ${clip(m, RECENT_CHARS).replace(/\s+/g, ' ')}`);
  const state = [
    `Extractive capture before context compaction (${p.trigger || 'unknown trigger'}): the user's own words, quoted, ` +
      'not a summary and not a deliberate hand-over.',
    ...(latest.length ? ['', `Latest user message${latest.length > 1 ? 's' : ''}:`, ...latest] : []),
  ].join('\n');
  const extra: Record<string, unknown> = { capture: 'extractive' };
  if (p.sessionId) extra.agent_session = p.sessionId;
  if (p.transcriptPath) extra.transcript = p.transcriptPath;
  if (p.cwd) extra.cwd = p.cwd;
  const baton = core(h);
  const r = await baton.commit({
    scope,
    agent: h.agent,
    fields: { task: words.opening ? clip(words.opening, OPENING_CHARS) : '', state: words.opening || latest.length ? state : '' },
    extra,
    at: h.now(),
    git: p.cwd ? await gitStateOf(p.cwd) : undefined,
  });
  if (p.sessionId) {
    await updateBinding(h.vaultRoot, h.agent, p.sessionId, h.now(), { scope, cwd: p.cwd, transcript: p.transcriptPath, lastCapture: fingerprint });
  }
  return r.path;
}

/** After plan approval (ExitPlanMode): the approved plan, saved as a plan of the project. */
export async function planApproved(h: HookEnv, p: HookPayload): Promise<string> {
  const scope = hookScope(h, p);
  const plan = p.toolInput.plan;
  if (!scope || typeof plan !== 'string' || !plan.trim()) return '';
  const r = await core(h).savePlan(scope, h.agent, plan, h.now());
  return r.plan.slug;
}

/** Session end: a working note that the session ended and why, so the next reader knows it did not just go quiet. */
export async function sessionEnd(h: HookEnv, p: HookPayload): Promise<string> {
  const bound = p.sessionId ? readBinding(h.vaultRoot, h.agent, p.sessionId) : null;
  const scope = hookScope(h, p) ?? (bound?.scope || null);
  if (!scope) return '';
  const who = p.sessionId ? `${h.agent} session ${p.sessionId}` : `${h.agent} session`;
  const text = `${who} ended (${p.reason || 'no reason given'})${p.transcriptPath ? `; transcript ${p.transcriptPath}` : ''}`;
  await core(h).note(scope, h.agent, text, h.now());
  return text;
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
  return (await core(h).recordEdits(scope, h.agent, rel, h.now())).recorded;
}

/**
 * The end of a turn (Claude's and Codex's Stop, Cursor's stop, Gemini's
 * AfterAgent, Copilot's agentStop): a note that the agent stopped, and why when
 * the host says (Cursor's status). Written once per run of turns: not again
 * while it is still the agent's latest note, so an idle back-and-forth adds nothing.
 */
export async function turnEnded(h: HookEnv, p: HookPayload): Promise<string> {
  const scope = hookScope(h, p);
  if (!scope) return '';
  const text = `${h.agent} stopped${p.reason ? ` (${p.reason})` : ''}`;
  await core(h).noteUnlessLatest(scope, h.agent, text, h.now());
  return text;
}

/** Where each host keeps the hooks Baton writes for it (src/adapters/agents/*Config.ts), user scope then project. */
function hookFiles(host: string, home: string, root: string): string[] {
  const dirFiles = (dir: string): string[] => {
    try {
      return fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => path.join(dir, f));
    } catch {
      return [];
    }
  };
  switch (host) {
    case 'cursor':
      return [path.join(home, '.cursor', 'hooks.json'), path.join(root, '.cursor', 'hooks.json')];
    case 'codex':
      return [path.join(home, '.codex', 'hooks.json'), path.join(root, '.codex', 'hooks.json')];
    case 'gemini':
      return [path.join(home, '.gemini', 'settings.json'), path.join(root, '.gemini', 'settings.json')];
    case 'copilot':
      return [...dirFiles(path.join(home, '.copilot', 'hooks')), ...dirFiles(path.join(root, '.github', 'hooks'))];
    default:
      // VS Code has no hook file of Baton's: a borrowed Claude hook is its only one.
      return [];
  }
}

/**
 * Whether Baton's own session-start hook for `host` is installed where that
 * host reads hooks (its user file, or the project's): then a hook installed
 * for another host that this host also runs stays silent. A file read, no parse.
 */
export async function ownHookInstalled(h: HookEnv, p: HookPayload, host: string): Promise<boolean> {
  const home = h.env.HOME || os.homedir();
  const roots = projectRoots(p.cwd, p.roots);
  const needle = new RegExp(`\\bhook\\s+${AGENT_NAMES[host] ?? host}\\s+session-start\\b`);
  for (const root of roots.length ? roots : [home]) {
    for (const file of hookFiles(host, home, root)) {
      try {
        if (needle.test(fs.readFileSync(file, 'utf8'))) return true;
      } catch {
        // no such file
      }
    }
  }
  return false;
}

/** The agent name in Baton's hook command for a host (VS Code's is none: Baton installs no VS Code hook). */
const AGENT_NAMES: Record<string, string> = { cursor: 'cursor', codex: 'codex', gemini: 'gemini', copilot: 'copilot', 'claude-code': 'claude-code' };

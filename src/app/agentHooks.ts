// What each agent hook does once its payload is known to matter: the use
// cases behind the hooks' door (src/hooks), which parses the payload and
// prints what the agent should read. Loaded only then (see
// hooks/hookCommand.ts): this file pulls in the core, the vault and git.
import { createHash } from 'crypto';
import { refused } from '../core/errors';
import { hasHandover, renderHandover } from '../core/handover';
import { readBinding, updateBinding } from '../adapters/agentSessions';
import { clip, readUserWords } from '../adapters/claudeTranscript';
import { gitStateOf } from './commit';
import { resume } from './resume';
import type { HookEnv, HookPayload } from './editHooks';
import { core, hookScope } from './editHooks';

export type { HookEnv, HookPayload } from './editHooks';

/** Claude Code caps what a SessionStart hook may add to the context at 10,000 characters. */
export const HANDOVER_LIMIT = 10_000;
const OPENING_CHARS = 1200;
const RECENT_CHARS = 600;

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

// What each agent hook does once its payload is known to matter: the use
// cases behind the hooks' door (src/hooks), which parses the payload and
// prints what the agent should read. Loaded only then (see
// hooks/hookCommand.ts): this file pulls in the core, the vault and git.
import { createHash } from 'crypto';
import * as os from 'os';
import { isEditNote } from '../core/edits';
import { hasHandover, renderHandover } from '../core/handover';
import { readBinding, updateBinding } from '../adapters/agentSessions';
import { cursorTranscriptFor } from '../adapters/transcripts/cursor';
import type { TranscriptFormat } from '../adapters/transcripts/transcripts';
import { userWordsIn } from '../adapters/transcripts/transcripts';
import type { UserWords } from '../adapters/transcripts/userWords';
import { clip } from '../adapters/transcripts/userWords';
import { commitCoverage, gitStateOf } from './commit';
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

// The format each host writes its transcript in (adapters/transcripts/*.ts
// cite where each was read). VS Code's agent names a transcript_path
// (code.visualstudio.com/docs/agent-customization/hooks, "Common input
// fields") whose format its docs do not give: every reader is tried.
const FORMAT_OF_HOST: Record<string, TranscriptFormat | 'unknown'> = {
  'claude-code': 'claude',
  codex: 'codex',
  gemini: 'gemini',
  cursor: 'cursor',
  copilot: 'copilot',
  vscode: 'unknown',
};

/** What a compaction hook did: the checkpoint written, or why nothing was (for the hook log). */
export type Capture = { path: string } | { skipped: string };

/** The transcript to read: the payload's, else (Cursor's CLI sends null) where Cursor keeps the conversation's. */
function transcriptOf(h: HookEnv, p: HookPayload): string {
  if (p.transcriptPath || p.host !== 'cursor') return p.transcriptPath;
  return cursorTranscriptFor(h.env.HOME || os.homedir(), p.roots[0] ?? p.cwd, p.sessionId);
}

/** The user's words in the session's transcript, or why there are none. */
function wordsOf(p: HookPayload, file: string): { words: UserWords; unread: string } {
  const none: UserWords = { opening: '', latest: [] };
  if (!file) return { words: none, unread: 'the payload names no transcript' };
  try {
    const words = userWordsIn(file, FORMAT_OF_HOST[p.host] ?? 'unknown', 3);
    if (words.opening || words.latest.length) return { words, unread: '' };
    return { words, unread: `the transcript ${file} holds no message of the user's that Baton can read` };
  } catch (err) {
    return { words: none, unread: `the transcript ${file} could not be read (${err instanceof Error ? err.message : String(err)})` };
  }
}

/** The host's own figures about the context being compacted (Cursor's), as one line of facts, or "". */
function contextLine(p: HookPayload): string {
  const { percent, messages, toCompact } = p.context;
  const parts = [
    percent !== null ? `${percent}% of the context window in use` : '',
    toCompact !== null ? `${toCompact}${messages !== null ? ` of ${messages}` : ''} messages to be compacted` : messages !== null ? `${messages} messages` : '',
  ].filter(Boolean);
  return parts.length ? `The host reported ${parts.join(', ')}.` : '';
}

/**
 * Before compaction: an extractive checkpoint, never an empty one. From the
 * transcript, the user's own words (the opening request, the latest three
 * messages, clipped); where there is no transcript Baton can read, the
 * session's working notes (which every checkpoint folds) and what the payload
 * itself says (the user's compaction instructions, the host's context
 * figures). Marked `capture: extractive` (`capture_source` says which) so
 * nobody mistakes it for a deliberate hand-over, and bound to the agent's
 * session. With none of these, or with nothing new since the last capture of
 * the session, nothing is written and the reason is returned for the hook log.
 */
export async function preCompact(h: HookEnv, p: HookPayload): Promise<Capture> {
  const scope = hookScope(h, p);
  if (!scope) return { skipped: 'no project for this folder (the home folder or /)' };
  const transcript = transcriptOf(h, p);
  const { words, unread } = wordsOf(p, transcript);
  const fromTranscript = !unread;
  const instructions = p.instructions.trim();
  const baton = core(h);
  const ownNotes = fromTranscript ? [] : (await baton.sessions(scope)).uncommitted.filter((n) => n.agent === h.agent && !isEditNote(n));
  if (!fromTranscript && !instructions && !ownNotes.length) {
    return { skipped: `nothing to capture: ${unread}, and ${h.agent} has no open working notes in ${scope}` };
  }
  const fingerprint = createHash('sha256').update(JSON.stringify([scope, words, instructions])).digest('hex').slice(0, 16);
  const bound = p.sessionId ? readBinding(h.vaultRoot, h.agent, p.sessionId) : null;
  // The same words again, and no notes since: the last capture already holds all of it.
  if (bound?.lastCapture === fingerprint && !ownNotes.length) return { skipped: 'nothing new since the last capture of this session' };

  const latest = words.latest.map((m) => `- ${clip(m, RECENT_CHARS).replace(/\s+/g, ' ')}`);
  const trigger = p.trigger || 'unknown trigger';
  const state = [
    fromTranscript
      ? `Extractive capture before context compaction (${trigger}): the user's own words, quoted, not a summary and not a deliberate hand-over.`
      : `Capture before context compaction (${trigger}): ${unread}, so this holds the session's working notes${instructions ? ' and the compaction instructions the user gave' : ''}, not a summary and not a deliberate hand-over.`,
    ...[contextLine(p)].filter(Boolean),
    ...(latest.length ? ['', `Latest user message${latest.length > 1 ? 's' : ''}:`, ...latest] : []),
    ...(instructions ? ['', 'Compaction instructions the user gave:', `- ${clip(instructions, RECENT_CHARS).replace(/\s+/g, ' ')}`] : []),
  ].join('\n');
  const extra: Record<string, unknown> = { capture: 'extractive', capture_source: fromTranscript ? 'transcript' : 'notes' };
  if (p.sessionId) extra.agent_session = p.sessionId;
  if (transcript) extra.transcript = transcript;
  if (p.cwd) extra.cwd = p.cwd;
  const r = await baton.commit({
    scope,
    agent: h.agent,
    fields: { task: words.opening ? clip(words.opening, OPENING_CHARS) : '', state },
    extra,
    at: h.now(),
    git: p.cwd ? await gitStateOf(p.cwd) : undefined,
    coveredCommits: commitCoverage(p.cwd),
  });
  if (p.sessionId) {
    await updateBinding(h.vaultRoot, h.agent, p.sessionId, h.now(), { scope, cwd: p.cwd, transcript, lastCapture: fingerprint });
  }
  return { path: r.path };
}

/** After plan approval (ExitPlanMode): the approved plan, saved as a plan of the project. */
export async function planApproved(h: HookEnv, p: HookPayload): Promise<string> {
  const scope = hookScope(h, p);
  const plan = p.toolInput.plan;
  if (!scope || typeof plan !== 'string' || !plan.trim()) return '';
  const r = await core(h).savePlan(scope, h.agent, plan, h.now());
  return r.plan.slug;
}

// What each agent hook does once its payload is known to matter: the use
// cases behind the hooks' door (src/hooks), which parses the payload and
// prints what the agent should read. Loaded only then (see
// hooks/hookCommand.ts): this file pulls in the core, the vault and git.
import { createHash } from 'crypto';
import * as os from 'os';
import { isEditNote } from '../core/edits';
import { START_HANDOVER_CHARS, hasHandover, renderStartHandover } from '../core/handover';
import { readBinding, updateBinding } from '../adapters/agentSessions';
import { geminiCompressionThreshold, geminiTokenLimit } from '../adapters/agents/geminiSettings';
import { cursorTranscriptFor } from '../adapters/transcripts/cursor';
import { geminiContext, geminiMessages } from '../adapters/transcripts/gemini';
import type { TranscriptFormat } from '../adapters/transcripts/transcripts';
import { userWordsIn } from '../adapters/transcripts/transcripts';
import type { UserWords } from '../adapters/transcripts/userWords';
import { HANDOVER_END, clip, readWindows } from '../adapters/transcripts/userWords';
import { recordHostSession } from './agentHostSession';
import { commitCheckpoint } from './commit';
import { resume } from './resume';
import type { Checkpoint } from '../core/model';
import type { ResumeView } from '../core/requests';
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
  const view = await resume(baton, scope, { agent: h.agent, via: 'hook', now: h.now(), onlyWithHandover: true, folder: p.cwd });
  if (p.sessionId) {
    const opening = p.prompt.trim() ? clip(p.prompt, OPENING_CHARS) : '';
    await updateBinding(h.vaultRoot, h.agent, p.sessionId, h.now(), { scope, cwd: p.cwd, transcript: p.transcriptPath, opening });
    // For the MCP server under the same CLI process, whose client may not name the session (agentHostSession.ts).
    await recordHostSession(h.vaultRoot, p.host, p.sessionId, h.now());
  }
  if (!hasHandover(view)) return '';
  return startText(scope, view, h.now());
}

/** The session-start text of a project's hand-over (also what `baton doctor` weighs): framed, within the budget, with its closing line. */
export function startText(scope: string, view: ResumeView, now: number): string {
  const first =
    `Baton, the session record of ${scope}: below is the hand-over earlier sessions left. Its "Didn't work" list holds approaches ` +
    'an earlier session tried and ruled out, with its reasons. Progress is recorded with baton note; baton checkpoint leaves the next hand-over.\n\n';
  // The closing line lets a transcript reader take the hand-over out of a user message a host stored it in (userWords.ts).
  // Every session start sends it: 800 tokens at most, the rest a resume away (core/handover.ts).
  const rest = `Baton's resume tool, or baton resume ${scope}`;
  const body = renderStartHandover(view, now, { budget: START_HANDOVER_CHARS - first.length - HANDOVER_END.length - 1, rest });
  const text = `${first}${body}${HANDOVER_END}\n`;
  if (text.length <= HANDOVER_LIMIT) return text;
  const tail = `\n…(cut at ${HANDOVER_LIMIT} characters; the rest: baton resume ${scope})\n${HANDOVER_END}\n`;
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

/**
 * The user's words in the session's transcript, or why there are none. The
 * reason goes into the capture, so it never names the file: that path is this
 * machine's (the binding keeps it, app/sessionPlace.ts), and the hook log adds it.
 */
function wordsOf(p: HookPayload, file: string): { words: UserWords; unread: string } {
  const none: UserWords = { opening: '', latest: [] };
  if (!file) return { words: none, unread: 'the payload names no transcript' };
  try {
    const words = userWordsIn(file, FORMAT_OF_HOST[p.host] ?? 'unknown', 3);
    if (words.opening || words.latest.length) return { words, unread: '' };
    return { words, unread: "the transcript holds no message of the user's that Baton can read" };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = typeof code === 'string' ? code : (err instanceof Error ? err.message : String(err)).split(file).join('it');
    return { words: none, unread: `the transcript could not be read (${why})` };
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
 * Gemini CLI fires PreCompress before every model call, ahead of its own
 * threshold check (ChatCompressionService.compress in the 0.61.0 bundle: the
 * hook, then `originalTokenCount < threshold * tokenLimit(model)` returns
 * without compressing), and the payload says nothing more than `trigger`. So
 * an automatic one is judged as Gemini judges it, from the prompt tokens its
 * chat recording last reported, its settings' threshold and the model's limit,
 * and from whether the history has anything to compress. "" when this firing
 * compresses, or when the transcript cannot tell (a capture too many is
 * better than none); else why it does not, for the hook log.
 */
function geminiCheckOnly(h: HookEnv, p: HookPayload, transcript: string): string {
  if (p.host !== 'gemini' || p.trigger === 'manual' || !transcript) return '';
  let ctx;
  try {
    const w = readWindows(transcript);
    ctx = geminiContext(w.tail);
    // A long session's opening request is before the tail: a message typed in the tail is then one after the first.
    if (ctx && !w.whole && !ctx.splittable) ctx = { ...ctx, splittable: geminiMessages(w.tail).length > 0 };
  } catch {
    return '';
  }
  if (!ctx) return '';
  const check = 'Gemini CLI checks before every model call whether to compress';
  if (ctx.promptTokens === null) return `${check}; no prompt token count since its chat last (re)started, so this check does not compress`;
  const threshold = geminiCompressionThreshold(h.env.HOME || os.homedir(), p.cwd, h.env);
  const limit = Math.floor(threshold * geminiTokenLimit(ctx.model));
  if (ctx.promptTokens < limit) return `${check}; ${ctx.promptTokens} prompt tokens are under its threshold of ${limit}, so this check does not compress`;
  if (!ctx.splittable) return `${check}; one request in the middle of its tool calls leaves it nothing to compress yet`;
  return '';
}

/** What a capture carries over from the checkpoint before it, so that being the latest it hides none of it. */
const CARRIED = ['failed', 'decisions', 'blockers', 'questions'] as const;
function carriedFrom(before: Checkpoint | null): { fields: Partial<Checkpoint>; line: string } {
  if (!before) return { fields: {}, line: '' };
  const fields: Partial<Checkpoint> = {};
  for (const k of CARRIED) if (before[k].length) fields[k] = before[k];
  if (before.next.trim()) fields.next = before.next;
  if (!Object.keys(fields).length) return { fields: {}, line: '' };
  return { fields, line: `Didn't work, decisions, blockers, open questions and next step carried over from ${before.session}, the checkpoint before this capture.` };
}

/**
 * Before compaction: an extractive checkpoint, never an empty one. From the
 * transcript, the user's own words (the opening request, the latest three
 * messages, clipped); where there is no transcript Baton can read, the
 * session's working notes (which every checkpoint folds) and what the payload
 * itself says (the user's compaction instructions, the host's context
 * figures). Marked `capture: extractive` (`capture_source` says which) so
 * nobody mistakes it for a deliberate hand-over, and bound to the agent's
 * session. The latest checkpoint's dead ends, decisions, blockers, questions
 * and next step are carried into it: the capture becomes the latest checkpoint,
 * which the hand-over shows, and must not hide what was ruled out. With none of
 * these, with nothing new since the last capture of the session, or for a
 * Gemini check that does not compress (geminiCheckOnly), nothing is written and
 * the reason is returned for the hook log.
 */
export async function preCompact(h: HookEnv, p: HookPayload): Promise<Capture> {
  const scope = hookScope(h, p);
  if (!scope) return { skipped: 'no project for this folder (the home folder or /)' };
  const transcript = transcriptOf(h, p);
  const checkOnly = geminiCheckOnly(h, p, transcript);
  if (checkOnly) return { skipped: checkOnly };
  const bound = p.sessionId ? readBinding(h.vaultRoot, h.agent, p.sessionId) : null;
  const read = wordsOf(p, transcript);
  const { unread } = read;
  // Copilot CLI writes its session log behind the session: at an early
  // compaction the file it names may not exist yet (seen with 1.0.102 in the
  // agents' tier). Its session start gave the person's first prompt; quote that.
  const fromStart = Boolean(unread && bound?.opening);
  const words: UserWords = fromStart ? { opening: bound?.opening ?? '', latest: [] } : read.words;
  const quoted = !unread || fromStart;
  const instructions = p.instructions.trim();
  const baton = core(h);
  const ownNotes = unread ? (await baton.sessions(scope)).uncommitted.filter((n) => n.agent === h.agent && !isEditNote(n)) : [];
  if (!quoted && !instructions && !ownNotes.length) {
    return { skipped: `nothing to capture: ${unread} (${transcript}), and ${h.agent} has no open working notes in ${scope}` };
  }
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([scope, words, instructions]))
    .digest('hex')
    .slice(0, 16);
  // The same words again, and no notes since: the last capture already holds all of it.
  if (bound?.lastCapture === fingerprint && !ownNotes.length) return { skipped: 'nothing new since the last capture of this session' };

  const carried = carriedFrom(await baton.latest(scope));
  const latest = words.latest.map((m) => `- ${clip(m, RECENT_CHARS).replace(/\s+/g, ' ')}`);
  const trigger = p.trigger || 'unknown trigger';
  const state = [
    fromStart
      ? `Extractive capture before context compaction (${trigger}): the user's opening request as the session start gave it (${unread}), quoted, not a summary and not a deliberate hand-over.`
      : quoted
        ? `Extractive capture before context compaction (${trigger}): the user's own words, quoted, not a summary and not a deliberate hand-over.`
        : `Capture before context compaction (${trigger}): ${unread}, so this holds the session's working notes${instructions ? ' and the compaction instructions the user gave' : ''}, not a summary and not a deliberate hand-over.`,
    ...[contextLine(p), carried.line].filter(Boolean),
    ...(latest.length ? ['', `Latest user message${latest.length > 1 ? 's' : ''}:`, ...latest] : []),
    ...(instructions ? ['', 'Compaction instructions the user gave:', `- ${clip(instructions, RECENT_CHARS).replace(/\s+/g, ' ')}`] : []),
  ].join('\n');
  const extra: Record<string, unknown> = { capture: 'extractive', capture_source: fromStart ? 'session-start' : quoted ? 'transcript' : 'notes' };
  if (p.sessionId) extra.agent_session = p.sessionId;
  // The transcript and the folder are this machine's: kept in its session binding below (app/sessionPlace.ts), not in the vault.
  const r = await commitCheckpoint(baton, {
    scope,
    agent: h.agent,
    fields: { ...carried.fields, task: words.opening ? clip(words.opening, OPENING_CHARS) : '', state },
    extra,
    at: h.now(),
    folder: p.cwd,
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

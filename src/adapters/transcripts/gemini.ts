// What the user said in a Gemini CLI chat recording, the file its hooks name
// as `transcript_path` (docs/hooks/reference.md, the base input of every event,
// PreCompress included). Read from google-gemini/gemini-cli
// packages/core/src/services/chatRecordingService.ts and chatRecordingTypes.ts,
// and checked against the files @google/gemini-cli 0.61.0 writes (the agents'
// tier, test/fixtures/transcripts/gemini/): a session is JSONL
// (`session-….jsonl`): a metadata line (`sessionId`, `projectHash`), message
// records `{id, timestamp, type: "user"|"gemini"|"info"|"error"|"warning",
// content, displayContent?, tokens?, model?}` (a record repeated with the same
// id replaces the earlier one), `{"$set":…}` metadata updates, and
// `{"$rewindTo": id}`, which drops that message and all after it (all of them
// when the id is not there). `{"$set":{"messages":[…]}}` replaces the history
// Gemini keeps (at the session's start, after a resume and after a
// compression): the records it lists are read as updates (a user message it
// lists again under a new id, as a compression does, is the same message), and
// nothing the user said earlier is forgotten for it: a compression is no retraction.
// Older versions wrote one JSON object with a `messages` array.
//
// The user typed `displayContent` when present (`content` then holds what was
// sent, with @-file expansions), else `content`: a string or a list of parts
// with `text`. Not the user's: a message of Gemini's own context
// (`<session_context>`), a compression's summary (`<state_snapshot>`), and the
// `<hook_context>…</hook_context>` blocks Gemini puts before the prompt for a
// hook's additional context (Baton's hand-over among them): Gemini itself
// leaves the first two kinds out when it rebuilds a session
// (isIgnoredUserContent in the 0.61.0 bundle).
import type { Json } from './userWords';
import { isObject, jsonLines, text } from './userWords';

const HOOK_CONTEXT = /<hook_context>[\s\S]*?(?:<\/hook_context>|$)/g;
const NOT_TYPED = /^\s*<session_context>|<state_snapshot>/;

/** What the person typed in one message record (see above), "" for Gemini's own context. */
export function geminiTyped(record: Json): string {
  const content = record.displayContent ?? record.content;
  let said = '';
  if (typeof content === 'string') said = content;
  else if (Array.isArray(content)) said = content.map((part) => (isObject(part) ? text(part.text) : text(part))).join('');
  else if (isObject(content)) said = text(content.text);
  if (NOT_TYPED.test(said)) return '';
  return said.replace(HOOK_CONTEXT, '').trim();
}

/** The message records of a window in order, each id once (its latest version), after rewinds. */
function messageRecords(records: unknown[]): Json[] {
  const byId = new Map<string, Json>();
  const put = (r: unknown): void => {
    if (!isObject(r) || typeof r.id !== 'string' || typeof r.type !== 'string') return;
    // A repeated id keeps its place: Gemini updates a record (its tokens, its tool calls) in place.
    byId.set(r.id, r);
  };
  for (const r of records) {
    if (!isObject(r)) continue;
    if (typeof r.$rewindTo === 'string') {
      if (!byId.has(r.$rewindTo)) byId.clear();
      let dropping = false;
      for (const id of [...byId.keys()]) {
        if (id === r.$rewindTo) dropping = true;
        if (dropping) byId.delete(id);
      }
      continue;
    }
    if (isObject(r.$set) && Array.isArray(r.$set.messages)) {
      // A compression's history gives the messages it kept new ids: one already read under another id is no new message.
      const said = new Set([...byId.values()].filter((m) => m.type === 'user').map(geminiTyped));
      for (const m of r.$set.messages) if (!(isObject(m) && m.type === 'user' && typeof m.id === 'string' && !byId.has(m.id) && said.has(geminiTyped(m)) && geminiTyped(m))) put(m);
      continue;
    }
    put(r);
  }
  return [...byId.values()];
}

function recordsOf(window: string): unknown[] {
  const trimmed = window.trim();
  // The older single-object file, when the window holds all of it.
  if (trimmed.startsWith('{') && trimmed.includes('"messages"')) {
    try {
      const whole: unknown = JSON.parse(trimmed);
      if (isObject(whole) && Array.isArray(whole.messages) && whole.$set === undefined) return whole.messages;
    } catch {
      // JSONL after all, or a cut window
    }
  }
  return jsonLines(window);
}

export function geminiMessages(window: string): string[] {
  return messageRecords(recordsOf(window))
    .filter((r) => r.type === 'user')
    .map(geminiTyped)
    .filter(Boolean);
}

/** What a chat recording says about Gemini's next compression check (see geminiCompresses in app/agentHooks.ts). */
export interface GeminiContext {
  /** The prompt tokens the model last reported since Gemini's chat last (re)started, null when none since. */
  promptTokens: number | null;
  /** The model that reported them ("" when unknown). */
  model: string;
  /** Is there anything Gemini could compress: a message typed after the first, or a finished answer? */
  splittable: boolean;
}

/**
 * Reads a window of a chat recording as Gemini's compression check sees the
 * session. Gemini compares its last reported prompt token count, which a
 * restart of its chat (a `$set` of `sessionId` or `messages`: a resume, a
 * compression) resets to an estimate of the history, with its threshold; and
 * it compresses only up to a user message that is no tool result, so a
 * session of one prompt in the middle of its tool calls has nothing to
 * compress (ChatCompressionService, findCompressSplitPoint in the 0.61.0 bundle).
 * Null when the window holds no Gemini record at all.
 */
export function geminiContext(window: string): GeminiContext | null {
  const records = recordsOf(window);
  let promptTokens: number | null = null;
  let model = '';
  let any = false;
  for (const r of records) {
    if (!isObject(r)) continue;
    if (isObject(r.$set) && ('sessionId' in r.$set || 'messages' in r.$set)) {
      any = true;
      promptTokens = null;
      model = '';
      continue;
    }
    if (r.type !== 'gemini') continue;
    any = true;
    const input = isObject(r.tokens) ? r.tokens.input : undefined;
    if (typeof input === 'number' && Number.isFinite(input)) {
      promptTokens = input;
      model = text(r.model);
    }
  }
  const messages = messageRecords(records);
  if (!any && !messages.length) return null;
  const last = messages.filter((m) => m.type === 'user' || m.type === 'gemini').at(-1);
  const answered = last?.type === 'gemini' && !(Array.isArray(last.toolCalls) && last.toolCalls.length) && typeof last.content === 'string' && last.content.trim() !== '';
  const typedCount = messages.filter((m) => m.type === 'user' && geminiTyped(m) !== '').length;
  return { promptTokens, model, splittable: answered || typedCount > 1 };
}

// What the user said in a Gemini CLI chat recording, the file its hooks name
// as `transcript_path` (docs/hooks/reference.md, the base input of every event,
// PreCompress included). Read from google-gemini/gemini-cli
// packages/core/src/services/chatRecordingService.ts and chatRecordingTypes.ts:
// a session is JSONL (`session-….jsonl`): a metadata line
// (`sessionId`, `projectHash`), message records `{id, timestamp, type:
// "user"|"gemini"|"info"|"error"|"warning", content, displayContent?}` (a
// record repeated with the same id replaces the earlier one), `{"$set":…}`
// metadata updates, and `{"$rewindTo": id}`, which drops that message and all
// after it. Older versions wrote one JSON object with a `messages` array. The
// user typed `displayContent` when present (`content` then holds what was sent,
// with @-file expansions), else `content`: a string or a list of parts with `text`.
import type { Json } from './userWords';
import { isObject, jsonLines, text } from './userWords';

function typed(record: Json): string {
  const content = record.displayContent ?? record.content;
  if (typeof content === 'string') return content.trim();
  if (Array.isArray(content)) return content.map((part) => (isObject(part) ? text(part.text) : text(part))).join('').trim();
  if (isObject(content)) return text(content.text).trim();
  return '';
}

function fromRecords(records: unknown[]): string[] {
  const byId = new Map<string, string>();
  for (const r of records) {
    if (!isObject(r)) continue;
    if (typeof r.$rewindTo === 'string') {
      let dropping = false;
      for (const id of [...byId.keys()]) {
        if (id === r.$rewindTo) dropping = true;
        if (dropping) byId.delete(id);
      }
      continue;
    }
    if (typeof r.id !== 'string' || r.type !== 'user') continue;
    const said = typed(r);
    byId.delete(r.id);
    if (said) byId.set(r.id, said);
  }
  return [...byId.values()];
}

export function geminiMessages(window: string): string[] {
  const trimmed = window.trim();
  // The older single-object file, when the window holds all of it.
  if (trimmed.startsWith('{') && trimmed.includes('"messages"')) {
    try {
      const whole: unknown = JSON.parse(trimmed);
      if (isObject(whole) && Array.isArray(whole.messages)) return fromRecords(whole.messages);
    } catch {
      // JSONL after all, or a cut window
    }
  }
  return fromRecords(jsonLines(window));
}

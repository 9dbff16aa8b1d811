// A past Gemini CLI session from its chat recording,
// `~/.gemini/tmp/<project>/chats/session-….jsonl` (older versions: one
// `session-….json` object with `messages`), the format gemini.ts describes
// and cites. Read here: the metadata line (`sessionId`, `startTime`,
// `lastUpdated`), message records (`user` as gemini.ts reads what was typed,
// `gemini` whose string `content` is the answer), each with its `toolCalls`
// ({id, name, args, status}); a record repeated with its id, or listed again in
// a `$set` of `messages`, is the same message, so its tool calls count once.
// Edit tools are the hooks' (hooks/hosts.ts): write_file and replace with
// args.file_path; the shell is run_shell_command with args.command
// (packages/core/src/tools/definitions/base-declarations.ts). A `$rewindTo`
// is not applied: what was undone still happened on disk.
import { geminiTyped } from './gemini';
import type { PastSession } from './pastSession';
import { answered, asked, edited, field, newSession, ran, seen } from './pastSession';
import { jsonRecords } from './jsonlStream';
import { readForeignUtf8 } from '../foreignFile';
import { isObject, text } from './userWords';

const EDIT = /^(write_file|replace)$/;
/** An older whole-object recording is parsed whole; past this it is left unread (the JSONL ones have no limit). */
const WHOLE_JSON_MAX = 64 * 1024 * 1024;

function records(file: string, s: PastSession): Iterable<unknown> {
  if (!file.endsWith('.json')) return jsonRecords(file, s.tally);
  const whole = readForeignUtf8(file, WHOLE_JSON_MAX);
  if (whole === null) throw Object.assign(new Error(`ENOENT: no such file, open '${file}'`), { code: 'ENOENT' });
  const v: unknown = JSON.parse(whole);
  if (!isObject(v)) return [];
  const { messages, ...meta } = v;
  return [meta, ...(Array.isArray(messages) ? messages : [])];
}

export function readGeminiSession(file: string): PastSession {
  const s = newSession();
  const calls = new Set<string>();
  const message = (r: unknown): void => {
    if (!isObject(r) || typeof r.type !== 'string') return;
    seen(s, r.timestamp);
    if (r.type === 'user') asked(s, geminiTyped(r));
    if (r.type === 'gemini' && typeof r.content === 'string') answered(s, r.content);
    for (const c of Array.isArray(r.toolCalls) ? r.toolCalls : []) {
      if (!isObject(c) || calls.has(text(c.id))) continue;
      calls.add(text(c.id));
      const name = text(c.name);
      if (EDIT.test(name)) edited(s, field(c.args, 'file_path'));
      const command = field(c.args, 'command').trim();
      if (name === 'run_shell_command' && command && c.status === 'error') ran(s, command).failed = true;
      else if (name === 'run_shell_command' && command) ran(s, command);
    }
  };
  for (const r of records(file, s)) {
    if (!isObject(r)) continue;
    if (typeof r.sessionId === 'string') {
      s.id ||= r.sessionId;
      seen(s, r.startTime);
      seen(s, r.lastUpdated);
    }
    if (isObject(r.$set) && Array.isArray(r.$set.messages)) r.$set.messages.forEach(message);
    else message(r);
  }
  return s;
}

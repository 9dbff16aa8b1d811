// What the user said in a Cursor agent transcript. Not from Cursor's own pages
// (cursor.com/docs/agent/hooks is not among the stored copies): from
// entireio/cli cmd/entire/cli/agent/cursor/AGENT.md, written from captured
// payloads and transcripts. Every hook payload carries `transcript_path`
// (null in the CLI's headless mode); the file is JSONL at
// `~/.cursor/projects/<workspace path, non-alphanumerics as "-">/agent-transcripts/`
// `<conversation_id>.jsonl` (the IDE nests it: `<id>/<id>.jsonl`), each line
// `{"role":"user"|"assistant","message":{"content":[{"type":"text","text":…}]}}`,
// the person's words inside `<user_query>…</user_query>`, sometimes after a
// `<timestamp>…</timestamp>` Cursor adds.
import * as fs from 'fs';
import * as path from 'path';
import { isObject, jsonLines, text } from './userWords';

const QUERY = /<user_query>([\s\S]*?)<\/user_query>/;
const STAMP = /^\s*<timestamp>[\s\S]*?<\/timestamp>/;

export function cursorMessages(jsonl: string): string[] {
  const out: string[] = [];
  for (const line of jsonLines(jsonl)) {
    if (!isObject(line) || line.role !== 'user' || !isObject(line.message)) continue;
    const content = line.message.content;
    const raw =
      typeof content === 'string'
        ? content
        : Array.isArray(content)
          ? content
              .filter((c) => isObject(c) && c.type === 'text')
              .map((c) => text((c as Record<string, unknown>).text))
              .join('\n')
          : '';
    const query = QUERY.exec(raw);
    const said = (query ? query[1] : raw.replace(STAMP, '')).trim();
    if (said) out.push(said);
  }
  return out;
}

/**
 * Where Cursor keeps a conversation's transcript when its payload names none
 * (its CLI sends `transcript_path: null`): the flat or the nested layout under
 * the workspace's project folder, or "" when neither exists.
 */
export function cursorTranscriptFor(home: string, workspaceRoot: string, conversationId: string): string {
  if (!home || !workspaceRoot || !/^[\w-]+$/.test(conversationId)) return '';
  const dir = path.join(home, '.cursor', 'projects', workspaceRoot.replace(/^\/+/, '').replace(/[^A-Za-z0-9]/g, '-'), 'agent-transcripts');
  for (const file of [path.join(dir, `${conversationId}.jsonl`), path.join(dir, conversationId, `${conversationId}.jsonl`)]) {
    if (fs.existsSync(file)) return file;
  }
  return '';
}

// What the user said in a Copilot CLI session log, the file its preCompact
// payload names (`transcriptPath`, or `transcript_path` in the VS Code
// compatible form; docs.github.com/en/copilot/reference/copilot-cli-reference/
// cli-command-reference, "Hook event input payloads", preCompact). The log's
// format is not in GitHub's docs; read from how tools that parse it describe
// it (for example the `~/.copilot/session-state/<id>/events.jsonl` fixtures in
// public parsers): JSONL events `{"type","data","id","timestamp","parentId"}`,
// the person's message a `user.message` event with `data.content` (the prompt
// as sent, with Copilot's additions, is `data.transformedContent`, not read).
import { isObject, jsonLines, text } from './userWords';

/** The person's message on one session-log event, "" when the event is none. */
export function copilotSaid(e: unknown): string {
  if (!isObject(e) || e.type !== 'user.message' || !isObject(e.data)) return '';
  if (e.data.source !== undefined && e.data.source !== 'user') return '';
  return text(e.data.content).trim();
}

export function copilotMessages(jsonl: string): string[] {
  return jsonLines(jsonl).map(copilotSaid).filter(Boolean);
}

// What the user said in a Claude Code transcript: the file its hooks name as
// `transcript_path` (code.claude.com/docs/en/hooks, the input every hook gets).
// Its lines are not documented there; they are JSONL events as Claude Code
// writes them, `{"type":"user","message":{"role":"user","content":…}}` among
// others (the shapes in test/unit/hooks.test.ts). Only the user's own words
// are wanted: tool results, command echoes, injected reminders and compaction
// summaries all arrive as "user" lines too, and quoting them as the user
// speaking would put words in a person's mouth in a record others trust.
import type { Json } from './userWords';
import { isObject, jsonLines } from './userWords';

// Lines Claude Code writes into the user's turn on their behalf: slash-command
// echoes, local command output, hook and system reminders, interruptions.
const NOT_SPOKEN =
  /^\s*(?:<(?:command-name|command-message|command-args|local-command-stdout|local-command-stderr|system-reminder|user-prompt-submit-hook|bash-input|bash-stdout|bash-stderr)>|\[Request interrupted by user)/;
const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

/**
 * The text a person typed on one transcript line, or "" when the line is not
 * the user speaking: another role, a meta or sidechain (sub-agent) line, a
 * compaction summary, a line carrying a tool result, or an injected echo.
 */
export function spokenText(event: unknown): string {
  if (!isObject(event) || event.type !== 'user') return '';
  if (event.isMeta === true || event.isSidechain === true || event.isCompactSummary === true || event.isVisibleInTranscriptOnly === true) return '';
  if ('toolUseResult' in event) return '';
  const message = event.message;
  if (!isObject(message) || (message.role !== undefined && message.role !== 'user')) return '';
  const content = message.content;
  let text = '';
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    // A tool result anywhere in the line means the line is the tool talking.
    if (content.some((part) => isObject(part) && part.type === 'tool_result')) return '';
    text = content
      .filter((part): part is Json => isObject(part) && part.type === 'text' && typeof part.text === 'string')
      .map((part) => part.text as string)
      .join('\n');
  }
  text = text.replace(REMINDER, '').trim();
  if (!text || NOT_SPOKEN.test(text)) return '';
  return text;
}

/** The user's messages in a window of a Claude Code transcript, oldest first. */
export function claudeMessages(jsonl: string): string[] {
  return jsonLines(jsonl).map(spokenText).filter(Boolean);
}

// What the user said in a Codex CLI rollout, the JSONL file its hooks name as
// `transcript_path` (codex-rs/hooks/schema/generated/pre-compact.command.input.schema.json:
// `transcript_path` string or null, beside session_id, turn_id, cwd, model, trigger).
// Each line is a RolloutLine, `{"timestamp","type","payload"}`, the item tagged
// by `type` with its content in `payload` (codex-rs/protocol/src/protocol.rs,
// `#[serde(tag = "type", content = "payload", rename_all = "snake_case")] enum RolloutItem`).
// What the person typed is an `event_msg` whose payload is
// `{"type":"user_message","message":…}` (EventMsg::UserMessage). The same turn
// also appears as a `response_item` user message, mixed with what Codex
// injects on the user's behalf (`<user_instructions>`, `<environment_context>`,
// AGENTS.md): those are read only from a rollout that has no user_message
// event at all, and the injected ones skipped.
import { isObject, jsonLines, text } from './userWords';

const INJECTED = /^\s*(?:<(?:user_instructions|environment_context|user_shell_command|turn_aborted)>|# AGENTS\.md instructions)/;

export function codexMessages(jsonl: string): string[] {
  const events: string[] = [];
  const items: string[] = [];
  for (const line of jsonLines(jsonl)) {
    if (!isObject(line) || !isObject(line.payload)) continue;
    const p = line.payload;
    if (line.type === 'event_msg' && p.type === 'user_message') {
      // Older rollouts said which user messages Codex wrote itself (`kind`).
      if (p.kind !== undefined && p.kind !== 'plain') continue;
      const said = text(p.message).trim();
      if (said && !INJECTED.test(said)) events.push(said);
    } else if (line.type === 'response_item' && p.type === 'message' && p.role === 'user' && Array.isArray(p.content)) {
      const said = p.content
        .filter((c) => isObject(c) && c.type === 'input_text')
        .map((c) => text((c as Record<string, unknown>).text))
        .join('\n')
        .trim();
      if (said && !INJECTED.test(said)) items.push(said);
    }
  }
  return events.length ? events : items;
}

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

/**
 * What the person typed on one rollout line: `event` from a user_message
 * event, `item` from a user response_item (read only where a rollout has no
 * such event), or null when the line is not the person speaking.
 */
export function codexSaid(line: unknown): { from: 'event' | 'item'; text: string } | null {
  if (!isObject(line) || !isObject(line.payload)) return null;
  const p = line.payload;
  if (line.type === 'event_msg' && p.type === 'user_message') {
    // Older rollouts said which user messages Codex wrote itself (`kind`).
    if (p.kind !== undefined && p.kind !== 'plain') return null;
    const said = text(p.message).trim();
    return said && !INJECTED.test(said) ? { from: 'event', text: said } : null;
  }
  if (line.type === 'response_item' && p.type === 'message' && p.role === 'user' && Array.isArray(p.content)) {
    const said = p.content
      .filter((c) => isObject(c) && c.type === 'input_text')
      .map((c) => text((c as Record<string, unknown>).text))
      .join('\n')
      .trim();
    return said && !INJECTED.test(said) ? { from: 'item', text: said } : null;
  }
  return null;
}

export function codexMessages(jsonl: string): string[] {
  const events: string[] = [];
  const items: string[] = [];
  for (const line of jsonLines(jsonl)) {
    const said = codexSaid(line);
    if (said) (said.from === 'event' ? events : items).push(said.text);
  }
  return events.length ? events : items;
}

// The JSON an agent's hook sends on stdin, read defensively: it comes from
// another program whose contract changes between versions, so every field is
// checked for its type and a missing one reads as "".
import type { HookPayload } from '../app/agentHooks';

export class MalformedPayload extends Error {}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * Parses a hook payload. Refuses (MalformedPayload) anything that is not a JSON
 * object, so a hook run by hand or by an agent with another contract writes
 * nothing; the message never quotes the input, which may hold secrets.
 */
export function parsePayload(raw: string): HookPayload {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new MalformedPayload(`the hook payload on stdin is not JSON (${raw.length} bytes)`);
  }
  if (!isObject(value)) throw new MalformedPayload('the hook payload on stdin is not a JSON object');
  const roots = Array.isArray(value.workspace_roots) ? value.workspace_roots.filter((r) => typeof r === 'string') : [];
  return {
    sessionId: text(value.session_id) || text(value.conversation_id),
    transcriptPath: text(value.transcript_path),
    cwd: text(value.cwd) || (roots[0] as string | undefined) || '',
    source: text(value.source),
    trigger: text(value.trigger),
    reason: text(value.reason),
    toolName: text(value.tool_name),
    toolInput: isObject(value.tool_input) ? value.tool_input : {},
  };
}

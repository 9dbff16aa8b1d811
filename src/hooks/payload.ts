// The JSON an agent's hook sends on stdin, read defensively: it comes from
// another program whose contract changes between versions, so every field is
// checked for its type and a missing one reads as "". Hosts spell the same
// field differently (Claude, Codex, Gemini: snake_case; VS Code and Copilot
// CLI: camelCase; Cursor: conversation_id and workspace_roots), see hosts.ts.
import type { HookPayload } from '../app/editHooks';
import type { Host } from './hosts';
import { detectHost, editedFiles, toolNameOf } from './hosts';
import { shellCallOf } from './shellRun';

export class MalformedPayload extends Error {}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

/**
 * Parses a hook payload and names its host (the one the hook was installed
 * for unless the payload says otherwise). Refuses (MalformedPayload) anything
 * that is not a JSON object, so a hook run by hand or by an agent with another
 * contract writes nothing; the message never quotes the input, which may hold secrets.
 */
export function parsePayload(raw: string, installedFor: Host = 'claude-code'): HookPayload & { host: Host } {
  // Compaction fields: Claude Code's custom_instructions (hooks.md, "PreCompact
  // input"), Copilot CLI's customInstructions / custom_instructions (cli-command-reference,
  // "preCompact"), Cursor's context_usage_percent, message_count, messages_to_compact
  // (not Cursor's page: entireio/cli's and other parsers' captured preCompact payloads).
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new MalformedPayload(`the hook payload on stdin is not JSON (${raw.length} bytes)`);
  }
  if (!isObject(value)) throw new MalformedPayload('the hook payload on stdin is not a JSON object');
  const host = detectHost(value, installedFor);
  const roots = Array.isArray(value.workspace_roots) ? value.workspace_roots.filter((r): r is string => typeof r === 'string') : [];
  return {
    host,
    sessionId: text(value.session_id) || text(value.conversation_id) || text(value.sessionId),
    transcriptPath: text(value.transcript_path) || text(value.transcriptPath),
    cwd: text(value.cwd) || roots[0] || '',
    roots,
    source: text(value.source),
    // Copilot CLI's sessionStart `initialPrompt` (FACTS.md, 1.0.102): the person's words before any hook added to them.
    prompt: text(value.initialPrompt) || text(value.initial_prompt),
    trigger: text(value.trigger),
    instructions: text(value.custom_instructions) || text(value.customInstructions),
    context: { percent: count(value.context_usage_percent), messages: count(value.message_count), toCompact: count(value.messages_to_compact) },
    // Why it ended: a session end's `reason` (Claude Code, Copilot CLI), Cursor's stop `status`, Copilot CLI's agentStop
    // `stopReason` (1.0.102: "end_turn", FACTS.md); Claude's, Codex's and Gemini's turn ends name none.
    reason: text(value.reason) || text(value.status) || text(value.stopReason),
    toolName: toolNameOf(value),
    toolInput: isObject(value.tool_input) ? value.tool_input : {},
    toolUseId: text(value.tool_use_id),
    edited: editedFiles(value, host),
    shell: shellCallOf(value, host, toolNameOf(value)),
  };
}

// A past Codex CLI session from its rollout,
// `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<session id>.jsonl` (CODEX_HOME
// moves `~/.codex`; src/adapters/agents/FACTS.md, "Codex CLI 0.169.0"). Each
// line is `{timestamp, type, payload}` (codex-rs/protocol/src/protocol.rs,
// RolloutItem; codex.ts). Read here, as the real 0.169.0 wrote them
// (test/fixtures/transcripts/codex/): `session_meta` ({id, cwd, git: {branch,
// commit_hash}}), `turn_context` ({cwd}); the person's words as codex.ts reads
// them; the agent's answers as `event_msg` agent_message / task_complete
// (`last_agent_message`) or an assistant `response_item` (output_text); edits
// as the `changes` of an `item_completed` FileChange or of the older
// `patch_apply_begin` event; commands as `exec_command_end` ({command,
// exit_code}) or a `shell`/`exec_command` function_call whose output states
// "Exit code: N".
import { codexSaid } from './codex';
import type { PastCommand, PastSession } from './pastSession';
import { answered, asked, commandLine, edited, exitIn, field, newSession, ran, seen, unknownType } from './pastSession';
import { jsonRecords } from './jsonlStream';
import type { Json } from './userWords';
import { isObject, text } from './userWords';

const KNOWN = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted', 'world_state', 'token_usage_record']);
const SHELL = /^(shell|exec_command|local_shell|container\.exec)$/;

const editsOf = (s: PastSession, changes: unknown): void => {
  if (isObject(changes)) for (const f of Object.keys(changes)) edited(s, f);
};

function argsOf(v: unknown): Json {
  if (isObject(v)) return v;
  try {
    const parsed: unknown = JSON.parse(text(v));
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

export function readCodexSession(file: string): PastSession {
  const s = newSession();
  let fromItems = '';
  let events = false;
  const byCall = new Map<string, PastCommand>();
  const run = (command: string, callId: string, exit?: number): void => {
    if (!command || byCall.has(callId)) return;
    const cmd = ran(s, command, exit);
    if (callId) byCall.set(callId, cmd);
  };
  for (const line of jsonRecords(file, s.tally)) {
    if (!isObject(line)) continue;
    if (!KNOWN.has(text(line.type))) {
      unknownType(s, line.type);
      continue;
    }
    seen(s, line.timestamp);
    const p = isObject(line.payload) ? line.payload : {};
    const said = codexSaid(line);
    if (said?.from === 'event' && !events) {
      // A user_message event is the person's own words: it outranks what a response_item gave.
      events = true;
      s.task = '';
      asked(s, said.text);
    } else if (said?.from === 'item' && !events) {
      fromItems ||= said.text;
      asked(s, said.text);
    }
    if (line.type === 'session_meta') {
      s.id ||= text(p.id);
      s.cwd ||= text(p.cwd);
      s.branch ||= field(p.git, 'branch');
      s.commit ||= field(p.git, 'commit_hash');
    } else if (line.type === 'turn_context') s.cwd ||= text(p.cwd);
    else if (line.type === 'event_msg') {
      if (p.type === 'agent_message') answered(s, p.message);
      else if (p.type === 'task_complete') answered(s, p.last_agent_message);
      else if (p.type === 'patch_apply_begin') editsOf(s, p.changes);
      else if (p.type === 'exec_command_end') {
        const prior = byCall.get(text(p.call_id));
        if (prior && typeof p.exit_code === 'number') prior.exit = p.exit_code;
        else run(commandLine(p.command), text(p.call_id), typeof p.exit_code === 'number' ? p.exit_code : undefined);
      } else if (p.type === 'item_completed' && isObject(p.item) && p.item.type === 'FileChange') editsOf(s, p.item.changes);
    } else if (line.type === 'response_item') {
      if (p.type === 'message' && p.role === 'assistant' && Array.isArray(p.content)) {
        answered(
          s,
          p.content
            .filter((c) => isObject(c) && c.type === 'output_text')
            .map((c) => text((c as Json).text))
            .join('\n'),
        );
      } else if ((p.type === 'function_call' || p.type === 'local_shell_call') && SHELL.test(text(p.name) || 'local_shell')) {
        const a = argsOf(p.type === 'local_shell_call' ? p.action : p.arguments);
        run(commandLine(a.command ?? a.cmd), text(p.call_id));
      } else if (p.type === 'function_call_output') {
        const cmd = byCall.get(text(p.call_id));
        const exit = exitIn(isObject(p.output) ? p.output.content : p.output);
        if (cmd && cmd.exit === undefined && exit !== undefined) cmd.exit = exit;
        // The output is a call's last line: what streams on holds only the calls still running.
        byCall.delete(text(p.call_id));
      }
    }
  }
  if (!s.task && fromItems) asked(s, fromItems);
  return s;
}

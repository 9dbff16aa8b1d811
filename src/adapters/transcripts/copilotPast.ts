// A past Copilot CLI session from its log,
// `~/.copilot/session-state/<session id>/events.jsonl` (COPILOT_HOME moves
// `~/.copilot`; src/adapters/agents/FACTS.md, "Copilot CLI"). Events as the
// real 1.0.102 wrote them (test/fixtures/transcripts/copilot/):
// `{type, data, id, timestamp, parentId}`; `session.start` names the session
// (`data.sessionId`) and its folder and git state (`data.context`: cwd,
// gitRoot, branch, headCommit); the person's words are `user.message`
// (copilot.ts); the agent's `assistant.message` (`data.content`, "" on a turn
// of tool calls only); a tool's run `tool.execution_start` ({toolCallId,
// toolName, arguments}) then `tool.execution_complete` ({toolCallId, success,
// fileEdits: [{path}]}). Its edit tools are the hooks' (hooks/hosts.ts): edit
// and create with an absolute `path`, apply_patch whose edits fileEdits names.
import { copilotSaid } from './copilot';
import type { PastCommand, PastSession } from './pastSession';
import { answered, asked, edited, field, newSession, ran, seen, unknownType } from './pastSession';
import { jsonRecords } from './jsonlStream';
import { isObject, text } from './userWords';

const SHELL = /^(bash|shell|powershell|run_in_terminal)$/;
const KNOWN = /^(session|user|assistant|tool|hook|system|subagent|skill|abort|permission|model)\./;

export function readCopilotSession(file: string): PastSession {
  const s = newSession();
  const running = new Map<string, PastCommand>();
  for (const e of jsonRecords(file, s.tally)) {
    if (!isObject(e)) continue;
    const type = text(e.type);
    if (!KNOWN.test(type)) {
      unknownType(s, e.type);
      continue;
    }
    seen(s, e.timestamp);
    const d = isObject(e.data) ? e.data : {};
    if (type === 'session.start') {
      s.id ||= text(d.sessionId);
      const c = isObject(d.context) ? d.context : {};
      s.cwd ||= text(c.cwd) || text(c.gitRoot);
      s.branch ||= text(c.branch);
      s.commit ||= text(c.headCommit);
    } else if (type === 'user.message') asked(s, copilotSaid(e));
    else if (type === 'assistant.message' && !d.parentToolCallId) answered(s, d.content);
    else if (type === 'tool.execution_start') {
      const name = text(d.toolName);
      if (name === 'edit' || name === 'create') edited(s, field(d.arguments, 'path'));
      const command = field(d.arguments, 'command').trim();
      if (SHELL.test(name) && command) {
        running.set(text(d.toolCallId), ran(s, command));
      }
    } else if (type === 'tool.execution_complete') {
      for (const f of Array.isArray(d.fileEdits) ? d.fileEdits : []) edited(s, field(f, 'path'));
      const cmd = running.get(text(d.toolCallId));
      if (cmd && d.success === false) cmd.failed = true;
      running.delete(text(d.toolCallId));
    }
  }
  return s;
}

// A past Claude Code session from its transcript,
// `~/.claude/projects/<cwd, "/" as "-">/<session id>.jsonl` (CLAUDE_CONFIG_DIR
// moves `~/.claude`; src/adapters/agents/FACTS.md, "Claude Code 2.1.328", and
// claudeCodeConfig.ts claudeDir). Lines as the real 2.1.328 wrote them
// (test/fixtures/transcripts/claude-code/): every user/assistant line carries
// `sessionId`, `cwd`, `gitBranch` and `timestamp`; an assistant line's
// `message.content` holds `text` and `tool_use` parts ({id, name, input}); the
// result comes back on a user line as a `tool_result` part ({tool_use_id,
// is_error}). Edit tools are those the hooks read (hooks/hosts.ts): Edit,
// Write, MultiEdit, NotebookEdit with input.file_path / notebook_path.
import { spokenText } from './claude';
import type { PastCommand, PastSession } from './pastSession';
import { answered, asked, edited, newSession, ran, seen, unknownType } from './pastSession';
import { jsonRecords } from './jsonlStream';
import { isObject, text } from './userWords';

const EDIT = /^(Edit|Write|MultiEdit|NotebookEdit)$/;
// The line types Claude Code writes that carry nothing an import reads (FACTS.md, "Transcripts").
const KNOWN = new Set([
  'user',
  'assistant',
  'system',
  'attachment',
  'summary',
  'file-history-snapshot',
  'api-request',
  'api-request-blob',
  'queue-operation',
  'last-prompt',
  'progress',
  'custom-title',
  'tag',
]);

export function readClaudeSession(file: string): PastSession {
  const s = newSession();
  const running = new Map<string, PastCommand>();
  for (const r of jsonRecords(file, s.tally)) {
    if (!isObject(r)) continue;
    if (!KNOWN.has(text(r.type))) {
      unknownType(s, r.type);
      continue;
    }
    seen(s, r.timestamp);
    if (!s.id && text(r.sessionId)) s.id = text(r.sessionId);
    if (!s.cwd && text(r.cwd)) s.cwd = text(r.cwd);
    if (text(r.gitBranch) && r.gitBranch !== 'HEAD') s.branch = text(r.gitBranch);
    const said = spokenText(r);
    if (said) asked(s, said);
    const content = isObject(r.message) && Array.isArray(r.message.content) ? r.message.content : [];
    for (const part of content) {
      if (!isObject(part)) continue;
      if (r.type === 'assistant' && part.type === 'tool_use' && isObject(part.input)) {
        const name = text(part.name);
        if (EDIT.test(name)) edited(s, part.input.file_path || part.input.notebook_path);
        if (name === 'Bash' && text(part.input.command).trim()) {
          running.set(text(part.id), ran(s, text(part.input.command).trim()));
        }
      } else if (r.type === 'user' && part.type === 'tool_result') {
        const cmd = running.get(text(part.tool_use_id));
        if (cmd && part.is_error === true) cmd.failed = true;
        running.delete(text(part.tool_use_id));
      }
    }
    // A sub-agent's answer goes to Claude, not to the person.
    if (r.type === 'assistant' && r.isSidechain !== true && content.length) {
      answered(
        s,
        content
          .filter((p) => isObject(p) && p.type === 'text')
          .map((p) => text((p as Record<string, unknown>).text))
          .join('\n'),
      );
    }
  }
  return s;
}

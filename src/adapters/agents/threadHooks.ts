// The session-start hooks `baton thread enable` commits into a repository, so
// a cloud agent with nothing installed prints the shared hand-over
// (agent-thread/, core/repoThreadText.ts) as its session begins.
//
// Facts, from the agents' documentation:
// - Copilot's cloud agent runs `.github/hooks/*.json` "present on your
//   repository's default branch"; Copilot CLI loads the same files from its
//   working directory (docs.github.com/en/copilot/how-tos/use-copilot-agents/cloud-agent/use-hooks,
//   "Creating a hook in a repository on GitHub"). Shape {"version": 1, "hooks":
//   {"sessionStart": [{"type": "command", "bash", "powershell", "timeoutSec"}]}}
//   (docs.github.com/en/copilot/reference/hooks-configuration, "Session start
//   hook"). That page says a session start's output is ignored; Copilot CLI
//   1.0.102 reads a top-level {"additionalContext"} (copilotConfig.ts, FACTS.md),
//   so the hook prints that JSON, made beforehand (agent-thread/session-start.json):
//   with no program of Baton's, `cat` is all it runs. Where the output is
//   ignored, the AGENTS.md block is what points the agent at the hand-over.
// - Claude Code runs the SessionStart hooks of the project's committed
//   `.claude/settings.json` and adds their plain stdout to the context
//   (code.claude.com/docs/en/hooks, "Hook locations", "SessionStart" and
//   "Exit code 0"; the mirror ericbuess/claude-code-docs docs/hooks.md, as
//   claudeCodeConfig.ts cites); `$CLAUDE_PROJECT_DIR` is the project's root in
//   a hook's environment (hooks.md, "Project-specific hook scripts"). A new
//   settings file names its JSON schema, json.schemastore.org/claude-code-settings.json
//   (anthropics/claude-code#11795), which also tells a file Baton made from a
//   person's `{}` when the hook goes out again.
// - A person who has Baton connected gets the hand-over from Baton's own hook
//   (claudeCodeConfig.ts, copilotConfig.ts: `… hook claude-code session-start`,
//   `… hook copilot session-start`). So each committed hook first looks for
//   that hook in the person's own files (user settings, local settings; for a
//   project-scope connect, the project's file and `baton` on PATH) and prints
//   nothing when it is there: nobody reads the hand-over twice. The pattern is
//   written `claude-cod[e]` so the hook never finds its own line.
import type { HookSet } from './jsonEdit';
import { hasExactGroup, insertGroup, removeGroup } from './claudeThreadSettings';
import { readJson, setAt } from './jsonEdit';

const CLAUDE_SCHEMA = 'https://json.schemastore.org/claude-code-settings.json';

/** `sh` for "Baton's own hook of AGENT is configured in one of FILES (or in PROJECT_FILES with `baton` on PATH)". */
function batonConnected(agent: string, files: string, projectFiles: string): string {
  const pattern = `'hook ${agent.slice(0, -1)}[${agent.slice(-1)}] session-start'`;
  return `grep -qs ${pattern} ${files} || { command -v baton >/dev/null 2>&1 && grep -qs ${pattern} ${projectFiles}; }`;
}

/** Claude Code's hook: the session-start text, unless Baton's own hook prints it. Runs in `sh`, needs only grep and cat. */
export function claudeThreadCommand(handover: string): string {
  const project = '"${CLAUDE_PROJECT_DIR:-.}"';
  const connected = batonConnected(
    'claude-code',
    `"\${CLAUDE_CONFIG_DIR:-$HOME/.claude}/settings.json" ${project}/.claude/settings.local.json`,
    `${project}/.claude/settings.json`,
  );
  return `${connected} || cat ${project}/${handover} 2>/dev/null || true`;
}

/** Copilot's hook: the hand-over's JSON, unless Baton's own hook prints it; PowerShell (Windows) prints it whenever it is there. */
export function copilotThreadHooks(hookJson: string): string {
  const connected = batonConnected('copilot', '"${COPILOT_HOME:-$HOME/.copilot}"/hooks/*.json', '.github/hooks/*.json');
  const entry = {
    type: 'command',
    bash: `${connected} || cat ${hookJson} 2>/dev/null || true`,
    powershell: `if (Test-Path '${hookJson}') { Get-Content -Raw '${hookJson}' }`,
    timeoutSec: 10,
  };
  return JSON.stringify({ version: 1, hooks: { sessionStart: [entry] } }, null, 2) + '\n';
}

/** Whether a Copilot hooks file is the one enable writes (it names the hand-over's JSON), so disable may remove it. */
export const isCopilotThreadFile = (text: string, hookJson: string): boolean => text.includes(`cat ${hookJson}`);

function claudeSet(handover: string): HookSet {
  return {
    shape: 'nested',
    commandKey: 'command',
    // By its folder, not its file: an older thread hook (another file of the folder) is replaced, never doubled.
    isOurs: (command) => typeof command === 'string' && command.includes(`/${handover.split('/')[0]}/`) && command.includes('CLAUDE_PROJECT_DIR'),
    entries: [{ event: 'SessionStart', entry: { hooks: [{ type: 'command', command: claudeThreadCommand(handover), timeout: 10 }] } }],
  };
}

/** What a settings file Baton created holds once its hook is out again: only the schema line. */
const createdRest = (): string => setAt(null, ['$schema'], CLAUDE_SCHEMA);

/**
 * The project's Claude Code settings with the thread's SessionStart group
 * beside the person's own (claudeThreadSettings.ts: one splice, undone
 * exactly); the same text when it is there. A missing or blank file becomes
 * one naming the settings schema, its blank kept after it.
 */
export function withClaudeThreadHook(text: string | null, handover: string, file: string): string {
  const set = claudeSet(handover);
  const group = set.entries[0].entry;
  if (text === null || text.trim() === '') return insertGroup(createdRest() + (text ?? ''), group, file);
  readJson(text, file);
  if (hasExactGroup(text, set, group)) return text;
  return insertGroup(removeGroup(text, set, file), group, file);
}

/** The settings without the thread's hook, the rest byte for byte; null when Baton made the file and nothing else is left. */
export function withoutClaudeThreadHook(text: string, handover: string, file: string): string | null {
  const out = removeGroup(text, claudeSet(handover), file);
  const made = createdRest();
  if (out === text || !out.startsWith(made) || out.slice(made.length).trim() !== '') return out;
  const blank = out.slice(made.length);
  return blank === '' ? null : blank;
}

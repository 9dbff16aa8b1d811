// The agents whose past sessions `baton import` reads (issue 27), by the
// names their hooks write as (hooks/hosts.ts AGENT_OF): one list for the
// command's arguments, its help and the readers.
export type ImportAgent = 'claude-code' | 'codex' | 'gemini' | 'copilot' | 'vscode-copilot' | 'cursor';
export const IMPORT_AGENTS: readonly ImportAgent[] = ['claude-code', 'codex', 'gemini', 'copilot', 'vscode-copilot', 'cursor'];

/** The agent a checkpoint names, as the hooks write it: VS Code's Copilot Chat writes as copilot (hooks/hosts.ts AGENT_OF). */
export const AGENT_NAME_OF: Record<ImportAgent, string> = {
  'claude-code': 'claude-code',
  codex: 'codex',
  gemini: 'gemini',
  copilot: 'copilot',
  'vscode-copilot': 'copilot',
  cursor: 'cursor',
};

/** How a person knows each agent (the editor's pick of what to import). */
export const IMPORT_AGENT_LABELS: Record<ImportAgent, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex CLI',
  gemini: 'Gemini CLI',
  copilot: 'GitHub Copilot CLI',
  'vscode-copilot': 'VS Code Copilot Chat',
  cursor: 'Cursor',
};

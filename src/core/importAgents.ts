// The agents whose past sessions `baton import` reads (issue 27), by the
// names their hooks write as (hooks/hosts.ts AGENT_OF): one list for the
// command's arguments, its help and the readers.
export type ImportAgent = 'claude-code' | 'codex' | 'gemini' | 'copilot';
export const IMPORT_AGENTS: readonly ImportAgent[] = ['claude-code', 'codex', 'gemini', 'copilot'];

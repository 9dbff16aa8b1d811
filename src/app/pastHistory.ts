// What history each agent keeps on this machine, at a glance: how many
// session files and since when, by listing and stat-ing them (no file is
// opened), so the editor can offer an import before reading a byte of it.
// The import itself (importSessions.ts) reads them. Cursor is the exception:
// its chats are rows of one SQLite database, counted by reading it.
import type { ImportAgent } from '../core/importAgents';
import { IMPORT_AGENTS } from '../core/importAgents';
import type { SessionFile, Unlisted } from '../adapters/transcripts/sessionFiles';
import { sessionFiles, sessionFolders } from '../adapters/transcripts/sessionFiles';
import { cursorSessionFiles } from '../adapters/transcripts/cursorPast';

export interface AgentHistory {
  agent: ImportAgent;
  /** Session files found (a file that turns out to hold no session is told by the import). */
  sessions: number;
  /** Unix seconds: the oldest and newest file's last write. */
  oldest: number;
  newest: number;
  folder: string;
}

export interface PastHistory {
  /** The agents with at least one session file, in IMPORT_AGENTS' order. */
  found: AgentHistory[];
  /** Every folder looked in, found or not: what an empty answer names. */
  looked: { agent: ImportAgent; folder: string }[];
  /** Folders that exist but could not be listed, with why. */
  unlisted: { source: string; reason: string }[];
}

/** Every agent's session files under this home, oldest first; Cursor's chats read from its database. */
export async function historyFiles(agents: readonly ImportAgent[], home: string, env: NodeJS.ProcessEnv): Promise<{ files: SessionFile[]; unlisted: Unlisted[] }> {
  const listed = sessionFiles(agents, home, env);
  if (!agents.includes('cursor')) return listed;
  const cursor = await cursorSessionFiles(home, env);
  const files = [...listed.files, ...cursor.files];
  files.sort((a, b) => a.mtime - b.mtime || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { files, unlisted: [...listed.unlisted, ...cursor.unlisted] };
}

export async function pastHistory(home: string, env: NodeJS.ProcessEnv, agents: readonly ImportAgent[] = IMPORT_AGENTS): Promise<PastHistory> {
  const folders = sessionFolders(home, env);
  const { files, unlisted } = await historyFiles(agents, home, env);
  const found: AgentHistory[] = [];
  for (const agent of agents) {
    const mine = files.filter((f) => f.agent === agent);
    if (!mine.length) continue;
    // historyFiles sorts by mtime: the first is the oldest.
    found.push({ agent, sessions: mine.length, oldest: mine[0].mtime, newest: mine[mine.length - 1].mtime, folder: folders[agent] });
  }
  return { found, looked: agents.map((agent) => ({ agent, folder: folders[agent] })), unlisted };
}

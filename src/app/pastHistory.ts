// What history each agent keeps on this machine, at a glance: how many
// session files and since when, by listing and stat-ing them (no file is
// opened), so the editor can offer an import before reading a byte of it.
// The import itself (importSessions.ts) reads them.
import type { ImportAgent } from '../core/importAgents';
import { IMPORT_AGENTS } from '../core/importAgents';
import { sessionFiles, sessionFolders } from '../adapters/transcripts/sessionFiles';

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

export function pastHistory(home: string, env: NodeJS.ProcessEnv, agents: readonly ImportAgent[] = IMPORT_AGENTS): PastHistory {
  const folders = sessionFolders(home, env);
  const { files, unlisted } = sessionFiles(agents, home, env);
  const found: AgentHistory[] = [];
  for (const agent of agents) {
    const mine = files.filter((f) => f.agent === agent);
    if (!mine.length) continue;
    // sessionFiles sorts by mtime: the first is the oldest.
    found.push({ agent, sessions: mine.length, oldest: mine[0].mtime, newest: mine[mine.length - 1].mtime, folder: folders[agent] });
  }
  return { found, looked: agents.map((agent) => ({ agent, folder: folders[agent] })), unlisted };
}

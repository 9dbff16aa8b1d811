// The agents' past sessions on this machine, read into what an imported
// checkpoint says (importSessions.ts writes them). Each file is read once,
// as a stream, by its agent's reader; whatever cannot be read, or holds
// nothing to import, becomes a reason, and the rest goes on.
import * as path from 'path';
import { safeScope } from '../core/names';
import { scopeOf } from '../adapters/git/projectName';
import { readClaudeSession } from '../adapters/transcripts/claudePast';
import { readCodexSession } from '../adapters/transcripts/codexPast';
import { readCopilotSession } from '../adapters/transcripts/copilotPast';
import { readGeminiSession } from '../adapters/transcripts/geminiPast';
import { readVscodeCopilotSession } from '../adapters/transcripts/vscodeCopilotPast';
import { tallyText } from '../adapters/transcripts/jsonlStream';
import type { PastCommand, PastSession } from '../adapters/transcripts/pastSession';
import type { ImportAgent } from '../core/importAgents';
import type { SessionFile } from '../adapters/transcripts/sessionFiles';
import type { CursorSessionFile } from '../adapters/transcripts/cursorPast';
import { geminiProjectRoot } from '../adapters/transcripts/sessionFiles';
import { clip } from '../adapters/transcripts/userWords';
import { projectRoots, repoRelative } from './editedPaths';

const READERS: Record<Exclude<ImportAgent, 'cursor'>, (file: string) => PastSession> = {
  'claude-code': readClaudeSession,
  codex: readCodexSession,
  gemini: readGeminiSession,
  copilot: readCopilotSession,
  'vscode-copilot': readVscodeCopilotSession,
};

const TASK_CHARS = 1200;
const STATE_CHARS = 2000;
const COMMAND_CHARS = 300;

/** A past session ready to become a checkpoint. */
export interface PastCheckpoint {
  agent: ImportAgent;
  /** The agent's own session id. */
  id: string;
  scope: string;
  file: string;
  started: number;
  ended: number;
  task: string;
  lastMessage: string;
  files: string[];
  commands: string[];
  branch: string;
  commit: string;
  /** Lines of its transcript skipped as unreadable or of unknown types, as a clause; "" when none. */
  skippedLines: string;
}

export type Read = { session: PastCheckpoint } | { reason: string };

const oneLine = (s: string, max: number): string => clip(s.replace(/\s+/g, ' '), max);

function commandText(c: PastCommand): string {
  const status = c.exit !== undefined ? ` (exit ${c.exit})` : c.failed ? ' (failed)' : '';
  return `${oneLine(c.command, COMMAND_CHARS)}${status}`;
}

/** The latest commands (the reader keeps those), and how many earlier ones it let go of, so no list is cut silently. */
function commandsOf(s: PastSession): string[] {
  const kept = s.commands.map(commandText);
  return s.commandsLeftOut ? [`(${s.commandsLeftOut} earlier command(s) not listed)`, ...kept] : kept;
}

/** The project of the folder a session ran in (the contract's rules, worktrees included), or why there is none. */
function scopeFor(s: PastSession, f: SessionFile, home: string): { scope: string; cwd: string } | { reason: string } {
  const cwd = s.cwd || f.cwdHint || (f.agent === 'gemini' ? geminiProjectRoot(f.file) : '');
  const raw = cwd && path.isAbsolute(cwd) ? scopeOf(cwd, home) : f.projectHint || null;
  if (raw === null) return { reason: cwd ? 'it ran in the home folder or at the root, which is no project' : 'it names no folder it ran in' };
  try {
    return { scope: safeScope(raw), cwd: cwd && path.isAbsolute(cwd) ? cwd : '' };
  } catch (err) {
    return { reason: `its folder gives no project name: ${err instanceof Error ? err.message : String(err)}` };
  }
}

const shortSha = (sha: string): string => (/^[0-9a-f]{40}$/i.test(sha) ? sha.slice(0, 7) : /^[0-9a-f]{4,40}$/i.test(sha) ? sha : '');

/** One session file read into a checkpoint-to-be, or the reason it is none. Never throws. */
export function readPastSession(f: SessionFile, home: string): Read {
  let s: PastSession;
  try {
    // A Cursor chat was read with its database (cursorPast.ts); every other agent's is a file of its own.
    if ('preRead' in f) s = (f as CursorSessionFile).preRead;
    else if (f.agent === 'cursor') return { reason: 'a Cursor chat is read from its database, not on its own' };
    else s = READERS[f.agent](f.file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = typeof code === 'string' ? code : (err instanceof Error ? err.message : String(err)).split(f.file).join('it');
    return { reason: `could not be read (${why})` };
  }
  // A file's name is its session's id where the agent names it so; lines inside can carry an earlier session's id (a resume).
  const id = f.idHint || s.id;
  if (!id) return { reason: 'names no session id' };
  const unknown = [...s.unknown].map(([t, n]) => `${n} record(s) of unknown type ${JSON.stringify(t)}`).join(', ');
  const skippedLines = [tallyText(s.tally), unknown].filter(Boolean).join(', ');
  if (!s.task) return { reason: `holds no request of the person's${skippedLines ? ` (skipped: ${skippedLines})` : ''}` };
  const where = scopeFor(s, f, home);
  if ('reason' in where) return where;
  const roots = where.cwd ? projectRoots(where.cwd) : [];
  const files = [...new Set(s.files.map((p) => (where.cwd ? repoRelative(p, where.cwd, roots) : null)).filter((p): p is string => !!p))];
  return {
    session: {
      agent: f.agent,
      id,
      scope: where.scope,
      file: f.file,
      started: s.started || s.ended || f.mtime,
      ended: s.ended || f.mtime,
      task: clip(s.task, TASK_CHARS),
      lastMessage: s.lastMessage ? clip(s.lastMessage, STATE_CHARS) : '',
      files,
      commands: commandsOf(s),
      branch: s.branch,
      commit: shortSha(s.commit),
      skippedLines,
    },
  };
}

// One finished (or abandoned) agent session as its transcript tells it, for
// `baton import`: the facts a rule-based, extractive checkpoint is made of.
// Each agent's reader (claudePast.ts, codexPast.ts, geminiPast.ts,
// copilotPast.ts) streams its file once (jsonlStream.ts) and fills one of
// these; what the person typed is read by the same per-line functions the
// pre-compaction capture uses (claude.ts, codex.ts, gemini.ts, copilot.ts).
// Everything here is the agent's text, untrusted: the app quotes it.
import type { LineTally } from './jsonlStream';
import { isObject, text, withoutHandover } from './userWords';

export interface PastCommand {
  command: string;
  /** The exit code when the transcript records one. */
  exit?: number;
  /** The tool said the command failed, where no exit code is recorded. */
  failed?: boolean;
}

export interface PastSession {
  /** The agent's own session id, "" when the transcript names none. */
  id: string;
  /** The folder the session ran in, "" when unknown. */
  cwd: string;
  /** Unix seconds of its first and last timed record; 0 when none. */
  started: number;
  ended: number;
  /** The first thing the person asked, "" when none. */
  task: string;
  /** The agent's last message to the person, "" when none. */
  lastMessage: string;
  /** Paths the agent's edit tools changed, as the agent wrote them (absolute, or relative to cwd). */
  files: string[];
  /** The latest MAX_COMMANDS commands it ran, oldest first. */
  commands: PastCommand[];
  /** How many earlier commands were let go of while streaming. */
  commandsLeftOut: number;
  branch: string;
  commit: string;
  tally: LineTally;
  /** Records of a type this reader does not know, by type: skipped. */
  unknown: Map<string, number>;
}

/**
 * What a reader keeps of one text while it streams: enough for the checkpoint
 * (which clips further, app/pastSessions.ts) and no more, so a session of a
 * thousand pasted logs holds what a short one does.
 */
const KEEP_CHARS = 8000;
/** The commands a reader keeps, the latest: a checkpoint lists these and counts the rest. */
export const MAX_COMMANDS = 100;
const kept = (t: string): string => (t.length > KEEP_CHARS ? `${t.slice(0, KEEP_CHARS)} …[clipped]` : t);

export const emptyTally = (): LineTally => ({ bad: 0, torn: false, long: 0 });

export function newSession(): PastSession {
  return {
    id: '',
    cwd: '',
    started: 0,
    ended: 0,
    task: '',
    lastMessage: '',
    files: [],
    commands: [],
    commandsLeftOut: 0,
    branch: '',
    commit: '',
    tally: emptyTally(),
    unknown: new Map(),
  };
}

/** Widens the session's span with a record's time (an ISO string or epoch milliseconds). */
export function seen(s: PastSession, when: unknown): void {
  const ms = typeof when === 'string' ? Date.parse(when) : typeof when === 'number' ? when : NaN;
  if (!Number.isFinite(ms) || ms <= 0) return;
  const t = Math.floor(ms / 1000);
  if (!s.started || t < s.started) s.started = t;
  if (t > s.ended) s.ended = t;
}

/** The first request, once: the person's words without Baton's own hand-over pasted or injected into them. */
export function asked(s: PastSession, said: string): void {
  if (s.task) return;
  const clean = withoutHandover(said);
  if (clean) s.task = kept(clean);
}

/** The agent's latest message to the person, when it said something (tool-only turns say nothing). */
export function answered(s: PastSession, said: unknown): void {
  const t = text(said).trim();
  if (t) s.lastMessage = kept(t);
}

/** A command the session ran, recorded (its text cut to what a checkpoint shows) and returned for its result to fill in. */
export function ran(s: PastSession, command: string, exit?: number): PastCommand {
  const cmd: PastCommand = { command: command.length > 1000 ? command.slice(0, 1000) : command };
  if (exit !== undefined) cmd.exit = exit;
  s.commands.push(cmd);
  if (s.commands.length > MAX_COMMANDS) {
    s.commands.shift();
    s.commandsLeftOut++;
  }
  return cmd;
}

export function edited(s: PastSession, file: unknown): void {
  const f = text(file).trim();
  if (f && !s.files.includes(f)) s.files.push(f);
}

export function unknownType(s: PastSession, type: unknown): void {
  const t = typeof type === 'string' ? type.slice(0, 40) : '(no type)';
  s.unknown.set(t, (s.unknown.get(t) ?? 0) + 1);
}

/** A command as one line: an argv list joined, a `bash -lc "…"` wrapper taken off. */
export function commandLine(v: unknown): string {
  const argv = Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];
  const shell = argv.length === 3 && /(^|\/)(ba|z)?sh$/.test(argv[0]) && /^-l?c$/.test(argv[1]);
  return (shell ? argv[2] : argv.join(' ')).trim();
}

/** The exit code a tool's output text states ("Exit code: 1", "Process exited with code 1"), if any. */
export function exitIn(output: unknown): number | undefined {
  const m = /(?:^|\n)\s*(?:Exit code:|Process exited with code)\s*(-?\d+)/.exec(text(output));
  return m ? Number(m[1]) : undefined;
}

/** An object's string field, "" when absent. */
export const field = (v: unknown, key: string): string => (isObject(v) ? text(v[key]) : '');

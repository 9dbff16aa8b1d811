// `baton import`: the agents' past sessions on this machine, each one
// extractive checkpoint (issue 27), written as every checkpoint is, through
// the core's commit (exclusive names, secrets masked), back-dated to the
// session's own end and folding none of today's open notes. Each carries
// `imported: <the agent's session id>` (and `agent_session`, as a hook's
// capture does), so a second import writes nothing, and a session Baton's
// hooks already followed (its checkpoint, or its binding on this machine) is
// not imported again.
import * as path from 'path';
import type { Baton } from '../core/baton';
import { emptyGit } from '../core/model';
import { rootProject, safeScope } from '../core/names';
import { day } from '../core/time';
import { readBinding } from '../adapters/agentSessions';
import type { ImportAgent } from '../core/importAgents';
import { AGENT_NAME_OF } from '../core/importAgents';
import type { SessionFile } from '../adapters/transcripts/sessionFiles';
import { historyFiles } from './pastHistory';
import type { PastCheckpoint } from './pastSessions';
import { readPastSession } from './pastSessions';

/** The frontmatter key of Baton's own that marks an imported checkpoint; its value is the agent's session id. */
export const IMPORTED_KEY = 'imported';

export interface ImportOptions {
  vaultRoot: string;
  home: string;
  env: NodeJS.ProcessEnv;
  agents: readonly ImportAgent[];
  /** Only sessions active at or after this time (unix seconds). */
  since?: number;
  /** Only this project's sessions (its worktrees included). */
  project?: string;
  dryRun?: boolean;
  /** Now, unix seconds (tests move it); else the clock's. */
  now?: number;
  /** A line of progress (the CLI prints it on stderr). */
  progress?(line: string): void;
  /** Where it is, after each file read and each checkpoint written (the editor's progress notification). */
  step?(at: ImportStep): void;
  /**
   * Asked before each file and each checkpoint: true stops the import there.
   * Every checkpoint is written whole or not at all, so what it wrote is a
   * vault like any other, and the next import writes the rest.
   */
  cancelled?(): boolean;
}

export interface ImportStep {
  phase: 'reading' | 'writing';
  done: number;
  total: number;
}

export interface ImportedCheckpoint {
  agent: string;
  project: string;
  /** Baton's checkpoint id ("" in a dry run, where nothing is written). */
  session: string;
  slug: string;
  /** The transcript, relative to the home folder. */
  source: string;
  agentSession: string;
}

export interface ImportReport {
  imported: number;
  dryRun: boolean;
  skipped: { source: string; reason: string }[];
  checkpoints: ImportedCheckpoint[];
  /** Set only when `cancelled()` stopped it: the sessions it had yet to write. */
  cancelled?: { left: number };
}

/** A session file changed within this many seconds counts as still being written. */
const STILL_WRITING = 300;

/** Lets the event loop run between sessions (the editor's views, its Cancel button); reading itself is synchronous. */
const breathe = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');
const key = (agent: string, id: string): string => `${agent}\u0000${id}`;

/** The sessions the vault already holds, by agent and session id: imported ones and hooks' captures alike. */
async function knownSessions(baton: Baton): Promise<Map<string, string>> {
  const known = new Map<string, string>();
  for (const scope of await baton.scopes()) {
    for (const cp of await baton.history(scope)) {
      for (const id of [str(cp.extra[IMPORTED_KEY]), str(cp.extra.agent_session)]) if (id) known.set(key(cp.agent, id), cp.session);
    }
  }
  return known;
}

function checkpointOf(p: PastCheckpoint): { task: string; state: string; files: string[]; commands: string[] } {
  const span = day(p.started) === day(p.ended) ? day(p.ended) : `${day(p.started)} to ${day(p.ended)}`;
  const head = `Imported from a past ${p.agent} session (${span}), rule-based: the task is the person's first request, this is the agent's last message, both quoted; not a deliberate hand-over.`;
  return { task: p.task, state: p.lastMessage ? `${head}\n\n${p.lastMessage}` : `${head} The agent left no message.`, files: p.files, commands: p.commands };
}

export async function importSessions(baton: Baton, o: ImportOptions): Promise<ImportReport> {
  const report: ImportReport = { imported: 0, dryRun: !!o.dryRun, skipped: [], checkpoints: [] };
  const rel = (f: string): string => {
    const r = path.relative(o.home, f);
    return r && !r.startsWith('..') && !path.isAbsolute(r) ? r.split(path.sep).join('/') : f;
  };
  const skip = (source: string, reason: string): void => void report.skipped.push({ source: rel(source), reason });
  const now = o.now ?? Math.floor(Date.now() / 1000);
  const only = o.project ? rootProject(safeScope(o.project)) : '';
  const { files, unlisted } = await historyFiles(o.agents, o.home, o.env);
  for (const u of unlisted) skip(u.source, u.reason);
  const known = await knownSessions(baton);
  const ready: PastCheckpoint[] = [];
  const seenHere = new Set<string>();
  o.progress?.(`Reading ${files.length} session file(s) of ${o.agents.join(', ')}…`);
  const readOne = (f: SessionFile, i: number): void => {
    if ((i + 1) % 50 === 0) o.progress?.(`  read ${i + 1} of ${files.length}`);
    // A file last written before --since holds no record after it.
    if (o.since !== undefined && f.mtime < o.since) return;
    // A file written moments ago is most likely a session still running: an import now would freeze half of it
    // (and a second import skip the rest), so it waits for the session to end.
    const quiet = now - f.mtime;
    if (quiet < STILL_WRITING) return skip(f.file, `still being written (changed ${Math.max(quiet, 0)} s ago): import it once the session has ended`);
    const read = readPastSession(f, o.home);
    if ('reason' in read) return skip(f.file, read.reason);
    const s = read.session;
    if (o.since !== undefined && s.ended < o.since) return;
    if (only && rootProject(s.scope) !== only) return;
    const k = key(AGENT_NAME_OF[s.agent], s.id);
    const already = known.get(k);
    if (already) return skip(f.file, `already in the vault (checkpoint ${already})`);
    if (readBinding(o.vaultRoot, AGENT_NAME_OF[s.agent], s.id)) return skip(f.file, "Baton's hooks followed this session (Baton keeps its session binding)");
    if (seenHere.has(k)) return skip(f.file, `another file of this import holds session ${s.id}`);
    seenHere.add(k);
    if (s.skippedLines) skip(f.file, `skipped ${s.skippedLines}; the rest imported`);
    ready.push(s);
  };
  for (let i = 0; i < files.length; i++) {
    if (o.cancelled?.()) return stopped(report, ready.length + files.length - i, o);
    readOne(files[i], i);
    o.step?.({ phase: 'reading', done: i + 1, total: files.length });
    await breathe();
  }
  // Oldest first, so each checkpoint follows the one before it in its project.
  ready.sort((a, b) => a.ended - b.ended || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  for (const [i, s] of ready.entries()) {
    if (o.cancelled?.()) return stopped(report, ready.length - i, o);
    const entry: ImportedCheckpoint = { agent: AGENT_NAME_OF[s.agent], project: s.scope, session: '', slug: '', source: rel(s.file), agentSession: s.id };
    if (o.dryRun) {
      report.checkpoints.push(entry);
      continue;
    }
    try {
      const r = await baton.commit({
        scope: s.scope,
        agent: AGENT_NAME_OF[s.agent],
        fields: checkpointOf(s),
        extra: { [IMPORTED_KEY]: s.id, agent_session: s.id },
        at: s.ended,
        git: { ...emptyGit(), branch: s.branch, commit: s.commit },
        foldNotes: false,
      });
      report.checkpoints.push({ ...entry, project: r.checkpoint.project, session: r.checkpoint.session, slug: r.checkpoint.slug });
      report.imported++;
      if (report.imported % 50 === 0) o.progress?.(`  wrote ${report.imported} of ${ready.length}`);
    } catch (err) {
      skip(s.file, `not written: ${err instanceof Error ? err.message : String(err)}`);
    }
    o.step?.({ phase: 'writing', done: i + 1, total: ready.length });
    await breathe();
  }
  o.progress?.(o.dryRun ? `Would import ${ready.length} session(s).` : `Imported ${report.imported} session(s).`);
  return report;
}

function stopped(report: ImportReport, left: number, o: ImportOptions): ImportReport {
  report.cancelled = { left };
  o.progress?.(`Cancelled: ${o.dryRun ? 'nothing written' : `${report.imported} session(s) imported`}, ${left} left for the next import.`);
  return report;
}

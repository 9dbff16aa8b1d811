// Agent blame: which checkpoint's session wrote each line of a file. The rules
// are core/agentBlame.ts; here git is asked (one blame per file revision, one
// walk of the commit graph per HEAD) and the vault read (every scope of the
// file's project). The CLI asks once; the editor keeps an AgentBlame for its
// life, so moving the cursor or hovering asks git nothing.
import * as path from 'path';
import type { Baton } from '../core/baton';
import type { Checkpoint } from '../core/model';
import { rootProject } from '../core/names';
import { usage } from '../core/errors';
import type { BlameRange } from '../core/blameText';
import { attributeCommits, checkpointTips, earliestStart, lineRanges, type Attribution } from '../core/agentBlame';
import { blameFile, commitGraph, headSha, type BlameAnswer } from '../adapters/git/blame';
import { FileHistory } from '../adapters/git/fileHistory';
import { scopeOfFolder } from './scope';

export type { Attribution };

/** One range of lines, as `baton blame --json` and the tools give it. */
export type BlameLine = BlameRange;

export interface BlameReport {
  /** Relative to the repository when in one, else as given. */
  file: string;
  /** The file's project, null when its folder has none. */
  project: string | null;
  lines: BlameLine[];
  /** Set when there is nothing to blame: a sentence saying why (not a repository, untracked, binary…). */
  nothing?: string;
  reason?: Exclude<BlameAnswer, { ok: true }>['reason'] | 'no-project';
}

export interface BlameOptions {
  /** The text to blame instead of the file on disk (a document's unsaved edits). */
  contents?: string;
  /** False in an untrusted workspace: no git process is started. */
  enabled?: boolean;
  signal?: AbortSignal;
}

export interface BlameResult {
  report: BlameReport;
  ranges: Attribution[];
}

export const toBlameLine = (a: Attribution): BlameLine => ({
  start: a.start,
  end: a.end,
  commit: a.commit,
  session: a.checkpoint.session,
  project: a.checkpoint.project,
  agent: a.checkpoint.agent,
  task: a.checkpoint.task || a.checkpoint.next,
  slug: a.checkpoint.slug,
  ts: a.checkpoint.ts,
});

/** Every checkpoint of a project and its worktree scopes, the candidates for a line of its files. */
export async function projectCheckpoints(baton: Baton, project: string): Promise<Checkpoint[]> {
  const scopes = (await baton.scopes()).filter((s) => rootProject(s) === project);
  return (await Promise.all(scopes.map((s) => baton.history(s)))).flat();
}

/** The project of the folder holding `file`; null for none (home, `/`) or a name that cannot be one. */
export function projectOfFile(file: string): string | null {
  try {
    const scope = scopeOfFolder(path.dirname(file));
    return scope ? rootProject(scope) : null;
  } catch {
    return null;
  }
}

/**
 * Blames a file and keeps what does not change with each edit: the graph per
 * (repository, HEAD, checkpoints' commits) and the checkpoints per project
 * until `forget` (the vault changed). A file's blame itself is the caller's to
 * cache: it knows the document's version.
 */
export class AgentBlame {
  private readonly graphs = new Map<string, Promise<Map<string, string[]>>>();
  private readonly checkpoints = new Map<string, Promise<Checkpoint[]>>();
  // Where HEAD points, read from the git folder (a few stats, no process), as the hover's history cache does.
  private readonly heads = new FileHistory();

  constructor(private readonly baton: () => Baton) {}

  /** A fingerprint of where HEAD points in `dir`'s repository, null when it cannot be told without git. */
  head(dir: string): Promise<string | null> {
    return this.heads.headOf(dir);
  }

  /** Drops the checkpoints read (a vault write may have added one); the graphs stay, keyed on HEAD. */
  forget(): void {
    this.checkpoints.clear();
  }

  async blame(file: string, opts: BlameOptions = {}): Promise<BlameResult> {
    const absolute = path.resolve(file);
    const project = projectOfFile(absolute);
    const answer = await blameFile(absolute, opts);
    if (!answer.ok) return { report: { file, project, lines: [], nothing: answer.message, reason: answer.reason }, ranges: [] };
    const nothing = (reason: 'no-project', message: string): BlameResult => ({ report: { file: answer.file, project, lines: [], nothing: message, reason }, ranges: [] });
    if (!project) return nothing('no-project', `${answer.file} belongs to no Baton project.`);
    const checkpoints = await this.checkpointsOf(project);
    const since = earliestStart(checkpoints);
    if (checkpoints.length === 0 || !Number.isFinite(since)) return { report: { file: answer.file, project, lines: [] }, ranges: [] };
    const graph = await this.graph(answer.root, checkpointTips(checkpoints), since, opts.signal);
    const owners = attributeCommits([...answer.commits.values()], checkpoints, graph);
    const ranges = lineRanges(answer.lines, owners);
    return { report: { file: answer.file, project, lines: ranges.map(toBlameLine) }, ranges };
  }

  private checkpointsOf(project: string): Promise<Checkpoint[]> {
    let hit = this.checkpoints.get(project);
    if (!hit) {
      hit = projectCheckpoints(this.baton(), project);
      this.checkpoints.set(project, hit);
      hit.catch(() => this.checkpoints.get(project) === hit && this.checkpoints.delete(project));
    }
    return hit;
  }

  private async graph(root: string, tips: string[], since: number, signal?: AbortSignal): Promise<Map<string, string[]>> {
    const head = (await this.heads.headOf(root)) ?? (await headSha(root, signal));
    const key = `${root}\0${head}\0${since}\0${tips.join(',')}`;
    let hit = this.graphs.get(key);
    if (!hit) {
      // One graph per repository is enough: an old HEAD's is never asked for again.
      for (const k of this.graphs.keys()) if (k.startsWith(`${root}\0`)) this.graphs.delete(k);
      hit = commitGraph(root, tips, since, signal);
      this.graphs.set(key, hit);
      hit.catch(() => this.graphs.get(key) === hit && this.graphs.delete(key));
    }
    return hit;
  }
}

/** One blame, as the CLI and the tools ask it. */
export async function blame(baton: Baton, file: string, opts: BlameOptions = {}): Promise<BlameResult> {
  return new AgentBlame(() => baton).blame(file, opts);
}

export interface LinesWhy {
  report: BlameReport;
  /** The ranges that hold any of the lines asked about, each with its whole checkpoint. */
  found: { range: BlameLine; checkpoint: Checkpoint }[];
}

/**
 * `why` for lines: the sessions that wrote lines `start`..`end` (1-based,
 * inclusive) of `file`, with their checkpoints. Refuses a range that is not
 * one, so an agent learns its mistake rather than reading "nobody".
 */
export async function whyLines(baton: Baton, file: string, lines: { start: number; end?: number }, opts: BlameOptions = {}): Promise<LinesWhy> {
  const start = lines.start;
  const end = lines.end ?? start;
  if (!Number.isInteger(start) || start < 1 || !Number.isInteger(end) || end < start) {
    throw usage(`Lines ${start}-${end} are no range: give a line from 1, and an end line at or after it.`);
  }
  const { report, ranges } = await blame(baton, file, opts);
  const found = ranges.filter((r) => r.end >= start && r.start <= end).map((r) => ({ range: toBlameLine(r), checkpoint: r.checkpoint }));
  return { report, found };
}

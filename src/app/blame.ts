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
import { ProjectCheckpoints } from './projectCheckpoints';

export type { Attribution, BlameAnswer };

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
 * until one of its checkpoint files changes. A file's blame is two steps, so
 * the editor keeps git's answer per document version and attributes it again
 * when the vault changes, without running git.
 */
export class AgentBlame {
  private readonly graphs = new Map<string, Promise<Map<string, string[]>>>();
  private readonly checkpoints: ProjectCheckpoints;
  // The last attribution of each answer: a vault change that touched no checkpoint of the project recomputes nothing.
  private readonly attributed = new WeakMap<BlameAnswer, { checkpoints: Checkpoint[]; graph: Map<string, string[]>; result: BlameResult }>();
  // Where HEAD points, read from the git folder (a few stats, no process), as the hover's history cache does.
  private readonly heads = new FileHistory();

  constructor(baton: () => Baton) {
    this.checkpoints = new ProjectCheckpoints(baton);
  }

  /** A fingerprint of where HEAD points in `dir`'s repository, null when it cannot be told without git. */
  head(dir: string): Promise<string | null> {
    return this.heads.headOf(dir);
  }

  async blame(file: string, opts: BlameOptions = {}): Promise<BlameResult> {
    return this.attribute(file, await this.gitBlame(file, opts), opts.signal);
  }

  /** Git's part: the commit of every line. */
  gitBlame(file: string, opts: BlameOptions = {}): Promise<BlameAnswer> {
    return blameFile(path.resolve(file), opts);
  }

  /** The vault's part: which checkpoint's session made each of those commits. */
  async attribute(file: string, answer: BlameAnswer, signal?: AbortSignal): Promise<BlameResult> {
    const project = projectOfFile(path.resolve(file));
    if (!answer.ok) return { report: { file, project, lines: [], nothing: answer.message, reason: answer.reason }, ranges: [] };
    if (!project) return { report: { file: answer.file, project, lines: [], nothing: `${answer.file} belongs to no Baton project.`, reason: 'no-project' }, ranges: [] };
    const checkpoints = await this.checkpoints.of(project);
    const since = earliestStart(checkpoints);
    if (checkpoints.length === 0 || !Number.isFinite(since)) return { report: { file: answer.file, project, lines: [] }, ranges: [] };
    const graph = await this.graph(answer.root, checkpointTips(checkpoints), since, signal);
    const last = this.attributed.get(answer);
    if (last && last.checkpoints === checkpoints && last.graph === graph) return last.result;
    const owners = attributeCommits([...answer.commits.values()], checkpoints, graph);
    const ranges = lineRanges(answer.lines, owners);
    const result = { report: { file: answer.file, project, lines: ranges.map(toBlameLine) }, ranges };
    this.attributed.set(answer, { checkpoints, graph, result });
    return result;
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

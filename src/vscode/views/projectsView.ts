// The Checkpoints view's tree (GitLens's Commits view with several
// repositories, in spirit): every project of the vault with its continuity
// (ok, quiet, never checkpointed; last checkpoint; uncommitted and abandoned
// counts), the workspace's own project first and open on its checkpoints, so
// the history a person came for is one level down, not in a second view that
// repeated it. Another project opens to its worktrees and recent checkpoints.
import type { ProjectContinuity } from '../../core/model';
import { rootProject } from '../../core/names';
import type { BatonHost } from '../batonHost';
import type { Node } from './nodes';
import { ThreadStates } from './threadStates';
import { TreeProvider } from './treeProvider';
import { lastWhoseOf, whoseIn, type WhoseOf } from './whose';

/** Enough to see another project's thread; its "older…" makes it the current one. */
const RECENT = 10;
/** The current scope's first page: its newest checkpoints, with the other projects still in reach below. */
export const PAGE = 50;
/** How many more each "older…" of the current scope opens in place. */
export const OLDER = 200;

export class ProjectsView extends TreeProvider {
  /** The thread's state of the projects open in this window, read in the background (git runs there). */
  private readonly threads = this.register(new ThreadStates(this.host, this.log, () => this.refresh()));

  /** How many background reads of a thread's state have started (BatonApi.threadReads). */
  get threadReads(): number {
    return this.threads.reads;
  }

  protected async children(node: Node | undefined): Promise<Node[]> {
    const current = this.host.project.current;
    if (!node) return this.roots(current);
    if (node.kind === 'project') {
      const scopes = node.continuity.scopes.map((scope): Node => ({ kind: 'scope', scope, current: scope === current }));
      const project = node.continuity.project;
      return [...scopes, ...(await checkpointNodes(this.host, project, project === current ? PAGE : RECENT, project === current))];
    }
    if (node.kind === 'scope') return checkpointNodes(this.host, node.scope, node.current ? PAGE : RECENT, node.current);
    if (node.kind === 'more' && node.from !== undefined) return checkpointNodes(this.host, node.scope, OLDER, true, node.from);
    return [];
  }

  private async roots(current: string | undefined): Promise<Node[]> {
    const root = current ? rootProject(current) : undefined;
    const [list, here] = await Promise.all([this.host.session.baton.continuity(), this.host.session.baton.machine()]);
    const mine = list.find((c) => c.project === root);
    const others = list.filter((c) => c !== mine).map((c): Node => this.withThread(withWhose({ kind: 'project', continuity: c, current: false }, lastWhoseOf(c, here))));
    // The workspace's project is listed even before its first note, so the person sees where they are.
    const first = mine ?? (root ? blank(root) : undefined);
    if (!first) return others;
    return [this.withThread({ kind: 'project', continuity: first, current: true, whose: await lastWhose(this.host, first) }), ...others];
  }

  private withThread(node: Extract<Node, { kind: 'project' }>): Node {
    const thread = this.threads.of(node.continuity.project);
    return thread ? { ...node, thread } : node;
  }
}

/**
 * A scope's checkpoints from `from`, newest first, each saying whose where
 * the project has several machines; then "N older…", which opens in place
 * for the current scope and switches to the scope otherwise. The current
 * scope with none says so (and commits one on a click).
 */
export async function checkpointNodes(host: BatonHost, scope: string, count: number, current: boolean, from = 0): Promise<Node[]> {
  const history = await host.session.history(scope);
  if (current && history.length === 0) return [{ kind: 'noCheckpoints', scope }];
  const whose = await whoseOfScope(host, scope, history);
  const shown: Node[] = history
    .slice(from, from + count)
    .map((checkpoint, i) => withWhose({ kind: 'checkpoint', checkpoint, ...(from + i === 0 ? { latest: true } : {}) }, whose(checkpoint)));
  const hidden = history.length - from - count;
  if (hidden > 0) shown.push({ kind: 'more', scope, hidden, ...(current ? { from: from + count } : {}) });
  return shown;
}

const withWhose = <T extends Node>(node: T, whose: string): T => (whose ? { ...node, whose } : node);

/** The labeller for a scope's lists: its checkpoints' machines and its project's abandoned sessions', this machine counted. */
async function whoseOfScope(host: BatonHost, scope: string, history: Parameters<typeof whoseIn>[0]): Promise<WhoseOf> {
  const session = host.session;
  const [here, abandoned] = await Promise.all([session.baton.machine(), session.baton.abandoned()]);
  const project = rootProject(scope);
  const machines = abandoned.filter((a) => rootProject(a.project) === project).map((a) => a.machine ?? '');
  return whoseIn(history, machines, here);
}

/** Whose the project's last checkpoint is, when its own scope holds it (a worktree's last one is read when it is opened). */
async function lastWhose(host: BatonHost, c: ProjectContinuity): Promise<string | undefined> {
  if (!c.checkpoints) return undefined;
  const history = await host.session.history(c.project);
  const last = history[0];
  if (!last || last.ts !== c.lastCheckpoint) return undefined;
  return (await whoseOfScope(host, c.project, history))(last) || undefined;
}

function blank(project: string): ProjectContinuity {
  return { project, checkpoints: 0, lastCheckpoint: 0, lastAgent: '', lastMachine: '', lastPerson: '', machines: [], uncommitted: 0, abandoned: 0, quiet: true, scopes: [] };
}

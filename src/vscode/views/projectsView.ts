// Projects: every project of the vault with its continuity (ok, quiet, never
// checkpointed; last checkpoint; uncommitted and abandoned counts), the
// workspace's own project first. A project expands to its worktree scopes and
// its recent checkpoints.
import type { ProjectContinuity } from '../../core/model';
import { rootProject } from '../../core/names';
import type { Node } from './nodes';
import { TreeProvider } from './treeProvider';

/** Enough to see the thread; the Checkpoints view has the whole history. */
const RECENT = 10;

export class ProjectsView extends TreeProvider {
  protected async children(node: Node | undefined): Promise<Node[]> {
    const session = this.host.session;
    if (!node) {
      const current = this.host.project.current;
      const root = current ? rootProject(current) : undefined;
      const list = await session.baton.continuity();
      const mine = list.find((c) => c.project === root);
      const others = list.filter((c) => c !== mine).map((c): Node => ({ kind: 'project', continuity: c, current: false }));
      // The workspace's project is listed even before its first note, so the person sees where they are.
      const first = mine ?? (root ? blank(root) : undefined);
      return first ? [{ kind: 'project', continuity: first, current: true }, ...others] : others;
    }
    if (node.kind === 'project') {
      const current = this.host.project.current;
      const scopes = node.continuity.scopes.map((scope): Node => ({ kind: 'scope', scope, current: scope === current }));
      return [...scopes, ...(await this.recent(node.continuity.project))];
    }
    if (node.kind === 'scope') return this.recent(node.scope);
    return [];
  }

  private async recent(scope: string): Promise<Node[]> {
    const history = await this.host.session.history(scope);
    const shown: Node[] = history.slice(0, RECENT).map((checkpoint) => ({ kind: 'checkpoint', checkpoint }));
    if (history.length > RECENT) shown.push({ kind: 'more', scope, hidden: history.length - RECENT });
    return shown;
  }
}

function blank(project: string): ProjectContinuity {
  return { project, checkpoints: 0, lastCheckpoint: 0, lastAgent: '', uncommitted: 0, abandoned: 0, quiet: true, scopes: [] };
}

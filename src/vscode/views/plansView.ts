// Plans: per project (and worktree scope), newest first; the current
// project's group first and open.
import { rootProject } from '../../core/names';
import type { Node } from './nodes';
import { TreeProvider } from './treeProvider';

export class PlansView extends TreeProvider {
  protected async children(node: Node | undefined): Promise<Node[]> {
    if (node?.kind === 'planGroup') return node.plans.map((plan) => ({ kind: 'plan', plan }));
    if (node) return [];
    const session = this.host.session;
    const current = this.host.project.current;
    // The folder listing, not the index: a project may hold plans before its first checkpoint.
    const scopes = await session.baton.scopes();
    const groups: Node[] = [];
    for (const scope of scopes) {
      const plans = await session.plans(scope);
      if (plans.length) groups.push({ kind: 'planGroup', scope, plans, current: scope === current });
    }
    const mineFirst = (n: Node): number => (n.kind === 'planGroup' && current && rootProject(n.scope) === rootProject(current) ? 0 : 1);
    return groups.sort((a, b) => mineFirst(a) - mineFirst(b));
  }
}

// The current scope's checkpoints exactly as the Checkpoints view lists them
// under its current project (or worktree): newest first, whose where the
// project has several machines, then "older…". No view of its own any more:
// the walkthrough's "a checkpoint in sight" and the test API read it.
import type { Node } from './nodes';
import { checkpointNodes, OLDER, PAGE } from './projectsView';
import { TreeProvider } from './treeProvider';

export class CheckpointsView extends TreeProvider {
  protected async children(node: Node | undefined): Promise<Node[]> {
    if (node?.kind === 'more' && node.from !== undefined) return checkpointNodes(this.host, node.scope, OLDER, true, node.from);
    if (node) return [];
    const scope = this.host.project.current;
    if (!scope) return [];
    return (await checkpointNodes(this.host, scope, PAGE, true)).filter((n) => n.kind !== 'noCheckpoints');
  }
}

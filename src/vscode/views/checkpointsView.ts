// Checkpoints: the history of the current project (or the one switched to),
// newest first; each expands to its sections and opens its markdown on click.
import type { Node } from './nodes';
import { TreeProvider } from './treeProvider';

/** A tree of thousands of rows helps nobody; the files are all in the vault. */
const LIMIT = 200;

export class CheckpointsView extends TreeProvider {
  protected async children(node: Node | undefined): Promise<Node[]> {
    if (node) return [];
    const scope = this.host.project.current;
    if (!scope) return [];
    const history = await this.host.session.history(scope);
    const shown: Node[] = history.slice(0, LIMIT).map((checkpoint) => ({ kind: 'checkpoint', checkpoint }));
    if (history.length > LIMIT) shown.push({ kind: 'more', scope, hidden: history.length - LIMIT });
    return shown;
  }
}

// Abandoned Sessions: open sessions across the vault whose agent went silent
// past the 6-hour window, longest silent first; each has an inline Close.
import type { Node } from './nodes';
import { TreeProvider } from './treeProvider';

export class AbandonedView extends TreeProvider {
  protected async children(node: Node | undefined): Promise<Node[]> {
    if (node) return [];
    const list = await this.host.session.baton.abandoned();
    return list.map((abandoned) => ({ kind: 'abandoned', abandoned }));
  }
}

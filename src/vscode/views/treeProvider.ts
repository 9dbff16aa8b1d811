// What every Baton view shares: refresh on the host's events, items built by
// items.ts, checkpoints expanding to their sections, and failures logged
// rather than thrown (a thrown error leaves a view blank with no welcome, and
// one unreadable file must never break a view).
import * as vscode from 'vscode';
import { systemClock } from '../../app/openBaton';
import type { BatonHost } from '../batonHost';
import type { ClaimChecks } from '../claimChecks';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import { toTreeItem } from './items';
import type { Node } from './nodes';
import { sectionChildren, sectionsOf } from './nodes';

export abstract class TreeProvider extends Disposable implements vscode.TreeDataProvider<Node> {
  private readonly emitter = this.register(new vscode.EventEmitter<Node | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;
  /** Time of the last refresh: ages in one render agree with each other. */
  protected now = systemClock.now();

  constructor(
    protected readonly host: BatonHost,
    protected readonly log: Log,
    private readonly name: string,
    /** Its checkpoints' claims, judged fresh or stale; a view without it shows none. */
    protected readonly claims?: ClaimChecks,
  ) {
    super();
    this.register(host.onDidChange(() => this.refresh()));
    // A saved edit of a covered file turns a claim stale without any vault change.
    if (claims) this.register(claims.onDidChange(() => this.refresh()));
  }

  refresh(): void {
    this.now = systemClock.now();
    this.emitter.fire(undefined);
  }

  getTreeItem(node: Node): vscode.TreeItem {
    return toTreeItem(node, {
      now: this.now,
      fileOf: (slug) => this.host.session.fileOf(slug),
      notesFileOf: (scope) => this.host.session.notesFileOf(scope),
      claims: (cp) => this.claims?.of(cp) ?? [],
    });
  }

  async getChildren(node?: Node): Promise<Node[]> {
    try {
      if (!node) {
        // A root waits for the look at the vault under way (the first, or after
        // a vault switch or a rebuild): answering [] meanwhile would flash the
        // "empty" welcome over a vault still loading.
        await this.host.loaded();
        // A vault that is missing, empty or unreadable: its welcome view speaks for it.
        if (this.host.state !== 'ready') return [];
      }
      if (node?.kind === 'checkpoint') return sectionsOf(node.checkpoint, node.latest);
      if (node?.kind === 'section') return node.section === 'next' ? [] : sectionChildren(node.checkpoint, node.section, node.latest);
      return await this.children(node);
    } catch (err) {
      this.log.error(`The ${this.name} view could not read the vault`, err);
      return [];
    }
  }

  /** The view's own levels: the roots (node undefined) and the nodes only it creates. */
  protected abstract children(node: Node | undefined): Promise<Node[]>;
}

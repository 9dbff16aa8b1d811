// Registers Baton's views and owns their providers. The Baton container holds
// Checkpoints (every project, the current one open on its history), Abandoned
// Sessions (only while there are some), Plans and Agents (collapsed); This
// File lives in the Explorer beside the file tree, as GitLens's File History
// does, so it never takes the space the history needs.
import * as vscode from 'vscode';
import type { BatonHost } from '../batonHost';
import type { ClaimChecks } from '../claimChecks';
import type { FileTouches } from '../editor/fileTouches';
import { ContextKeys, Views } from '../ids';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import { AbandonedKey } from './abandonedKey';
import { AbandonedView } from './abandonedView';
import { AgentsView } from './agentsView';
import { CheckpointsView } from './checkpointsView';
import type { Node } from './nodes';
import { PlansView } from './plansView';
import { ProjectsView } from './projectsView';
import { ThisFileView } from './thisFileView';

export class BatonViews extends Disposable {
  /** The Checkpoints view's tree: projects, the current one open on its checkpoints. */
  readonly projects: ProjectsView;
  /** The current scope's checkpoints as that tree lists them (no view of its own). */
  readonly checkpoints: CheckpointsView;
  readonly abandoned: AbandonedView;
  readonly plans: PlansView;
  readonly thisFile: ThisFileView;
  readonly agents: AgentsView;

  constructor(host: BatonHost, files: FileTouches, log: Log, claims?: ClaimChecks) {
    super();
    this.projects = this.register(new ProjectsView(host, log, 'Checkpoints', claims));
    this.checkpoints = this.register(new CheckpointsView(host, log, 'Checkpoints', claims));
    this.abandoned = this.register(new AbandonedView(host, log, 'Abandoned Sessions'));
    this.plans = this.register(new PlansView(host, log, 'Plans'));
    this.thisFile = this.register(new ThisFileView(host, log, files));
    this.agents = this.register(new AgentsView(host, log));

    const tree = (id: string, provider: vscode.TreeDataProvider<Node>): vscode.TreeView<Node> =>
      this.register(vscode.window.createTreeView(id, { treeDataProvider: provider, showCollapseAll: true }));
    const checkpoints = tree(Views.checkpoints, this.projects);
    tree(Views.abandoned, this.abandoned);
    tree(Views.plans, this.plans);
    this.thisFile.view = tree(Views.thisFile, this.thisFile);
    this.agents.view = this.register(vscode.window.createTreeView(Views.agents, { treeDataProvider: this.agents }));
    // Agents' files and the launcher change outside the vault, unwatched: a look when the view comes into sight.
    this.register(this.agents.view.onDidChangeVisibility((e) => e.visible && this.agents.refresh()));

    // The walkthrough's "See its first checkpoint": true while the view is in sight showing a checkpoint, not when it merely opens.
    const seen = async (): Promise<void> => {
      const shows = checkpoints.visible && (await this.checkpoints.getChildren()).some((n) => n.kind === 'checkpoint');
      await host.context.set(ContextKeys.checkpointSeen, shows && checkpoints.visible);
    };
    const look = (): void => void seen().catch((err) => log.error('Checking for a shown checkpoint failed', err));
    this.register(checkpoints.onDidChangeVisibility(look));
    this.register(host.onDidChange(look));
    look();

    this.register(new AbandonedKey(host, log));

    // The view says whose history it opens on, since it can be switched.
    const describe = (): void => {
      const scope = host.project.current;
      checkpoints.description = scope ? (host.project.overridden ? `${scope} (switched)` : scope) : undefined;
    };
    this.register(host.onDidChange(describe));
    describe();
  }
}

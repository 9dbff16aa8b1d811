// Registers the views of the Baton container and owns their providers.
import * as vscode from 'vscode';
import type { BatonHost } from '../batonHost';
import type { FileTouches } from '../editor/fileTouches';
import { ContextKeys, Views } from '../ids';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import { AbandonedView } from './abandonedView';
import { AgentsView } from './agentsView';
import { CheckpointsView } from './checkpointsView';
import type { Node } from './nodes';
import { PlansView } from './plansView';
import { ProjectsView } from './projectsView';
import { ThisFileView } from './thisFileView';

export class BatonViews extends Disposable {
  readonly projects: ProjectsView;
  readonly checkpoints: CheckpointsView;
  readonly abandoned: AbandonedView;
  readonly plans: PlansView;
  readonly thisFile: ThisFileView;
  readonly agents: AgentsView;

  constructor(host: BatonHost, files: FileTouches, log: Log) {
    super();
    this.projects = this.register(new ProjectsView(host, log, 'Projects'));
    this.checkpoints = this.register(new CheckpointsView(host, log, 'Checkpoints'));
    this.abandoned = this.register(new AbandonedView(host, log, 'Abandoned Sessions'));
    this.plans = this.register(new PlansView(host, log, 'Plans'));
    this.thisFile = this.register(new ThisFileView(host, log, files));
    this.agents = this.register(new AgentsView(host, log));

    const tree = (id: string, provider: vscode.TreeDataProvider<Node>): vscode.TreeView<Node> =>
      this.register(vscode.window.createTreeView(id, { treeDataProvider: provider, showCollapseAll: true }));
    tree(Views.projects, this.projects);
    const checkpoints = tree(Views.checkpoints, this.checkpoints);
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

    // The Checkpoints view says whose history it shows, since it can be switched.
    const describe = (): void => {
      const scope = host.project.current;
      checkpoints.description = scope ? (host.project.overridden ? `${scope} (switched)` : scope) : undefined;
    };
    this.register(host.onDidChange(describe));
    describe();
  }
}

// The status-bar item: the current project, its uncommitted working notes and
// the vault's abandoned sessions; a click opens the Baton container.
import * as vscode from 'vscode';
import { rootProject } from '../core/names';
import type { BatonHost } from './batonHost';
import { affects, readConfig } from './config';
import { VIEW_CONTAINER } from './ids';
import { Disposable } from './lifecycle';
import type { Log } from './log';

export class StatusBar extends Disposable {
  private readonly item = this.register(vscode.window.createStatusBarItem('baton.status', vscode.StatusBarAlignment.Left, 50));
  private generation = 0;

  constructor(
    private readonly host: BatonHost,
    private readonly log: Log,
  ) {
    super();
    this.item.name = 'Baton';
    this.item.command = `workbench.view.extension.${VIEW_CONTAINER}`;
    this.register(host.onDidChange(() => void this.update()));
    this.register(vscode.workspace.onDidChangeConfiguration((e) => affects(e, 'statusBar') && void this.update()));
  }

  /** Exposed for tests: the text as shown. */
  get text(): string {
    return this.item.text;
  }

  async update(): Promise<void> {
    const generation = ++this.generation;
    if (!readConfig().statusBar.enabled || this.host.state !== 'ready') {
      this.item.hide();
      return;
    }
    try {
      const project = this.host.project.current;
      const all = await this.host.session.baton.continuity();
      if (generation !== this.generation) return;
      const mine = project ? all.find((c) => c.project === rootProject(project)) : undefined;
      const abandoned = all.reduce((n, c) => n + c.abandoned, 0);
      const notes = mine?.uncommitted ?? 0;
      this.item.text = [`$(history) ${project ?? 'Baton'}`, notes ? `$(note) ${notes}` : '', abandoned ? `$(warning) ${abandoned}` : ''].filter(Boolean).join('  ');
      this.item.tooltip = [
        project ? `Baton: ${project}` : 'Baton: this workspace has no project',
        `${notes} uncommitted working note(s) in this project`,
        `${abandoned} abandoned session(s) in the vault`,
        'Click to open the Baton views',
      ].join('\n');
      this.item.show();
    } catch (err) {
      this.log.error('Updating the status bar failed', err);
      this.item.hide();
    }
  }
}

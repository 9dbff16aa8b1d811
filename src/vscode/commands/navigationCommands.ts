// Commands that move the person around: open a checkpoint or plan, list the
// checkpoints of a file, switch the project the views follow.
import * as vscode from 'vscode';
import { touchPick } from '../../core/lensText';
import { systemClock } from '../../app/openBaton';
import type { Touch } from '../../core/model';
import type { BatonHost } from '../batonHost';
import type { FileTouches } from '../editor/fileTouches';
import type { Log } from '../log';
import { asArgs, inform, showFailure, slugOf, str, uriOf } from './args';
import { pickProject } from './pickProject';

export class NavigationCommands {
  constructor(
    private readonly host: BatonHost,
    private readonly files: FileTouches,
    private readonly log: Log,
  ) {}

  /** Opens a checkpoint's markdown. Refuses a slug that would leave the vault (hover links carry slugs). */
  openCheckpoint = (arg?: unknown): Promise<vscode.TextEditor | undefined> => this.openSlug(slugOf(arg), 'checkpoint');

  /**
   * The walkthrough's Show Checkpoints, useful in every state: with
   * checkpoints, the view; before the vault has any, the same view (whose
   * welcome offers the first steps) and a word on how the first one comes.
   */
  showCheckpoints = async (): Promise<'checkpoints' | 'none'> => {
    await this.host.loaded();
    const scope = this.host.project.current;
    const history = this.host.state === 'ready' && scope ? await this.host.session.history(scope).catch(() => []) : [];
    if (history.length) {
      await vscode.commands.executeCommand('baton.checkpoints.focus');
      return 'checkpoints';
    }
    await vscode.commands.executeCommand('baton.checkpoints.focus');
    const where = scope ? `in ${scope}` : 'in this workspace';
    void vscode.window
      .showInformationMessage(
        `No checkpoint ${where} yet: a connected agent writes one when it checkpoints or its session ends, or you can commit one.`,
        'Commit Checkpoint',
        'Connect an Agent',
      )
      .then((pick) => {
        if (pick === 'Commit Checkpoint') void vscode.commands.executeCommand('baton.commitCheckpoint');
        if (pick === 'Connect an Agent') void vscode.commands.executeCommand('baton.connectAgent');
      });
    return 'none';
  };

  openPlan = (arg?: unknown): Promise<vscode.TextEditor | undefined> => this.openSlug(slugOf(arg), 'plan');

  /**
   * The CodeLens's click: the checkpoints that touched a file in a pick list,
   * the chosen one opened. One checkpoint opens at once.
   */
  showFileCheckpoints = async (arg?: unknown): Promise<Touch[] | undefined> => {
    const uri = uriOf(arg);
    if (!uri) {
      inform('Open a file first: Baton lists the checkpoints that touched it.');
      return undefined;
    }
    try {
      const touches = await this.files.of(uri);
      const name = vscode.workspace.asRelativePath(uri);
      if (touches.length === 0) {
        inform(`No Baton checkpoint touched ${name}.`);
        return touches;
      }
      if (touches.length === 1) {
        await this.openCheckpoint({ slug: touches[0].slug });
        return touches;
      }
      const now = systemClock.now();
      const project = this.files.queryOf(uri)?.project;
      const pick = await vscode.window.showQuickPick(
        touches.map((t) => ({ ...touchPick(t, now, project), slug: t.slug })),
        { title: `Checkpoints that touched ${name}`, placeHolder: 'Newest first; pick one to open it', matchOnDescription: true, matchOnDetail: true },
      );
      if (pick) await this.openCheckpoint({ slug: pick.slug });
      return touches;
    } catch (err) {
      showFailure(this.log, 'Listing the checkpoints of the file', err);
      return undefined;
    }
  };

  /** Switch Project: the views and commands follow another project (or worktree) in this workspace. */
  switchProject = async (arg?: unknown): Promise<string | undefined> => {
    const given = str(asArgs(arg).project);
    const scope = given ?? (await pickProject(this.host, 'Show which project? (the views and commands follow it in this workspace)'));
    if (!scope) return undefined;
    try {
      await this.host.project.switchTo(scope);
      await vscode.commands.executeCommand('baton.checkpoints.focus');
      return this.host.project.current;
    } catch (err) {
      showFailure(this.log, 'Switching project', err);
      return undefined;
    }
  };

  private async openSlug(slug: string | undefined, what: string): Promise<vscode.TextEditor | undefined> {
    const file = slug ? this.host.session.fileOf(slug) : undefined;
    if (!file) {
      void vscode.window.showErrorMessage(`Baton: no such ${what} in the vault${slug ? ` (${slug})` : ''}.`);
      return undefined;
    }
    try {
      return await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
    } catch (err) {
      showFailure(this.log, `Opening the ${what}`, err);
      return undefined;
    }
  }
}

// Baton: Share the Thread With Cloud Agents… and Baton: Stop Sharing the
// Thread… (issue 28): the editor's door to app/repoThread, as Connect Agent…
// is to app/connect. The plan is made first, each file it changes is shown as
// a diff (the bytes the plan was made from against the bytes it writes), and
// a go-ahead pick that stays open while the person reads them; then that same
// plan is written, and a file changed since is refused, not overwritten.
// Trusted workspaces only: it runs git in the repository and writes files the
// person then commits for cloud agents to run (their session-start hooks).
import * as path from 'path';
import * as vscode from 'vscode';
import type { FileChange } from '../../app/connect';
import { homeOf } from '../../app/projectDir';
import type { ThreadOutcome, ThreadPlan } from '../../app/repoThread';
import { applyThreadPlan, planThreadDisable, planThreadEnable } from '../../app/repoThread';
import type { BatonHost } from '../batonHost';
import { gitAllowed } from '../config';
import type { ConnectDocuments } from '../connect/connectDocuments';
import type { Log } from '../log';
import { workspaceCommitPlace } from '../workspaceGit';
import { asArgs, showFailure, str } from './args';
import { pickProject } from './pickProject';

type Action = 'enable' | 'disable';

const WORDS: Record<Action, { verb: string; title: string; done: string }> = {
  enable: { verb: 'Share', title: 'Share the Thread With Cloud Agents', done: 'shared the thread of' },
  disable: { verb: 'Stop Sharing', title: 'Stop Sharing the Thread', done: 'took the shared thread out of the repository of' },
};

function asFileChange(root: string, c: ThreadPlan['changes'][number]): FileChange {
  const action = c.before === null ? 'created' : c.after === null ? 'removed' : 'updated';
  return { path: path.join(root, ...c.rel.split('/')), before: c.before, after: c.after, action, backup: null, dropBackup: null };
}

export class ThreadCommands {
  constructor(
    private readonly host: BatonHost,
    private readonly previews: ConnectDocuments,
    private readonly log: Log,
  ) {}

  /** `{project}` names the project (else the workspace's, else a pick), `{folder}` the repository's folder (else the project's workspace folder). */
  shareThread = (arg?: unknown): Promise<ThreadOutcome | undefined> => this.run('enable', arg);
  stopSharingThread = (arg?: unknown): Promise<ThreadOutcome | undefined> => this.run('disable', arg);

  private async run(action: Action, arg: unknown): Promise<ThreadOutcome | undefined> {
    const words = WORDS[action];
    if (!gitAllowed()) {
      const why = vscode.workspace.isTrusted ? "Baton's git is turned off (the baton.git.enabled setting)" : 'this workspace is not trusted';
      void vscode.window.showWarningMessage(`Baton: ${words.title} runs git in your repository and writes files cloud agents run, and ${why}: nothing was written.`);
      return undefined;
    }
    const a = asArgs(arg);
    const scope = str(a.project) ?? this.host.project.current ?? (await pickProject(this.host, 'Whose thread? This workspace has no project.'));
    if (!scope) return undefined;
    const folder = str(a.folder) ?? workspaceCommitPlace(this.host.project, scope).folder ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!folder) {
      void vscode.window.showWarningMessage(`Baton: ${words.title} works in a project's repository: open its folder first.`);
      return undefined;
    }
    try {
      const plan =
        action === 'enable'
          ? await planThreadEnable(this.host.session.baton, { scope, cwd: folder, home: homeOf(process.env), vault: this.host.session.root })
          : await planThreadDisable({ cwd: folder });
      return await this.confirmAndApply(action, scope, plan);
    } catch (err) {
      showFailure(this.log, words.title, err);
      return undefined;
    } finally {
      await this.previews.closeAll();
    }
  }

  private async confirmAndApply(action: Action, scope: string, plan: ThreadPlan): Promise<ThreadOutcome | undefined> {
    const words = WORDS[action];
    const changed = plan.changes.filter((c) => c.before !== c.after);
    if (!changed.length) {
      const none = action === 'enable' ? `${plan.folder}/ is up to date` : 'the thread is not shared in this repository';
      void vscode.window.showInformationMessage(`Baton: nothing to change: ${none}.`);
      return { folder: plan.folder, written: [], removed: [], masked: plan.masked, notes: plan.notes };
    }
    await this.previews.showDiffs(
      changed.map((c) => asFileChange(plan.root, c)),
      `${words.verb.toLowerCase()} ${scope}`,
    );
    const files = changed.map((c) => `${c.before === null ? 'create' : c.after === null ? 'remove' : 'update'} ${c.rel}`).join(', ');
    const yes = { label: `$(check) ${words.verb}`, description: `Baton will ${files}`, detail: plan.notes.join(' ') || undefined, value: true };
    const no = { label: '$(close) Cancel', description: 'Write nothing', value: false };
    const picked = await vscode.window.showQuickPick([yes, no], {
      title: `Baton: ${words.title}? (${scope})`,
      placeHolder: 'The diffs behind this show exactly what will be written in the repository',
      ignoreFocusOut: true,
    });
    if (!picked?.value) return undefined;
    const outcome = await applyThreadPlan(plan);
    this.log.info(`${words.title} (${scope}): wrote ${outcome.written.join(', ') || 'nothing'}; removed ${outcome.removed.join(', ') || 'nothing'}`);
    const commit = action === 'enable' ? ' Commit these files with your work: cloud agents read them from the default branch.' : ' Commit the removal with your work.';
    const notes = outcome.notes.length ? ` ${outcome.notes.join(' ')}` : '';
    void vscode.window.showInformationMessage(`Baton: ${words.done} ${scope}.${commit}${notes}`, 'Open Source Control').then((pick) => {
      if (pick) void vscode.commands.executeCommand('workbench.view.scm');
    });
    return outcome;
  }
}

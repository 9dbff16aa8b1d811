// The vault shared through git, in the editor: one sync at a time, started by
// Baton: Sync Vault, after a checkpoint and every N minutes when the person
// opted in; the status bar item saying where the vault stands. Git runs only
// when `gitAllowed()` (a trusted workspace, `baton.git.enabled`) and only on
// the vault's own repository (app/sync checks the folder is its top).
//
// Failures: the command shows each one with its fix; a background sync shows
// a failure once and not again until it changes or a sync succeeds (an
// offline laptop must not get a notification every five minutes), never a
// modal dialog.
import * as vscode from 'vscode';
import { ident } from '../../core/quoted';
import { syncStatusText, type SyncView } from '../../core/syncText';
import { SyncError, syncState, syncVault, type SyncResult } from '../../app/sync';
import { checkpointFilesGlob } from '../../app/vaultFiles';
import { pullThreadHere } from '../../app/threadRefresh';
import type { BatonHost } from '../batonHost';
import { affects, gitAllowed, readConfig } from '../config';
import { Commands } from '../ids';
import { describe, type Log } from '../log';
import { Disposable, timerDisposable } from '../lifecycle';

/** The vault's sync, and what the pull of the workspace's shared thread brought after it (issue 28). */
export interface EditorSyncResult extends SyncResult {
  /** Cloud checkpoints imported from the branches of this window's repositories that share the thread. */
  thread: { imported: number; rejected: number; failed: string[] };
}

/** A checkpoint's burst of files (and an agent's next one) settles before a sync starts. */
const AFTER_CHECKPOINT_MS = 3000;

export class SyncController extends Disposable {
  private readonly item = this.register(vscode.window.createStatusBarItem('baton.sync', vscode.StatusBarAlignment.Left, 49));
  private view: SyncView = { ahead: 0, behind: 0, changed: 0, syncing: false, lastSynced: 0, failed: '' };
  private running: Promise<EditorSyncResult | undefined> | undefined;
  private shownFailure = '';
  private interval: ReturnType<typeof setInterval> | undefined;
  private soon: ReturnType<typeof setTimeout> | undefined;
  private stateTimer: ReturnType<typeof setTimeout> | undefined;
  private checkpointWatcher: vscode.Disposable | undefined;
  private shared = false;

  constructor(
    private readonly host: BatonHost,
    private readonly log: Log,
  ) {
    super();
    this.item.name = 'Baton Sync';
    this.item.command = Commands.syncVault;
    this.register(timerDisposable(() => this.stopTimers()));
    this.register({ dispose: () => this.checkpointWatcher?.dispose() });
    this.register(host.onDidChange(() => this.stateSoon()));
    this.register(host.onDidChangeVault(() => this.configure()));
    this.register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.configure()));
    this.register(vscode.workspace.onDidChangeConfiguration((e) => (affects(e, 'sync') || affects(e, 'git')) && this.configure()));
    this.configure();
  }

  /** Exposed for tests: the item's text as shown ('' when hidden). */
  get text(): string {
    return this.shared ? this.item.text : '';
  }

  /**
   * Runs one sync (or joins the one running). `interactive`: the person asked,
   * so progress is a notification and every failure is shown with its fix.
   */
  sync(interactive: boolean): Promise<EditorSyncResult | undefined> {
    if (!gitAllowed()) {
      if (interactive) {
        void vscode.window.showWarningMessage(
          vscode.workspace.isTrusted
            ? 'Baton syncs the vault with git, and git is turned off for Baton (baton.git.enabled). Turn it on to sync.'
            : "Baton runs git only in a trusted workspace: a repository's settings can start programs. Trust this workspace to sync the vault, or run baton sync in a terminal.",
        );
      }
      return Promise.resolve(undefined);
    }
    this.running ??= this.run(interactive).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async run(interactive: boolean): Promise<EditorSyncResult | undefined> {
    const root = this.host.session.root;
    this.view = { ...this.view, syncing: true };
    this.render();
    const location = interactive ? vscode.ProgressLocation.Notification : vscode.ProgressLocation.Window;
    try {
      const result = await vscode.window.withProgress({ location, title: 'Baton: syncing the vault…' }, () => syncVault(root));
      this.view = { ...this.view, syncing: false, failed: '', lastSynced: Math.floor(Date.now() / 1000) };
      this.shownFailure = '';
      this.log.info(`Synced ${root}: committed ${result.committed} file(s), pulled ${result.pulled}, pushed ${result.pushed} commit(s)`);
      for (const r of result.renamed) this.log.info(`Renamed ${r.from} -> ${r.to} (the name was taken on another machine)`);
      for (const r of result.refused) this.log.warn(`Refused ${r.path}: ${r.reason}`);
      if (result.refused.length)
        void vscode.window.showWarningMessage(
          `Baton: the sync left out ${result.refused.length} thing(s) it does not share (see Baton's output): ${result.refused.map((r) => r.path).join(', ')}`,
        );
      if (result.unreadable.length) {
        void vscode.window.showWarningMessage(`Baton: ${result.unreadable.length} file(s) arrived by sync that Baton cannot read; they are kept: ${result.unreadable.join(', ')}`);
      }
      const thread = await this.pullThreads();
      const came = thread.imported ? ` ${thread.imported} cloud checkpoint(s) came home from the repository's branches.` : '';
      const failed = thread.failed.length ? ` The shared thread was not pulled (see Baton's output).` : '';
      if (interactive) void vscode.window.showInformationMessage(`Baton: vault synced (pulled ${result.pulled}, pushed ${result.pushed} commit(s)).${came}${failed}`);
      return { ...result, thread };
    } catch (err) {
      const message = describe(err);
      this.view = { ...this.view, syncing: false, failed: message };
      this.log.error(`Syncing ${root} failed`, err);
      // A vault that is not shared is no failure of a background sync: it has nothing to do.
      const reason = err instanceof SyncError ? err.reason : undefined;
      const unshared = reason === 'notRepo' || reason === 'noUpstream';
      if (interactive && unshared) {
        this.offerSharing(root, reason === 'noUpstream');
      } else if (interactive || (!unshared && message !== this.shownFailure)) {
        this.shownFailure = message;
        void vscode.window.showErrorMessage(`Baton: ${message}`, 'Show Log').then((pick) => pick && this.log.show());
      }
      return undefined;
    } finally {
      await this.refreshState();
    }
  }

  /**
   * After the vault's sync, `baton sync`'s thread pull (app/threadRefresh
   * pullThreadHere) in each folder of this window whose repository shares
   * the thread: the checkpoints cloud agents committed on its branches, as
   * the person's last fetch left them. A failure is logged and said, never
   * the sync's: the vault is synced by then.
   */
  private async pullThreads(): Promise<EditorSyncResult['thread']> {
    const out: EditorSyncResult['thread'] = { imported: 0, rejected: 0, failed: [] };
    for (const f of vscode.workspace.workspaceFolders ?? []) {
      if (f.uri.scheme !== 'file') continue;
      try {
        const r = await pullThreadHere(this.host.session.baton, f.uri.fsPath);
        if (!r) continue;
        out.imported += r.imported.length;
        out.rejected += r.rejected.length;
        for (const i of r.imported) this.log.info(`Pulled ${ident(i.file)} from ${ident(i.branch)} as checkpoint ${i.session} (${i.agent})`);
        for (const x of r.rejected) this.log.warn(`Not pulled: ${ident(x.file)} on ${ident(x.branch)}: ${x.reason}`);
      } catch (err) {
        out.failed.push(describe(err));
        this.log.error(`Pulling the shared thread in ${f.uri.fsPath} failed`, err);
      }
    }
    return out;
  }

  /**
   * Sync Vault on a vault not shared yet: not an error with CLI commands to
   * copy, but the two ways on, as buttons that run Share or Join (the
   * CLI's words stay in the log).
   */
  private offerSharing(root: string, repoWithoutRemote: boolean): void {
    const why = repoWithoutRemote ? `the vault's git repository ${root} has no remote to sync with yet` : `the vault ${root} is not shared yet`;
    const share = 'Share Vault…';
    const join = 'Join a Shared Vault…';
    void vscode.window
      .showInformationMessage(`Baton: ${why}, so there is nothing to sync. Share it through a git remote (an empty repository), or join a vault someone shared.`, share, join)
      .then((pick) => {
        if (pick) void vscode.commands.executeCommand(Commands.shareVault, { mode: pick === share ? 'share' : 'join' });
      });
  }

  /** Reads the settings: the interval, the after-checkpoint watcher, whether the vault is shared at all. */
  private configure(): void {
    this.stopTimers();
    this.checkpointWatcher?.dispose();
    this.checkpointWatcher = undefined;
    const { sync } = readConfig();
    if (sync.intervalMinutes > 0) this.interval = setInterval(() => void this.sync(false), sync.intervalMinutes * 60_000);
    if (sync.afterCheckpoint) {
      try {
        // Checkpoint files only: notes change all the time and are carried by the next sync.
        const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(this.host.session.root), checkpointFilesGlob()), false, true, true);
        w.onDidCreate(() => this.afterCheckpoint());
        this.checkpointWatcher = w;
      } catch (err) {
        this.log.error('Could not watch the vault for checkpoints; sync after each checkpoint is off', err);
      }
    }
    void this.refreshState();
  }

  /**
   * A checkpoint file appeared: sync once things settle, if there is anything
   * to send. Files a sync itself brought in are committed already, so they
   * start no second sync (decided by what git says, not by a quiet period
   * that would also swallow an agent's checkpoint right after a sync).
   */
  private afterCheckpoint(): void {
    if (this.soon) clearTimeout(this.soon);
    this.soon = setTimeout(() => {
      this.soon = undefined;
      void this.syncIfPending();
    }, AFTER_CHECKPOINT_MS);
  }

  private async syncIfPending(): Promise<void> {
    if (this.running) await this.running;
    if (!gitAllowed()) return;
    try {
      const s = await syncState(this.host.session.root);
      if (s.changed > 0 || s.ahead > 0) await this.sync(false);
    } catch (err) {
      if (!(err instanceof SyncError)) this.log.error("Reading the vault's sync state failed", err);
    }
  }

  private stateSoon(): void {
    if (this.stateTimer) return;
    this.stateTimer = setTimeout(() => {
      this.stateTimer = undefined;
      void this.refreshState();
    }, 1000);
  }

  /** Ahead, behind and changed from the repository as it is (no network); hides the item when the vault is not shared. */
  private async refreshState(): Promise<void> {
    if (this.isDisposed) return;
    if (!gitAllowed()) {
      this.shared = false;
      this.item.hide();
      return;
    }
    try {
      const s = await syncState(this.host.session.root);
      this.shared = true;
      this.view = { ...this.view, ...s };
    } catch (err) {
      this.shared = false;
      if (!(err instanceof SyncError)) this.log.error("Reading the vault's sync state failed", err);
    }
    this.render();
  }

  private render(): void {
    if (this.isDisposed) return;
    if (!this.shared && !this.view.syncing) {
      this.item.hide();
      return;
    }
    const { text, tooltip } = syncStatusText(this.view, Math.floor(Date.now() / 1000));
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.show();
  }

  private stopTimers(): void {
    if (this.interval) clearInterval(this.interval);
    if (this.soon) clearTimeout(this.soon);
    if (this.stateTimer) clearTimeout(this.stateTimer);
    this.interval = this.soon = this.stateTimer = undefined;
  }
}

// Baton: Install 'baton' Command in PATH. The launcher is refreshed first, so
// the link never points at a file that is not there yet; then the app layer
// links it and this says, plainly, what it did or what is left to do.
// Baton: Refresh Launcher, the Agents view's fix for a launcher that does not
// run: activation's refresh, on demand (after a failed one, or a launcher
// someone else broke since).
import * as vscode from 'vscode';
import { refreshLauncher } from '../../app/connect';
import { installOnPath, type PathInstall } from '../../app/pathInstall';
import type { Log } from '../log';
import { showFailure } from '../commands/args';
import { launcherTarget } from './launcherRefresh';

export class PathCommand {
  constructor(
    private readonly extensionPath: string,
    private readonly log: Log,
    /** Told after the launcher or the link was written, so the Agents view looks again. */
    private readonly onDidWrite: () => void = () => undefined,
  ) {}

  refreshLauncher = (): string | undefined => {
    try {
      const target = launcherTarget(this.extensionPath);
      const r = refreshLauncher(target);
      this.log.info(`Refresh Launcher: ${r.path} ${r.changed ? 'now runs' : 'already ran'} ${target.script} with ${target.runtime}`);
      void vscode.window.showInformationMessage(`Baton: ${r.path} ${r.changed ? 'now runs' : 'already runs'} this extension's CLI.`);
      return r.path;
    } catch (err) {
      showFailure(this.log, 'Refreshing the baton launcher', err);
      return undefined;
    } finally {
      this.onDidWrite();
    }
  };

  installInPath = async (): Promise<PathInstall | undefined> => {
    try {
      refreshLauncher(launcherTarget(this.extensionPath));
      const r = installOnPath();
      this.log.info(`Install 'baton' in PATH: ${JSON.stringify(r)}`);
      this.tell(r);
      this.onDidWrite();
      return r;
    } catch (err) {
      showFailure(this.log, "Installing the 'baton' command", err);
      return undefined;
    }
  };

  /** Non-blocking: the command returns what it did; a message waits for its reader, the command does not. */
  private tell(r: PathInstall): void {
    switch (r.kind) {
      case 'linked':
        void vscode.window.showInformationMessage(
          r.already ? `Baton: ${r.link} already runs Baton's launcher.` : `Baton: linked ${r.link} to ${r.launcher}. Shells started from now on can run 'baton'.`,
        );
        return;
      case 'occupied':
        void vscode.window.showWarningMessage(
          `Baton: ${r.link} already exists${r.points ? ` (it points at ${r.points})` : ''} and was left alone. Remove it and run this command again to use the launcher ${r.launcher}.`,
        );
        return;
      case 'manual':
        void vscode.window
          .showWarningMessage(`Baton cannot write to /usr/local/bin. Run this in a terminal to link 'baton': ${r.command}`, 'Copy Command')
          .then((pick) => pick && vscode.env.clipboard.writeText(r.command));
        return;
      case 'addToPath':
        void vscode.window
          .showInformationMessage(`Baton: add ${r.folder} to your PATH (Environment Variables in Windows' settings), then restart your terminals.`, 'Copy Folder')
          .then((pick) => pick && vscode.env.clipboard.writeText(r.folder));
        return;
    }
  }
}

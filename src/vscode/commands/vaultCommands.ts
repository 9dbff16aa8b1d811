// Commands about the vault itself: Refresh, Rebuild Index, Choose Vault Folder, Show Log.
import * as os from 'os';
import * as vscode from 'vscode';
import type { BatonHost } from '../batonHost';
import { setVault } from '../config';
import type { Log } from '../log';
import { asArgs, inform, showFailure, str } from './args';

export class VaultCommands {
  constructor(
    private readonly host: BatonHost,
    private readonly log: Log,
  ) {}

  /** Drops every cache and asks the vault again (the watcher makes this rarely needed). */
  refresh = async (): Promise<void> => {
    this.host.session.forget();
    await this.host.refresh();
  };

  /** Rebuild Index: deletes the derived index and rebuilds it from the markdown files, with progress. */
  rebuildIndex = async (): Promise<{ checkpoints: number } | undefined> => {
    try {
      const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Baton: rebuilding the index from the vault…', cancellable: false }, () =>
        this.host.rebuildIndex(),
      );
      const extras = [r.restored ? `${r.restored} working note(s) restored` : '', r.rescued ? `${r.rescued} pending note(s) written` : ''].filter(Boolean);
      inform(`Baton index rebuilt: ${r.checkpoints} checkpoint(s)${extras.length ? `, ${extras.join(', ')}` : ''}.`);
      return { checkpoints: r.checkpoints };
    } catch (err) {
      showFailure(this.log, 'Rebuilding the index', err);
      return undefined;
    }
  };

  /** Choose Vault Folder: a folder picker (or `{folder}`), written to the user setting `baton.vault`. */
  chooseVault = async (arg?: unknown): Promise<string | undefined> => {
    let folder = str(asArgs(arg).folder);
    if (!folder) {
      const picked = await vscode.window.showOpenDialog({
        canSelectFolders: true,
        canSelectFiles: false,
        canSelectMany: false,
        openLabel: 'Use as Baton Vault',
        title: 'Choose the folder Baton keeps checkpoints in (created if empty)',
        defaultUri: vscode.Uri.file(this.host.session.root.startsWith(os.homedir()) ? this.host.session.root : os.homedir()),
      });
      folder = picked?.[0]?.fsPath;
    }
    if (!folder) return undefined;
    try {
      await setVault(folder);
      // The configuration listener rebuilds the session; say where it now reads.
      this.log.info(`Vault chosen: ${folder}`);
      return folder;
    } catch (err) {
      showFailure(this.log, 'Saving the vault setting', err);
      return undefined;
    }
  };

  showLog = (): void => this.log.show();
}
